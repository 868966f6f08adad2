package main

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// The OAuth flags of every command that reaches a target, and the Tokens
// they (and the workload's auth block) make for a run.

// oauthFlags are --oauth-*, on run, check, capacity, ab, init and login.
func oauthFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "oauth-client-id", Usage: "OAuth: a pre-registered client `ID` (overrides the workload's auth.oauth.client_id)"},
		&cli.StringFlag{Name: "oauth-client-secret", Usage: "OAuth: the client's `SECRET` (${VAR} expands from the environment; never printed or saved)"},
		&cli.StringFlag{Name: "oauth-private-key", Usage: "OAuth: a PEM private key `FILE` for private_key_jwt client authentication (RFC 7523)"},
		&cli.StringFlag{Name: "oauth-scope", Usage: "OAuth: the `SCOPE` to ask for, space-separated (default: what the server's challenge or metadata asks)"},
		&cli.StringFlag{Name: "oauth-grant", Usage: "OAuth: `GRANT` client_credentials, or authorization_code (the tokens readbench login cached)"},
		&cli.StringSliceFlag{Name: "oauth-param", Usage: "OAuth: an extra token request field `NAME=VALUE`, repeatable (Auth0's audience=https://api; a resource=… replaces readbench's RFC 8707 one; ${VAR} expands; adds to auth.oauth.token_params, replacing a NAME it has)"},
	}
}

// oauthFlagsOf collects the --oauth-* flags given (runner.OAuthFlags:
// a flag not given is absent, and the workload's stands).
func oauthFlagsOf(c *cli.Context) runner.OAuthFlags {
	f := runner.OAuthFlags{}
	for _, name := range []string{"oauth-client-id", "oauth-client-secret", "oauth-private-key", "oauth-scope", "oauth-grant"} {
		if c.IsSet(name) {
			f[name] = []string{c.String(name)}
		}
	}
	if c.IsSet("oauth-param") {
		f["oauth-param"] = c.StringSlice("oauth-param")
	}
	return f
}

// oauthTokens makes the Tokens of a command's target, kept fresh by x
// until it is closed, or nil when it asks for no OAuth
// (runner.Extras.OAuth). A configuration error is a usage error (exit 2),
// failing to obtain a first token a failure to reach the target (exit 1).
func oauthTokens(c *cli.Context, x *runner.Extras, wa *workload.Auth, target targets.Target) (auth.Tokens, error) {
	o, err := oauthFlagsOf(c).Merge(wa)
	if err != nil {
		return nil, cli.Exit(c.Command.Name+": "+err.Error(), exitUsage)
	}
	src, cached, err := x.OAuth(c.Context, o, target)
	if err != nil {
		return nil, exitFor(c.Command.Name+": ", err)
	}
	if cached && !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "readbench: using the login cached for %s (readbench login)\n", target.Address)
	}
	return src, nil
}

func loginCommand() *cli.Command {
	return &cli.Command{
		Name:  "login",
		Usage: "obtain and check authorization for an OAuth-protected server; tokens are cached for the other commands",
		Description: "Runs the authorization code flow with PKCE (a pre-registered client, a client ID metadata\n" +
			"document, or dynamic registration), or the client credentials grant with --oauth-grant\n" +
			"client_credentials, then makes an authenticated initialize. Prints the resource, the scope\n" +
			"granted and when the token expires; the tokens go to the user's cache folder (mode 0600).\n" +
			"Exit 0 only once the authenticated initialize succeeded; 1 when it did not; 2 bad usage.\n\n" +
			"Examples:\n" +
			"  readbench login --target https://staging.example.com/mcp\n" +
			"  readbench login --target http://127.0.0.1:8080/mcp --headless\n" +
			"  readbench login --target https://staging.example.com/mcp --oauth-grant client_credentials --oauth-client-id loadtest --oauth-client-secret '${SECRET}'",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "the MCP server's `URL` (http:// or https://)"},
			&cli.BoolFlag{Name: "headless", Usage: "follow the authorization URL with an HTTP client instead of a browser (for test authorization servers that approve without a person)"},
			&cli.StringFlag{Name: "oauth-client-metadata-url", Usage: "the https `URL` of readbench's client ID metadata document, used as the client id where the authorization server supports them"},
			&cli.BoolFlag{Name: "no-browser", Usage: "print the authorization URL instead of opening a browser"},
		}, oauthFlags()...),
		Action: loginAction,
	}
}

func loginAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return cli.Exit("login: takes no arguments, only --target URL", exitUsage)
	}
	if !c.IsSet("target") {
		return cli.Exit("login: give --target URL", exitUsage)
	}
	target, err := targets.Parse(c.String("target"))
	if err != nil {
		return cli.Exit("login: --target: "+err.Error(), exitUsage)
	}
	o, err := oauthFlagsOf(c).Merge(&workload.Auth{OAuth: &workload.OAuth{Grant: auth.GrantAuthorizationCode}})
	if err != nil {
		return cli.Exit("login: "+err.Error(), exitUsage)
	}
	cfg, _, _, err := runner.OAuthConfig(o, target)
	if err != nil {
		return cli.Exit("login: "+err.Error(), exitUsage)
	}
	set, err := reach(c)
	if err != nil {
		return err
	}
	lc := auth.LoginConfig{Config: cfg, Headless: c.Bool("headless"), ClientMetadataURL: c.String("oauth-client-metadata-url"), Out: c.App.ErrWriter,
		Check: runner.LoginCheck(set, target)}
	if !c.Bool("no-browser") {
		lc.Open = openBrowser
	}
	ctx, cancel := context.WithTimeout(c.Context, 5*time.Minute)
	defer cancel()
	l, err := auth.RunLogin(ctx, lc)
	if err != nil {
		return cli.Exit(fmt.Sprintf("login: %s: %v", cfg.Target, err), exitFail)
	}
	fmt.Fprint(c.App.Writer, l.Summary(time.Now()))
	return nil
}

// openBrowser opens url with xdg-open where there is one; an error lets
// login print the URL instead.
func openBrowser(url string) error {
	path, err := exec.LookPath("xdg-open")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, path, url).Run()
}
