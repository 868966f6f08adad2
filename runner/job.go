package runner

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Job is one run of the driver as a command makes it: the run (who runs
// it is Options.Client, the result's tool: Reach), how it is shown and
// what it feeds, what its result is held to and where it is saved.
type Job struct {
	Options driver.Options
	// Thresholds are evaluated on the result and stored in it before it
	// is saved. A shard's (Options.Segment of n > 1) are not: it carries a
	// share of the load (rate>45/s would fail on every shard), so merge
	// holds the whole run to them.
	Thresholds []bounds.Threshold
	Save       Place
	// Part: the run is one of a command's many (results.Facts.Part).
	Part bool
	// Show is how the run is shown on stderr while it goes on (show.go).
	Show Show
	// Metrics are the command's live metrics (StartMetrics; nil: none),
	// MetricsPart this run's labels among the command's runs. The job
	// hands the run their observers and its listeners' series, and as the
	// driver returns delivers the run's final counts: the one run of a
	// command (not Part) closes them, saying on Show.Stderr what was not
	// delivered, and the result's metrics key holds what they delivered;
	// one of many pushes its counts (metrics.Live.Ended), its command
	// closing them after the last.
	Metrics     *metrics.Live
	MetricsPart metrics.RunLabels
	// Reads is where every read of the run is written as it ends (run
	// --reads, package readlog; a zero ReadLog: nowhere).
	Reads ReadLog

	drive func(context.Context, driver.Options) (*results.Result, error) // driver.Run; a test's stand-in
}

// Done is a finished job: its result as saved, where, and what it came to.
type Done struct {
	Result *results.Result
	Path   string // where the result was saved (results.Stdout: standard output)
	Log    string // the stdio servers' stderr kept beside it ("": none)
	// Notes are what the command should say of the job besides its
	// judgement: thresholds left to merge, a log that could not be kept.
	Notes     []string
	Judgement results.Judgement
	// Unsaved, when set, says the result could not be saved where it was
	// asked (a full disk, a name another run took meanwhile): Path is then
	// the fallback file it was saved to instead ("" when none took it),
	// and the judgement is results.NotSaved (or says it, when interrupted).
	Unsaved *Unsaved
}

// Prepare is the run of w as ov changes it (a copy: Options.For), with
// the target refused, before anything is started or resolved, when the
// workload and the flags did not allow it (targets.CheckAim): the error
// then says how to allow it.
func Prepare(w *workload.Workload, base driver.Options, ov driver.Overrides) (driver.Options, error) {
	opts, err := base.For(w, ov)
	if err != nil {
		return opts, err
	}
	if err := targets.CheckAim(opts.Workload.Target, opts.Workload.Headers, opts.Aim()); err != nil {
		return opts, &InputError{Err: err}
	}
	return opts, nil
}

// Run makes the run, then builds its result, holds it to the thresholds,
// saves it, keeps the servers' stderr beside it, and judges it. An error
// is a run that could not be made (a *workload.Error is bad input); every
// run made is saved before it is judged, whatever it comes to, and a
// result that could not be saved where asked is saved to a fallback file
// and returned all the same (Done.Unsaved), so a full disk never loses
// what was measured.
func (j Job) Run(ctx context.Context) (*Done, error) {
	log, err := newServerLog(j.Save)
	if err != nil {
		return nil, err
	}
	defer log.discard()
	opts := j.Options
	if opts.Stderr == nil {
		opts.Stderr = log
	}
	if !j.Part { // the command's one run: its metrics end with it, whatever happens
		defer j.Metrics.Close(io.Discard)
	}
	reads, err := j.Reads.create()
	if err != nil {
		return nil, err
	}
	view := j.Show.start(&opts)
	wireMetrics(j.Metrics, &opts, j.MetricsPart)
	opts.Observe = reads.Chain(opts.Observe)
	_, restore := setMemoryLimit(opts.Workload, os.Getenv)
	drive := j.drive
	if drive == nil {
		drive = driver.Run
	}
	res, err := drive(ctx, opts)
	restore()
	view.stop() // the terminal restored before anything else is printed
	reads.close(view.stderr)
	lm := j.delivered(view.stderr)
	if err != nil {
		return nil, err
	}
	res.Metrics = lm
	done := &Done{Result: res}
	ts := j.Thresholds
	if opts.Segment.N > 1 && len(ts) > 0 {
		done.Notes = append(done.Notes, fmt.Sprintf("segment %s: thresholds are not evaluated on a shard; readbench merge evaluates them on the whole run", opts.Segment))
		ts = nil
	}
	evalErr := hold(res, ts)
	name := results.ShardName(res.Started.Time, res.Target.Server.Name, res.Target.Server.Version, res.Segment)
	if done.Path, err = j.Save.save(res, name); err != nil {
		done.Unsaved = unsaved(res, name, err)
		done.Path = done.Unsaved.Fallback
	}
	var dropped int64
	if done.Path != "" { // saved nowhere: nothing to keep the log beside
		if done.Log, dropped, err = log.keep(done.Path); err != nil {
			done.Notes = append(done.Notes, fmt.Sprintf("keep the server's stderr: %v", err))
		}
	}
	if dropped > 0 {
		done.Notes = append(done.Notes, fmt.Sprintf("the servers wrote more to stderr than a log keeps: %s kept the first %s and the last %s, %s bytes between them dropped",
			done.Log, numfmt.Bytes(logHead), numfmt.Bytes(logTail), numfmt.Count(dropped)))
	}
	done.Judgement = done.Unsaved.judge(results.Judge(res, results.Facts{Interrupted: res.Partial, Part: j.Part, Thresholds: evalErr, Bounded: len(j.Thresholds) > 0}))
	res.SetJudgement(done.Judgement) // the views open and end with what decided the exit
	return done, nil
}

// InputError is bad input found before anything ran: a file or a flag,
// not the target (a command exits 2 on it, as on a *workload.Error).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// delivered pushes the run's final counts to the live metrics (Job.Metrics)
// and gives the result's metrics key: nil for one of a command's runs
// (Part), whose command closes them after its last, and without metrics.
func (j Job) delivered(stderr io.Writer) *results.LiveMetrics {
	if j.Metrics == nil {
		return nil
	}
	if j.Part {
		j.Metrics.Ended()
		return nil
	}
	j.Metrics.Close(stderr)
	return &results.LiveMetrics{UndeliveredSamples: j.Metrics.Undelivered()}
}
