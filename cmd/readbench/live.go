package main

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/live"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// liveFlags are --live and --no-live: the full-screen view of a run on
// the terminal (package live), shown by default for a run of at least
// live.MinLength when stderr is a terminal; and --status-every, the
// periodic status line (live.Status) when stderr is not one, so that a
// long run in a CI log is not silent until it ends.
func liveFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "live", Usage: "draw the live view on stderr (a terminal) while the run goes on; the default for runs of 5s or more on a terminal"},
		&cli.BoolFlag{Name: "no-live", Usage: "no live view: the one-line progress instead"},
		&cli.DurationFlag{Name: "status-every", Value: live.DefaultStatusEvery,
			Usage: "when stderr is not a terminal (a CI log, a pipe), a one-line status on it every `D` of the run (0: none; --quiet: none)"},
	}
}

// wantLive says whether a run of load shows the live view on stderr:
// never with --quiet or --no-live, nor when stderr is not a terminal
// (--live then says so in one line and the run goes on without it, as
// the default would); with --live, or by default when the run is to last
// live.MinLength or more.
func wantLive(c *cli.Context, stderr io.Writer, quiet bool, l workload.Load) (bool, error) {
	asked, off := c.Bool("live"), c.Bool("no-live")
	switch {
	case asked && off:
		return false, cli.Exit("run: give --live or --no-live, not both", exitUsage)
	case quiet || off:
		return false, nil
	case !terminal(stderr):
		if asked {
			fmt.Fprintln(stderr, "readbench: --live: stderr is not a terminal; no live view")
		}
		return false, nil
	}
	return asked || l.Expected() >= live.MinLength, nil
}
