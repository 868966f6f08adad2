package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
	"github.com/urfave/cli/v2"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "discover a target and write a starter workload with its MIME and size mix",
		UsageText: "readbench init --target http://127.0.0.1:8080/mcp > my-workload.yaml\n" +
			"readbench init --target 'stdio:./my-server --stdio' --out my-workload.yaml\n" +
			"readbench init --target https://staging.example.com/mcp --allow-host staging.example.com --header 'Authorization: Bearer ${TOKEN}'\n" +
			"readbench run my-workload.yaml",
		Description: "Lists the target (resources/list, every page, and resources/templates/list), reads a\n" +
			"few resources of each type whose size the listing leaves out (and up to 3 of each type whose\n" +
			"size it gives, using the bytes read where they differ), and prints a commented\n" +
			"workload: one class per MIME type, weighted by its share of the listing, drawing from the\n" +
			"observed size range; the templates and a not-found class as commented examples.\n" +
			"Exit 1 when the target cannot be reached, 2 on bad usage.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "`TARGET` to discover: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH"},
			&cli.StringFlag{Name: "from", Usage: "draw the workload from a recording `FILE` (readbench record) instead of a target's listing"},
			&cli.StringFlag{Name: "out", Usage: "write the workload to `FILE` instead of stdout"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite --out FILE if it exists"},
			handshakeTimeoutFlag(),
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto", Value: workload.DefaultProtocol},
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` for the target (repeatable; ${VAR} is expanded)"},
		}, append(aimFlags(), oauthFlags()...)...),
		Action: initAction,
	}
}

// initVerifyPerType is how many listed sizes of each MIME type init reads
// to see that they hold: a class must not be sized only from a listed size
// that a read contradicts (mcp-framework lists 100 bytes for a resource
// that reads 5,000).
const initVerifyPerType = 3

func initAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return cli.Exit("init: takes no arguments (did you mean --target?)", exitUsage)
	}
	if c.IsSet("from") {
		return initFrom(c)
	}
	if !c.IsSet("target") {
		return cli.Exit("init: --target is required, or --from RECORDING (see 'readbench init --help')", exitUsage)
	}
	target, err := targets.Parse(c.String("target"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("init: --target: %v", err), exitUsage)
	}
	headers, err := parseHeaders(c.StringSlice("header"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("init: %v", err), exitUsage)
	}
	aim := aimOf(c, nil)
	if err := checkAim("init", target, headers, aim); err != nil {
		return err
	}
	out, err := initOut(c)
	if err != nil {
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
	tell, stopSetup := runner.SetupLine(c.App.ErrWriter, terminal(c.App.ErrWriter), target.Name(), set.HandshakeTimeout)
	cat, err := driver.Discover(c.Context, driver.DiscoverOptions{
		Target: target, Protocol: c.String("protocol"), Headers: headers, Auth: tokens,
		EmbeddedCommand: set.EmbeddedCommand, Client: set.Client, Aim: aim,
		HandshakeTimeout: set.HandshakeTimeout, Setup: tell,
		VerifyPerType: initVerifyPerType,
	})
	stopSetup()
	if err != nil {
		return cli.Exit(fmt.Sprintf("init: %v", err), exitFail)
	}
	for _, w := range cat.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "readbench: init: %s\n", w)
	}
	in := cat.StarterInput(strings.TrimSpace(c.String("target")), target, headers)
	if o, err := oauthFlagsOf(c).Merge(nil); err == nil {
		in.OAuth = o
	}
	text, err := yamlfile.Starter(in)
	if err != nil {
		return cli.Exit(fmt.Sprintf("init: %v", err), exitFail)
	}
	if w := yamlfile.MaskedTargetWarning(in.TargetText); w != "" {
		fmt.Fprintf(c.App.ErrWriter, "readbench: init: %s\n", w)
	}
	fmt.Fprintf(c.App.ErrWriter, "readbench: init: %s %s (%s): %d resources, %d templates, %d sizes learned by reading\n",
		cat.Server.Name, cat.Server.Version, cat.ProtocolVersion, len(cat.Resources), len(cat.Templates), cat.Sampled)
	return writeStarter(c, out, text)
}

// writeStarter writes the starter workload to out (standard output when
// ""), and says how to run it.
func writeStarter(c *cli.Context, out string, text []byte) error {
	if out == "" {
		_, err := c.App.Writer.Write(text)
		return err
	}
	if err := results.WriteOutput(out, text, c.App.Writer); err != nil {
		return cli.Exit(fmt.Sprintf("init: %v", err), exitFail)
	}
	if out != results.Stdout {
		fmt.Fprintf(c.App.ErrWriter, "readbench: init: wrote %s; run it with: readbench run %s\n", out, out)
	}
	return nil
}

// initOut is --out, refused before anything is discovered when its
// folder is missing, or when the file exists and --force is not given.
func initOut(c *cli.Context) (string, error) {
	out := c.String("out")
	if out == "" {
		return "", nil
	}
	if err := results.CheckOutput(out); err != nil {
		return "", cli.Exit(fmt.Sprintf("init: --out: %v", err), exitUsage)
	}
	if !c.Bool("force") && !results.IsStream(out) {
		if _, err := os.Stat(out); err == nil {
			return "", cli.Exit(fmt.Sprintf("init: %s exists (use --force to overwrite)", out), exitUsage)
		}
	}
	return out, nil
}
