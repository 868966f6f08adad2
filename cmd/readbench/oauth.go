package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
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

// oauthConfig merges the workload's auth block and the flags (which win);
// ok is false when neither asks for OAuth.
//
// With neither, an HTTP target that readbench login got into before uses
// that login's cached tokens (cached is then true).
func oauthConfig(c *cli.Context, wa *workload.Auth, target targets.Target) (cfg auth.Config, ok, cached bool, err error) {
	o, ok, err := mergeOAuth(c, wa)
	if err != nil {
		return cfg, true, cached, err
	}
	if err := o.Unsaved(); ok && err != nil { // run --like: the secret a result does not keep
		return cfg, true, cached, err
	}
	if !ok && (target.Kind == targets.HTTP || target.Kind == targets.SSE) {
		// No OAuth asked for, but readbench login got in here before: use it.
		_, err := auth.LoadEntry("", target.Address)
		if errors.Is(err, auth.ErrNoLogin) {
			return cfg, false, false, nil
		}
		if err != nil {
			return cfg, true, cached, err
		}
		o.Grant, ok, cached = auth.GrantAuthorizationCode, true, true
	}
	if !ok {
		return cfg, false, false, nil
	}
	if target.Kind != targets.HTTP && target.Kind != targets.SSE {
		return cfg, true, cached, fmt.Errorf("OAuth is for an HTTP target; %s is not one", targetName(target))
	}
	cfg = auth.Config{
		Target: target.Address, Grant: o.Grant, ClientID: o.ClientID,
		ClientSecret: os.Expand(o.ClientSecret, os.Getenv), Scope: strings.Fields(o.Scope),
		AuthMethod: o.TokenEndpointAuth, ClientSecretEnv: secretEnv(o.ClientSecret), TokenParams: expandParams(o.TokenParams),
	}
	if o.PrivateKey != "" {
		if cfg.PrivateKey, err = auth.ReadPrivateKey(o.PrivateKey); err != nil {
			return cfg, true, cached, err
		}
	}
	if cfg.Grant == auth.GrantAuthorizationCode {
		return cfg, true, cached, auth.CheckTokenParams(cfg.TokenParams) // login's client: its id and secret are in the cache
	}
	return cfg, true, cached, cfg.Validate()
}

// mergeOAuth is the workload's auth block with the --oauth-* flags
// applied (they win); ok is false when neither asks for OAuth.
func mergeOAuth(c *cli.Context, wa *workload.Auth) (o workload.OAuth, ok bool, err error) {
	if wa != nil && wa.OAuth != nil {
		o, ok = *wa.OAuth, true
	}
	for _, f := range []struct {
		flag string
		to   *string
	}{
		{"oauth-client-id", &o.ClientID}, {"oauth-client-secret", &o.ClientSecret}, {"oauth-private-key", &o.PrivateKey},
		{"oauth-scope", &o.Scope}, {"oauth-grant", &o.Grant},
	} {
		if c.IsSet(f.flag) {
			*f.to, ok = c.String(f.flag), true
		}
	}
	if c.IsSet("oauth-param") {
		if o.TokenParams, err = withParams(o.TokenParams, c.StringSlice("oauth-param")); err != nil {
			return o, true, err
		}
		ok = true
	}
	return o, ok, nil
}

// withOAuthFlags puts the --oauth-* flags into w's auth block, so that
// the result records the authorization a run used (its secret redacted)
// and --like runs it again.
func withOAuthFlags(c *cli.Context, w *workload.Workload) {
	if o, ok, err := mergeOAuth(c, w.Auth); ok && err == nil {
		w.Auth = &workload.Auth{OAuth: &o}
	}
}

// withParams is the workload's token parameters with --oauth-param's
// NAME=VALUE added: a NAME the flags give replaces the workload's, and
// a NAME given twice has both values.
func withParams(from map[string][]string, flags []string) (map[string][]string, error) {
	out := maps.Clone(from)
	if out == nil {
		out = map[string][]string{}
	}
	given := map[string]bool{}
	for _, f := range flags {
		name, value, found := strings.Cut(f, "=")
		if !found || name == "" {
			return nil, fmt.Errorf("--oauth-param %q: want NAME=VALUE, as in audience=https://api.example.com", f)
		}
		if !given[name] {
			out[name], given[name] = nil, true
		}
		out[name] = append(out[name], value)
	}
	return out, nil
}

// expandParams is the token parameters with ${VAR} expanded from the
// environment, as url.Values.
func expandParams(p map[string][]string) url.Values {
	if len(p) == 0 {
		return nil
	}
	out := make(url.Values, len(p))
	for k, vs := range p {
		for _, v := range vs {
			out[k] = append(out[k], os.Expand(v, os.Getenv))
		}
	}
	return out
}

// oauthTokens makes the Tokens of a command's target, kept fresh by x
// until it is closed, or nil when it asks for no OAuth. A configuration
// error is a usage error (exit 2), failing to obtain a first token a
// failure to reach the target (exit 1).
func oauthTokens(c *cli.Context, x *runner.Extras, wa *workload.Auth, target targets.Target) (auth.Tokens, error) {
	cfg, ok, cached, err := oauthConfig(c, wa, target)
	if err != nil {
		return nil, cli.Exit(c.Command.Name+": "+err.Error(), exitUsage)
	}
	if !ok {
		return nil, nil
	}
	src, err := x.Authorize(c.Context, cfg)
	if errors.Is(err, auth.ErrNoSecret) { // what to give is the user's to say: a usage error, before any read
		return nil, cli.Exit(fmt.Sprintf("%s: %v", c.Command.Name, err), exitUsage)
	}
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("%s: %v", c.Command.Name, err), exitFail)
	}
	if cached && !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "readbench: using the login cached for %s (readbench login)\n", cfg.Target)
	}
	return src, nil
}

// secretEnvRE is a secret given as one environment variable and nothing
// else: $NAME or ${NAME}.
var secretEnvRE = regexp.MustCompile(`^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$`)

// secretEnv is the variable a secret is read from, "" when it was given
// as it is: a client credentials login caches that name, never the secret.
func secretEnv(raw string) string {
	m := secretEnvRE.FindStringSubmatch(raw)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
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
	cfg, _, _, err := oauthConfig(c, &workload.Auth{OAuth: &workload.OAuth{Grant: auth.GrantAuthorizationCode}}, target)
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
