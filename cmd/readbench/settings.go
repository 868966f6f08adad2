package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/scenarios"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// The flags every command that runs the driver shares, read into the
// driver's plain values: runner.Prepare makes a run of them.

// reach is how every command reaches a target (runner.Reach): the
// embedded server is this executable's "serve --stdio", servers are told
// we are tool(), and --handshake-timeout, when given, bounds opening a
// session (it overrides a workload's load.handshake_timeout; without
// either driver.DefaultHandshakeTimeout applies).
func reach(c *cli.Context) (driver.Options, error) {
	self, err := os.Executable()
	if err != nil {
		return driver.Options{}, fmt.Errorf("find own executable for the embedded server: %w", err)
	}
	var limit time.Duration
	if c.IsSet("handshake-timeout") {
		if limit = c.Duration("handshake-timeout"); limit <= 0 {
			return driver.Options{}, cli.Exit(fmt.Sprintf("%s: --handshake-timeout must be above 0, such as 30s", c.Command.Name), exitUsage)
		}
	}
	return runner.Reach([]string{self, "serve", "--stdio"}, tool(), limit), nil
}

// workloadOf is the command's workload argument: a file, a built-in
// scenario, or the default scenario when none is given (a target given
// as an argument is not it: positional.go).
func workloadOf(c *cli.Context) (*workload.Workload, error) {
	arg, err := workloadArg(c)
	if err != nil {
		return nil, err
	}
	w, err := scenarios.Load(arg)
	if err != nil {
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	return w, nil
}

// prepare makes the run of w that base and the command's flags ask for
// (runner.Prepare, on a copy of w); edit, when given, changes the flags'
// overrides first (ab's sides set their targets).
func prepare(c *cli.Context, base driver.Options, w *workload.Workload, edit func(*driver.Overrides)) (driver.Options, error) {
	ov, err := overridesOf(c)
	if err != nil {
		return driver.Options{}, cli.Exit(err.Error(), exitUsage)
	}
	if edit != nil {
		edit(&ov)
	}
	opts, err := runner.Prepare(w, base, ov)
	var aim *runner.InputError
	if errors.As(err, &aim) { // how to allow the target: said as the command's
		return driver.Options{}, cli.Exit(c.Command.Name+": "+err.Error(), exitUsage)
	}
	if err != nil {
		return driver.Options{}, exitFor("", err)
	}
	return opts, nil
}

// exitFor is the exit of an error that ended a command, its message
// after prefix ("capacity: "): bad input (a workload, a file, a flag)
// exits 2, anything else (the target failing us, a result that could not
// be saved) 1.
func exitFor(prefix string, err error) error {
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		return err
	}
	msg := prefix + err.Error()
	var we *workload.Error
	var ie *runner.InputError
	if errors.As(err, &we) || errors.As(err, &ie) {
		return cli.Exit(msg, exitUsage)
	}
	return cli.Exit(msg, exitFail)
}

// exitOf is the exit of a judged result: what results.Judge decided, the
// findings it outranked said first on stderr.
func exitOf(stderr io.Writer, j results.Judgement) error {
	for _, a := range j.Also {
		fmt.Fprintf(stderr, "readbench: %s\n", a)
	}
	switch j.Exit {
	case results.Failed:
		return cli.Exit(j.Reason, exitFail)
	case results.Misused:
		return cli.Exit(j.Reason, exitUsage)
	case results.Interrupted:
		return cli.Exit(j.Reason, exitInterrupted)
	case results.NotSaved:
		return cli.Exit(j.Reason, exitNotSaved)
	}
	return nil
}

// forceFlag is --force of the commands that save one result to --out
// FILE: without it an existing FILE is refused before anything runs, as
// record and init refuse theirs.
func forceFlag() cli.Flag {
	return &cli.BoolFlag{Name: "force", Usage: "replace --out FILE if it exists"}
}

// forceFolderFlag is --force on the commands that save many results in
// --out DIR (capacity, ab): the folder's counterpart of forceFlag.
func forceFolderFlag() cli.Flag {
	return &cli.BoolFlag{Name: "force", Usage: "use --out DIR even if it holds files, replacing those of the same name"}
}

// handshakeTimeoutFlag is --handshake-timeout, on every command that opens
// a session.
func handshakeTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "handshake-timeout", Value: driver.DefaultHandshakeTimeout,
		Usage: "how long opening a session (starting a stdio server, the handshake) may take before the target is reported as not answering; overrides the workload's load.handshake_timeout"}
}

// httpFlag is --http, the HTTP version of a command that runs a workload.
func httpFlag() cli.Flag {
	return &cli.StringFlag{Name: "http", Usage: "HTTP `VERSION` to speak to an HTTP target: 1.1, 2 (h2c with prior knowledge over http://, h2 over https://) or auto (HTTP/1.1 over http://, ALPN over https://); overrides the workload's http.version"}
}

// tool is readbench as a result or check document names it.
func tool() results.Tool { return results.Tool{Name: "readbench", Version: version} }

// overridesOf reads the flags that change a workload; a command reads
// those of them it defines (capacity has no --duration or --class).
func overridesOf(c *cli.Context) (driver.Overrides, error) {
	var o driver.Overrides
	if c.IsSet("target") {
		t, err := targets.Parse(c.String("target"))
		if err != nil {
			return o, fmt.Errorf("--target: %w", err)
		}
		o.Target = &t
	}
	if err := loadOverridesOf(c, &o); err != nil {
		return o, err
	}
	o.Classes = c.StringSlice("class")
	if c.IsSet("protocol") {
		p := c.String("protocol")
		o.Protocol = &p
	}
	if c.IsSet("http") {
		v := c.String("http")
		o.HTTPVersion = &v
	}
	var err error
	if o.Headers, err = parseHeaders(c.StringSlice("header")); err != nil {
		return o, err
	}
	if o.MaxAnswer, err = maxAnswerOf(c); err != nil {
		return o, err
	}
	o.AllowHosts, o.InsecureCredentials = c.StringSlice("allow-host"), c.Bool("insecure-credentials")
	return o, nil
}
