package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/readbench/readbench/contract"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/targets"
	"github.com/urfave/cli/v2"
)

// checkCommand checks a target's read contract before it is loaded: a CI
// step that exits 1 when the server breaks it, so a load run never
// measures a server that answers the wrong thing fast.
func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "check a target's read contract before loading it (pass/fail table, exit 1 on failure)",
		UsageText: "readbench check                                         # the embedded simulated server\n" +
			"readbench check --target http://127.0.0.1:8080/mcp\n" +
			"readbench check --target 'stdio:npx -y @modelcontextprotocol/server-everything' --format json\n" +
			"readbench check --target https://staging.example.com/mcp --allow-host staging.example.com --header 'Authorization: Bearer ${TOKEN}'",
		Description: "Opens one session and checks: the handshake (era, protocol version, server name and\n" +
			"version); resources/list (paginated) lists something; up to --sample listed resources read\n" +
			"with the right shape (exactly one of text/blob, uri echoed, mimeType present and agreeing\n" +
			"with the magic bytes, padded base64, contents not empty) and of the size the listing gives;\n" +
			"one instance of each listed template (--template-value, a listed instance or a completion);\n" +
			"a not-found error for an unknown URI (-32002 legacy, -32602 in 2026-07-28), and the same\n" +
			"for URIs shaped like the listed ones and missing instances of each listed template;\n" +
			"-32602 for a malformed URI; a cancelled read\n" +
			"that stays unanswered; the ranged read tool's semantics (docs/check.md) where offered.\n" +
			"Exit 0 when every check passes or is skipped, 1 on any failure, 2 on bad usage.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "`TARGET`: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse", Value: "embedded"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto", Value: "auto"},
			httpFlag(),
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; ${VAR} expands from the environment)"},
			&cli.IntFlag{Name: "sample", Usage: "listed resources to read and check", Value: 10},
			&cli.DurationFlag{Name: "timeout", Usage: "per request", Value: 10 * time.Second},
			&cli.StringFlag{Name: "cancel-uri", Usage: "`URI` of a slow read for the cancellation check (default: a delayed sim: URI on the simulated server, else the slowest sampled read)"},
			&cli.StringFlag{Name: "change-tool", Usage: "`NAME` of a tool taking {uri} that changes that document, for the subscription rows (default: touch, when listed)"},
			&cli.StringFlag{Name: "read-path", Usage: "`PATH` of a file for the ranged read tool checks on a server other than the simulated one"},
			&cli.StringSliceFlag{Name: "template-value", Usage: "a listed template's variable for the template read row: `NAME=VALUE` (repeatable)"},
			&cli.StringFlag{Name: "format", Usage: "table or json", Value: "table"},
			maxAnswerFlag(),
			handshakeTimeoutFlag(),
		}, append(aimFlags(), oauthFlags()...)...),
		Action: checkAction,
	}
}

func checkAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return cli.Exit("check: takes no arguments (the target is --target)", exitUsage)
	}
	format := c.String("format")
	if format != "table" && format != "json" {
		return cli.Exit(fmt.Sprintf("check: --format %q: want table or json", format), exitUsage)
	}
	if c.Int("sample") < 1 || c.Duration("timeout") <= 0 {
		return cli.Exit("check: --sample and --timeout must be positive", exitUsage)
	}
	target, err := targets.Parse(c.String("target"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("check: --target: %v", err), exitUsage)
	}
	headers, err := parseHeaders(c.StringSlice("header"))
	if err != nil {
		return cli.Exit("check: "+err.Error(), exitUsage)
	}
	maxAnswer, err := maxAnswerOf(c)
	if err != nil {
		return cli.Exit("check: "+err.Error(), exitUsage)
	}
	templateValues, err := parseTemplateValues(c.StringSlice("template-value"))
	if err != nil {
		return cli.Exit("check: "+err.Error(), exitUsage)
	}
	aim := aimOf(c, nil)
	if err := checkAim("check", target, headers, aim); err != nil {
		return err
	}
	set, err := reach(c)
	if err != nil {
		return err
	}
	var extras runner.Extras
	defer func() { _ = extras.Close() }() // tokens alone: nothing to report
	tokens, err := oauthTokens(c, &extras, nil, target)
	if err != nil {
		return err
	}
	rep, err := contract.Check(c.Context, contract.Options{
		Target: target, Protocol: c.String("protocol"), HTTPVersion: c.String("http"), Headers: headers, Auth: tokens,
		EmbeddedCommand: set.EmbeddedCommand, Client: set.Client,
		Sample: c.Int("sample"), Timeout: c.Duration("timeout"),
		CancelURI: c.String("cancel-uri"), ReadPath: c.String("read-path"), ChangeTool: c.String("change-tool"),
		Aim: aim, MaxAnswer: maxAnswer, HandshakeTimeout: set.HandshakeTimeout,
		TemplateValues: templateValues,
	})
	if err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	doc := rep.Document(tool())
	if format == "json" {
		err = report.WriteCheckJSON(c.App.Writer, doc)
	} else {
		err = report.WriteCheckTable(c.App.Writer, doc)
	}
	if err != nil {
		return err
	}
	if doc.Unreachable != "" {
		return cli.Exit(fmt.Sprintf("check: could not reach %s: %s", doc.Target.Address, doc.Unreachable), exitFail)
	}
	if len(doc.Checks) > 0 && doc.Checks[0].Name == "handshake" && doc.Checks[0].Status == results.CheckFail {
		return cli.Exit(fmt.Sprintf("check: %s: the handshake failed, so no check of the read contract ran: %s", doc.Target.Address, doc.Checks[0].Detail), exitFail)
	}
	if !doc.Pass {
		return cli.Exit(fmt.Sprintf("check: %s breaks the read contract (%d failed)", doc.Target.Address, doc.Summary.Fail), exitFail)
	}
	return nil
}

// parseTemplateValues reads --template-value NAME=VALUE flags.
func parseTemplateValues(flags []string) (map[string]string, error) {
	vals := map[string]string{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--template-value %q: want NAME=VALUE", f)
		}
		vals[name] = value
	}
	return vals, nil
}
