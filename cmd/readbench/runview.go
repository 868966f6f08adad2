package main

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/live"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/readlog"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

// runView is how `readbench run` shows a run on stderr while it goes on
// (the setup line, the progress line or the live view, failures as they
// come), the live metrics it feeds, and what it prints once it is done.
type runView struct {
	stderr, stdout io.Writer
	quiet          bool
	shown          bool // a progress line may be on stderr
	mx             *metrics.Live
	stopLive       func()
	stopSetup      func()        // erases the setup line
	extras         runner.Extras // the run's tokens and profiles, ended last
	// statusEvery is --status-every: the pace of the status line written
	// when stderr is not a terminal (0: none).
	statusEvery time.Duration
	// reads is --reads: every read of the run, streamed to a file
	// (package readlog); closed as the run ends.
	reads *readlog.Writer
}

// startRunView sets opts' callbacks for how the run is shown, and starts
// what the run needs besides the driver (runner.Extras: its tokens, for
// an OAuth target, and the profiles asked for) and the live metrics.
func startRunView(c *cli.Context, opts *driver.Options) (*runView, error) {
	v := &runView{stderr: c.App.ErrWriter, stdout: c.App.Writer, quiet: c.Bool("quiet"), statusEvery: c.Duration("status-every"),
		stopLive: func() {}, stopSetup: func() {}}
	if v.statusEvery < 0 {
		return nil, cli.Exit("--status-every: must not be negative (0: no status line)", exitUsage)
	}
	w := opts.Workload
	tokens, err := oauthTokens(c, &v.extras, w.Auth, w.Target)
	if err != nil {
		return nil, err
	}
	if tokens != nil {
		oauthFlagsOf(c).Into(w)
	}
	opts.Auth = tokens
	if warning := runner.Unrenewable(tokens, w.Load.Expected(), time.Now()); warning != "" {
		fmt.Fprintf(v.stderr, "readbench: %s\n", warning)
	}
	if err := v.extras.Profile(c.String("cpuprofile"), c.String("memprofile")); err != nil {
		v.close()
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	showLive, err := wantLive(c, v.stderr, v.quiet, w.Load)
	if err != nil {
		v.close()
		return nil, err
	}
	if !v.quiet && !showLive {
		v.lines(opts)
	}
	if !v.quiet { // before a live view: it stays on the screen the view gives back
		for _, line := range runner.ShardStart(*opts, time.Now()) {
			fmt.Fprintf(v.stderr, "readbench: %s\n", line)
		}
	}
	if v.mx, err = startMetrics(c, opts.StartAt, runner.BarrierRunID(*opts)); err != nil {
		v.close()
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	if showLive { // the view takes the setup line's, progress line's and failures' place
		v.stopLive = startLive(v.stderr, w, opts)
	}
	runner.WireMetrics(v.mx, opts, metrics.RunLabels{}) // after the view: the metrics chain to the progress it set
	if path := c.String("reads"); path != "" {
		if v.reads, err = readlog.Create(path, c.Bool("force")); err != nil {
			v.close()
			return nil, cli.Exit(err.Error(), exitUsage)
		}
		opts.Observe = v.reads.Chain(opts.Observe)
	}
	return v, nil
}

// lines shows the run as lines on stderr: the connecting line, then the
// progress line (on a terminal), or a status line every --status-every
// (elsewhere: a log keeps whole lines, never a line redrawn), and why
// reads failed.
func (v *runView) lines(opts *driver.Options) {
	limit, _ := opts.HandshakeLimit()
	tell, stopSetup := setupPrinter(v.stderr, opts.Workload.Target.Name(), limit)
	v.stopSetup = stopSetup
	opts.Setup = tell
	if terminal(v.stderr) { // the first turns under way, the run's own line takes over
		opts.Progress = live.Line(v.stderr, opts.Workload.Load.Warmup, stopSetup)
	}
	v.shown = opts.Progress != nil
	if !v.shown && v.statusEvery > 0 {
		opts.Progress = live.Status(v.stderr, opts.Workload.Load.Warmup, v.statusEvery)
	}
	opts.Logf = func(format string, args ...any) {
		clearProgress(v.stderr, v.shown)
		fmt.Fprintf(v.stderr, "readbench: "+format+"\n", args...)
	}
}

// finished ends the showing as soon as the run ends (the terminal is
// restored before anything else is printed) and pushes the final
// counts: the result's metrics key.
func (v *runView) finished() *results.LiveMetrics {
	v.stopLive()
	clearProgress(v.stderr, v.shown)
	v.closeReads()
	v.mx.Close(v.stderr)
	return runner.MetricsKey(v.mx)
}

// report prints the saved result in its format and where it went, then
// exits as the result was judged. With --out - standard output holds the
// result alone, so that it pipes into jq: the report goes to stderr.
func (v *runView) report(done *runner.Done, write func(io.Writer, *results.Result) error) error {
	for _, n := range done.Notes {
		fmt.Fprintf(v.stderr, "readbench: %s\n", n)
	}
	judgement := done.Judgement
	if !v.quiet {
		w := v.stdout
		if done.Path == results.Stdout {
			w = v.stderr
		}
		var buf bytes.Buffer
		if err := write(&buf, done.Result); err != nil {
			return err
		}
		body, last, ok := verdictLast(buf.Bytes())
		if ok = ok && sameFile(w, v.stderr); !ok { // onelog.go
			body, last = buf.Bytes(), nil
		}
		if _, err := w.Write(body); err != nil {
			return err
		}
		saved(v.stderr, done)
		if done.Log != "" {
			fmt.Fprintf(v.stderr, "the server's stderr saved to %s\n", done.Log)
		}
		if ok {
			judgement = saidAbove(v.stderr, judgement)
			if _, err := w.Write(last); err != nil {
				return err
			}
		}
	}
	return exitOf(v.stderr, judgement)
}

// close stops what startRunView started, the last first: the view, the
// metrics, the setup line, then the run's profiles (written now, the
// heap as the run and its report left it) and tokens.
func (v *runView) close() {
	v.stopLive()
	v.closeReads()
	v.mx.Close(v.stderr)
	v.stopSetup()
	if err := v.extras.Close(); err != nil {
		fmt.Fprintf(v.stderr, "readbench: writing the profiles: %v\n", err)
	}
}

// closeReads ends the --reads file (more than once is fine), saying on
// stderr when it could not be written whole.
func (v *runView) closeReads() {
	if v.reads == nil {
		return
	}
	if err := v.reads.Close(); err != nil {
		fmt.Fprintf(v.stderr, "readbench: %v\n", err)
	}
	v.reads = nil
}

// saved says where the result went: where asked, or, when it could not be
// saved there, the fallback file (the reason is the exit's message).
func saved(stderr io.Writer, done *runner.Done) {
	switch {
	case done.Unsaved == nil:
		fmt.Fprintf(stderr, "result saved to %s\n", runner.Named(done.Path))
	case done.Path != "":
		fmt.Fprintf(stderr, "result NOT saved where asked: saved to %s instead\n", done.Path)
	default:
		fmt.Fprintf(stderr, "result NOT saved: no file took it\n")
	}
}
