package runner

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/live"
	"github.com/readbench/readbench/workload"
)

// Show is how a run is shown on stderr while it goes on, as a command
// chose it from its flags and its terminal: nothing but warnings
// (Quiet), lines (the connecting line, then the progress line on a
// terminal or a status line every StatusEvery elsewhere, and why reads
// failed) or the full-screen view (Live, package live). The job starts it
// with the run and ends it as soon as the driver returns, so the terminal
// is the command's again before anything else is printed.
type Show struct {
	// Stderr is where the run is shown and where the job says what the
	// command should see at once: a login that expires during the run,
	// when a shard starts, the live metrics' last push, a --reads file
	// that could not be written whole. Nil shows nothing and leaves the
	// options' Setup, Progress and Logf as the command set them (a run
	// that is one of many, shown by its command: ab, capacity).
	Stderr io.Writer
	// Quiet shows nothing but warnings and errors (--quiet).
	Quiet bool
	// Live draws the full-screen view in place of the lines.
	Live bool
	// Terminal says Stderr is a terminal: lines are redrawn in place
	// there; elsewhere (a CI log, a pipe) whole lines are written, a
	// status line every StatusEvery (0: none).
	Terminal    bool
	StatusEvery time.Duration
}

// shown is a Show started for one run, until stop.
type shown struct {
	stderr              io.Writer // io.Discard when nothing is shown
	line                bool      // the progress line may be on stderr
	stopLive, stopSetup func()
}

// start sets opts' Setup, Progress and Logf to show the run, after
// saying what a person should know before it connects: tokens that will
// expire part way (Unrenewable), when a shard starts (ShardStart: before
// a live view, so it stays on the screen the view gives back).
func (s Show) start(opts *driver.Options) *shown {
	v := &shown{stderr: s.Stderr, stopLive: func() {}, stopSetup: func() {}}
	if s.Stderr == nil {
		v.stderr = io.Discard
		return v
	}
	w := opts.Workload
	if warning := Unrenewable(opts.Auth, w.Load.Expected(), time.Now()); warning != "" {
		fmt.Fprintf(s.Stderr, "readbench: %s\n", warning)
	}
	if s.Quiet {
		return v
	}
	if !s.Live {
		v.lines(s, opts)
	}
	for _, line := range ShardStart(*opts, time.Now()) {
		fmt.Fprintf(s.Stderr, "readbench: %s\n", line)
	}
	if s.Live { // the view takes the setup line's, progress line's and failures' place
		v.stopLive = startLive(s.Stderr, w, opts)
	}
	return v
}

// lines shows the run as lines: the connecting line, then the progress
// line (on a terminal), or a status line every StatusEvery (elsewhere: a
// log keeps whole lines, never a line redrawn), and why reads failed.
func (v *shown) lines(s Show, opts *driver.Options) {
	limit, _ := opts.HandshakeLimit()
	w := opts.Workload
	tell, stopSetup := SetupLine(s.Stderr, s.Terminal, w.Target.Name(), limit)
	v.stopSetup = stopSetup
	opts.Setup = tell
	if s.Terminal { // the first turns under way, the run's own line takes over
		opts.Progress = live.Line(s.Stderr, w.Load.Warmup, stopSetup)
	}
	v.line = opts.Progress != nil
	if !v.line && s.StatusEvery > 0 {
		opts.Progress = live.Status(s.Stderr, w.Load.Warmup, s.StatusEvery)
	}
	opts.Logf = func(format string, args ...any) {
		ClearProgress(s.Stderr, v.line)
		fmt.Fprintf(s.Stderr, "readbench: "+format+"\n", args...)
	}
}

// stop ends the showing: the view left, the lines erased. More than once
// is fine.
func (v *shown) stop() {
	v.stopLive()
	v.stopSetup()
	ClearProgress(v.stderr, v.line)
	v.line = false
}

// liveRun feeds a live.View from a run's callbacks: the driver's types
// become the view's, and nothing else happens here.
type liveRun struct {
	v      *live.View
	target string        // the run's target, as messages name it (targets.Target.Name)
	limit  time.Duration // the handshake timeout, for the setup step's words
}

// startLive starts the view of the run of w on stderr and sets the run's
// callbacks to it; the returned stop leaves it (more than once is fine).
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
