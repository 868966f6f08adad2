package main

import (
	"fmt"
	"os"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

// The flags every command that reaches a target shares, read into the
// driver's plain values: driver.NewOptions makes a run of them.

// reach is how every command reaches a target: the embedded server is
// this executable's "serve --stdio", servers are told we are readbench at
// this version, and --handshake-timeout, when given, bounds opening a
// session (it overrides a workload's load.handshake_timeout; without
// either the client's default applies).
func reach(c *cli.Context) (driver.Settings, error) {
	self, err := os.Executable()
	if err != nil {
		return driver.Settings{}, fmt.Errorf("find own executable for the embedded server: %w", err)
	}
	var limit time.Duration
	if c.IsSet("handshake-timeout") {
		if limit = c.Duration("handshake-timeout"); limit <= 0 {
			return driver.Settings{}, cli.Exit(fmt.Sprintf("%s: --handshake-timeout must be above 0, such as 30s", c.Command.Name), exitUsage)
		}
	}
	return driver.Settings{
		EmbeddedCommand:  []string{self, "serve", "--stdio"},
		Client:           client.Implementation{Name: "readbench", Version: version},
		HandshakeTimeout: limit,
	}, nil
}

// handshakeTimeoutFlag is --handshake-timeout, on every command that opens
// a session.
func handshakeTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "handshake-timeout", Value: client.DefaultHandshakeTimeout,
		Usage: "how long opening a session (starting a stdio server, the handshake) may take before the target is reported as not answering; overrides the workload's load.handshake_timeout"}
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
	if c.IsSet("rate") {
		r, err := units.ParseRate(c.String("rate"))
		if err != nil {
			return o, fmt.Errorf("--rate: %w", err)
		}
		o.Rate = &r
	}
	if c.IsSet("duration") {
		d := c.Duration("duration")
		o.Duration = &d
	}
	if c.IsSet("sessions") {
		n := c.Int("sessions")
		o.Sessions = &n
	}
	o.Classes = c.StringSlice("class")
	if c.IsSet("protocol") {
		p := c.String("protocol")
		o.Protocol = &p
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
