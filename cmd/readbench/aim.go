package main

import (
	"fmt"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

// The flags that say where a command may connect and how much it accepts,
// shared by run, check and init.

// aimFlags are --allow-host and --insecure-credentials.
func aimFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "allow-host", Usage: "allow a target on `HOST` (a name or address, optionally :port) besides loopback (repeatable; adds to the workload's allow_hosts)"},
		&cli.BoolFlag{Name: "insecure-credentials", Usage: "send headers to a host other than loopback over plain http:// (in clear text)"},
	}
}

// maxAnswerFlag is --max-answer.
func maxAnswerFlag() cli.Flag {
	return &cli.StringFlag{Name: "max-answer", Usage: "the largest answer a read accepts, e.g. `SIZE` 1GiB (default " + units.FormatSize(targets.DefaultMaxAnswer) + "); a bigger one is a protocol outcome"}
}

// maxAnswerOf reads --max-answer; 0 when it is not set.
func maxAnswerOf(c *cli.Context) (int64, error) {
	if !c.IsSet("max-answer") {
		return 0, nil
	}
	n, err := units.ParseSize(c.String("max-answer"))
	if err != nil {
		return 0, fmt.Errorf("--max-answer: %w", err)
	}
	if n <= 0 {
		return 0, fmt.Errorf("--max-answer: must be more than zero, such as 256MiB")
	}
	return n, nil
}

// aimOf is what the flags allow, with the workload's allow_hosts (nil
// for commands without a workload).
func aimOf(c *cli.Context, allowHosts []string) targets.Aim {
	return targets.Aim{
		AllowHosts:          append(append([]string(nil), allowHosts...), c.StringSlice("allow-host")...),
		InsecureCredentials: c.Bool("insecure-credentials"),
	}
}

// checkAim refuses, before anything is started or resolved, a target
// the user did not allow: a usage error (exit 2) whose message says how
// to allow it.
func checkAim(cmd string, t targets.Target, headers map[string]string, aim targets.Aim) error {
	if err := targets.CheckAim(t, headers, aim); err != nil {
		return cli.Exit(cmd+": "+err.Error(), exitUsage)
	}
	return nil
}
