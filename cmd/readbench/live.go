package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
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

// liveRun feeds a live.View from a run's callbacks: the driver's types
// become the view's, and nothing else happens here.
type liveRun struct {
	v      *live.View
	target string        // the run's target, as messages name it (targets.Target.Name)
	limit  time.Duration // the handshake timeout, for the setup step's words
}

// startLive starts the view of the run of w on stderr and sets the run's
// callbacks to it; the returned stop must be called before the report or
// an error is printed (more than once is fine).
func startLive(stderr io.Writer, w *workload.Workload, opts *driver.Options) (stop func()) {
	limit, _ := opts.HandshakeLimit()
	plan := live.Outline{Warmup: w.Load.Warmup, Length: w.Load.Length(), Turns: w.Load.Turns, Deadline: w.Turn.Deadline, Sessions: w.Sessions}
	r := liveRun{v: live.Start(stderr, "readbench run · "+w.Name+" · "+w.Target.Name(), plan), target: w.Target.Name(), limit: limit}
	opts.Setup, opts.Progress, opts.Logf = r.setup, r.v.Progress, r.logf
	return func() {
		if err := r.v.Stop(); err != nil {
			fmt.Fprintf(stderr, "readbench: the live view: %v\n", err)
		}
	}
}

func (r liveRun) setup(st driver.SetupStep) {
	if st.Stage == driver.StageReady {
		r.v.Ready()
		return
	}
	text := setupText(r.target, st, 0, r.limit)
	if _, rest, ok := strings.Cut(text, r.target+": "); ok { // the view's title names the target
		text = rest
	}
	if st.Stage == driver.StageConnect && st.Doing == "handshake" {
		text += fmt.Sprintf(" · the handshake timeout is %s", numfmt.Duration(r.limit)) // the view adds the time waited
	}
	r.v.Step(st.Stage, text, stepSummary(st))
}

// stepSummary is what a setup step's line says once it is over: the
// sessions connected (and failed), the resources listed or sized.
func stepSummary(st driver.SetupStep) string {
	switch {
	case st.Stage == driver.StageConnect && st.Failed > 0:
		return fmt.Sprintf("%d of %d sessions (%d failed)", st.Done, st.Of, st.Failed)
	case st.Stage == driver.StageConnect && st.Of == 1:
		return "1 session"
	case st.Stage == driver.StageConnect && st.Of > 1:
		return fmt.Sprintf("%d sessions", st.Of)
	case st.Stage == driver.StageDiscover && st.Doing == "sizes":
		return fmt.Sprintf("sizes of %d resources read", st.Done)
	case st.Stage == driver.StageDiscover && st.Listed > 0:
		return fmt.Sprintf("%d listed", st.Listed)
	}
	return ""
}

func (r liveRun) logf(format string, args ...any) {
	r.v.Note(fmt.Sprintf("readbench: "+format, args...))
}
