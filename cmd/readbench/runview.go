package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

// runView is what `readbench run` and `replay` keep around their job:
// what the run needs besides the driver and outlives it (its tokens,
// readbench's own profiles: runner.Extras, ended last, the heap as the
// run and its report left it), and how its report is printed.
type runView struct {
	stderr, stdout io.Writer
	quiet          bool
	extras         runner.Extras
}

// startRunView maps the flags of how the run is shown (runner.Show), its
// tokens, live metrics and --reads file onto job, and starts readbench's
// own profiles. job.Options must be the run's, prepared.
func startRunView(c *cli.Context, job *runner.Job) (*runView, error) {
	v := &runView{stderr: c.App.ErrWriter, stdout: c.App.Writer, quiet: c.Bool("quiet")}
	statusEvery := c.Duration("status-every")
	if statusEvery < 0 {
		return nil, cli.Exit("--status-every: must not be negative (0: no status line)", exitUsage)
	}
	opts := &job.Options
	w := opts.Workload
	tokens, err := oauthTokens(c, &v.extras, w.Auth, w.Target)
	if err != nil {
		return nil, err
	}
	if tokens != nil {
		oauthFlagsOf(c).Into(w)
	}
	opts.Auth = tokens
	if err := v.extras.Profile(c.String("cpuprofile"), c.String("memprofile")); err != nil {
		v.close()
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	showLive, err := wantLive(c, v.stderr, v.quiet, w.Load)
	if err != nil {
		v.close()
		return nil, err
	}
	job.Show = runner.Show{Stderr: v.stderr, Quiet: v.quiet, Live: showLive, Terminal: terminal(v.stderr), StatusEvery: statusEvery}
	job.Reads = runner.ReadLog{Path: c.String("reads"), Force: c.Bool("force")}
	if job.Metrics, err = startMetrics(c, opts.StartAt, runner.BarrierRunID(*opts)); err != nil { // last: the job ends them
		v.close()
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	return v, nil
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

// close ends the run's profiles (written now) and tokens.
func (v *runView) close() {
	if err := v.extras.Close(); err != nil {
		fmt.Fprintf(v.stderr, "readbench: writing the profiles: %v\n", err)
	}
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
