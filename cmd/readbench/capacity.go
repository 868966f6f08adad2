package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// capacityCommand finds the maximum rate a target sustains within an SLO,
// or (--sweep size) the largest attachment it serves.
func capacityCommand() *cli.Command {
	return &cli.Command{
		Name:      "capacity",
		Usage:     "find the maximum rate (or, --sweep size, the largest read) a target sustains within an SLO",
		ArgsUsage: "[WORKLOAD.yaml | SCENARIO]",
		UsageText: "readbench capacity w.yaml --target http://127.0.0.1:8080/mcp --slo 'turn.p99<800ms,errors<1%'\n" +
			"readbench capacity w.yaml --slo 'read.p99<50ms' --from 50/s --to 800/s --step-duration 5s --format json\n" +
			"readbench capacity w.yaml --slo 'read.p99<2s,errors<1%' --sweep size --rate 2/s --to 64MiB\n" +
			"readbench capacity w.yaml --slo 'read.p99<50ms' --from 50/s --to 800/s --format html -q > capacity.html\n" +
			"readbench capacity w.yaml --slo 'read.p99<50ms' --format json -q --fail-on-unknown=false > finding.json   # exit 0 when not known",
		Description: "Steps the open-model rate up from --from (each step --grow times the one before, the last\n" +
			"--to), each step a run of --step-duration after a --step-warmup, until a step breaks the SLO;\n" +
			"then bisects (--refine steps) between the last good and the first bad rate; then holds the best\n" +
			"rate for --hold (default 20s), stepping down to the next good rate when the hold breaks the SLO\n" +
			"(at most --holds holds), so the rate reported is one that held that long. A failing step whose\n" +
			"breach shows only in seconds of scheduling lag over half the SLO's headroom, or that readbench\n" +
			"could not drive (lag over its bound, or turns it never scheduled), is run again (--retries);\n" +
			"one that stays so is generator-bound and ends the search: it is never reported as the server's\n" +
			"limit. Every step's full result is saved in --out DIR (default runs/capacity-<time>/step-NN.json,\n" +
			"a folder of its own: runs/capacity-<time>-2 when another search took the name); an existing DIR\n" +
			"that holds files is refused unless --force, and no step replaces a file but with --force.\n" +
			"The SLO is in the grammar of thresholds (docs/compare.md). --sweep size holds the rate and doubles the size of every sized\n" +
			"class from --from (default 1KiB) to --to (default 256MiB) until reads fail outright.\n" +
			"--sweep listeners holds the reads' rate and searches the listeners open (the workload's listen section, or\n" +
			"one per attached document) from --from (default 10) to --to (default 1000), with the SLO's own bounds\n" +
			"ack.p99<D, notify.p99<D (with a changes section) and interference<1.5x or <20ms (the reads' p99 against\n" +
			"that with no listener, measured first), beside the grammar's; it names what refused first\n" +
			"(limit_reached, sessions_failed, ack, notify, interference, reads) (docs/capacity.md).\n" +
			"Exit 0 when the search confirmed a maximum sustainable rate (a hold of it passed, or with --hold 0\n" +
			"the step below a failure that was the server's; or every step up to --to held), and for a size\n" +
			"sweep; 1 when the rate is not known (max_sustainable_rate null: the machine or the generator\n" +
			"ended the search, every hold broke, or no step passed — the finding is still written and every\n" +
			"step saved; --fail-on-unknown=false exits 0, saying so on stderr); 1 when the server does not\n" +
			"answer (limited_by no_answer: the first step answered none of its reads, or 95% ended at the read\n" +
			"timeout; whatever --fail-on-unknown), or when a step could not run;\n" +
			"2 on usage errors (an --out DIR that holds files, without --force, too); 130 interrupted.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "slo", Usage: "the SLO, thresholds in the bound grammar, e.g. `'turn.p99<800ms,errors<1%'` (required)"},
			&cli.StringFlag{Name: "from", Usage: "the first rate (default 10/s), or with --sweep size the first size (default 1KiB)"},
			&cli.StringFlag{Name: "to", Usage: "the last rate (default 1000/s), or with --sweep size the last size (default 256MiB)"},
			&cli.Float64Flag{Name: "grow", Value: 2, Usage: "each grid step's rate is this many times the one before"},
			&cli.IntFlag{Name: "refine", Value: 4, Usage: "bisection steps between the last good and the first bad rate"},
			&cli.DurationFlag{Name: "step-duration", Value: 10 * time.Second, Usage: "measured length of each step"},
			&cli.DurationFlag{Name: "step-warmup", Value: time.Second, Usage: "warmup of each step, recorded apart"},
			&cli.DurationFlag{Name: "hold", Value: 20 * time.Second, Usage: "hold the best rate this long before reporting it (0: report the best step unheld)"},
			&cli.IntFlag{Name: "holds", Value: 3, Usage: "at most this many holds, stepping down to the next good rate each time one breaks the SLO"},
			&cli.IntFlag{Name: "retries", Value: 2, Usage: "run a step (or hold) the generator could not drive cleanly again at most this many times"},
			&cli.BoolFlag{Name: "fail-on-unknown", Value: true, Usage: "exit 1 when the maximum sustainable rate is not known (the rate search); =false exits 0, loudly"},
			&cli.StringFlag{Name: "sweep", Usage: "`size`: hold the rate and double the attachment size instead; listeners: hold the rate and search the listeners held"},
			&cli.StringFlag{Name: "rate", Usage: "the rate a --sweep size or listeners holds (default: the workload's)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json or html (a self-contained page: latency against the asked rate or size, the knee marked, the step table)"},
			&cli.StringFlag{Name: "out", Usage: "save each step's result in `DIR` (default runs/capacity-<time>, -2, -3 … when taken); a DIR that holds files is refused"},
			forceFolderFlag(),
			&cli.StringFlag{Name: "target", Usage: "`TARGET`: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse"},
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			httpFlag(),
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; never saved)"},
			&cli.IntFlag{Name: "server-pid", Usage: "sample the CPU and memory of the server process `PID` on this machine"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress lines on stderr"},
			maxAnswerFlag(),
			traceSampleFlag(),
			handshakeTimeoutFlag(),
		}, append(append(aimFlags(), metricsFlags()...), oauthFlags()...)...),
		Action: capacityAction,
	}
}

// capacityRun is what every step of a search shares: opts is the run of
// the search's workload, which each step changes to its rate and size.
type capacityRun struct {
	c        *cli.Context
	opts     driver.Options
	dir      string
	warmup   time.Duration
	duration time.Duration
	mx       *metrics.Live  // --metrics: every step feeds it, labelled with its step
	tokens   *auth.Sequence // the target's tokens, shared by the steps (nil: none)
	extras   *runner.Extras // holds the tokens until the search ends
}

func capacityAction(c *cli.Context) error {
	if c.NArg() > 2 {
		return cli.Exit("capacity: give at most one workload and one target", exitUsage)
	}
	if err := positionalTarget(c); err != nil {
		return err
	}
	if f := c.String("format"); f != "table" && f != "json" && f != "html" {
		return cli.Exit(fmt.Sprintf("capacity: --format %q: want table, json or html", f), exitUsage)
	}
	if s := c.String("sweep"); s != "" && s != "size" && s != "listeners" {
		return cli.Exit(fmt.Sprintf("capacity: --sweep %q: want size or listeners", s), exitUsage)
	}
	cr, hadRate, err := newCapacityRun(c)
	if err != nil {
		return err
	}
	defer cr.close()
	if c.String("sweep") == "listeners" {
		return cr.listenerSearch(hadRate)
	}
	slo, err := sloOf(c, cr.opts.Workload)
	if err != nil {
		return err
	}
	if c.String("sweep") == "size" {
		if !hadRate && !c.IsSet("rate") {
			return cli.Exit("capacity: --sweep size holds a rate: give --rate or a workload with load.rate", exitUsage)
		}
		return cr.sizeSweep(slo)
	}
	return cr.rateSearch(slo)
}

// newCapacityRun reads the flags into what every step shares; hadRate
// says whether the workload had a rate of its own (a size sweep holds it).
func newCapacityRun(c *cli.Context) (*capacityRun, bool, error) {
	base, err := reach(c)
	if err != nil {
		return nil, false, err
	}
	base.ServerPID = c.Int("server-pid")
	w, err := workloadOf(c)
	if err != nil {
		return nil, false, err
	}
	hadRate := w.OpenLoad(c.Duration("step-duration"))
	if c.String("sweep") == "listeners" && w.Listen == nil {
		w.Listen = workload.DefaultListen() // every attached document
	}
	opts, err := prepare(c, base, w, nil)
	if err != nil {
		return nil, false, err
	}
	if !(c.Duration("step-duration") > 0) || c.Duration("step-warmup") < 0 {
		return nil, false, cli.Exit("capacity: --step-duration must be above 0 and --step-warmup not negative", exitUsage)
	}
	dir := c.String("out")
	if dir != "" {
		if err := runner.FolderName(dir, "capacity", "each step's result is saved in", c.String("format")); err != nil {
			return nil, false, cli.Exit("capacity: "+err.Error(), exitUsage)
		}
		if err := runner.Folder(dir, c.Bool("force")); err != nil {
			return nil, false, cli.Exit(fmt.Sprintf("capacity: --out: %v", err), exitUsage)
		}
	}
	extras := &runner.Extras{}
	tokens, err := oauthTokens(c, extras, opts.Workload.Auth, opts.Workload.Target)
	if err != nil {
		return nil, false, err
	}
	mx, err := startMetrics(c, time.Time{}, "")
	if err != nil {
		_ = extras.Close()
		return nil, false, cli.Exit(err.Error(), exitUsage)
	}
	return &capacityRun{c: c, opts: opts, dir: dir, warmup: c.Duration("step-warmup"), duration: c.Duration("step-duration"),
		mx: mx, tokens: auth.NewSequence(tokens), extras: extras}, hadRate, nil
}

// sloOf is --slo, checked against the workload's classes.
func sloOf(c *cli.Context, w *workload.Workload) ([]bounds.Threshold, error) {
	if !c.IsSet("slo") {
		return nil, cli.Exit("capacity: --slo is required, e.g. --slo 'turn.p99<800ms,errors<1%'", exitUsage)
	}
	slo, err := bounds.ParseThresholds(c.String("slo"))
	if err == nil && len(slo) == 0 {
		err = errors.New("give at least one bound, e.g. 'turn.p99<800ms,errors<1%'")
	}
	if err == nil {
		err = bounds.CheckThresholdClasses(slo, w.ClassNames())
	}
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("capacity: --slo: %v", err), exitUsage)
	}
	return slo, nil
}

// makeFolder makes the search's default folder, runs/capacity-<time>,
// once the flags are known to be right (a usage error leaves no empty
// folder behind): exclusively, with -2, -3 … when another search started
// in the same second took the name, so two searches never share a folder
// (issue 47, item 17). A folder --out named was checked and made already.
func (cr *capacityRun) makeFolder() error {
	if cr.dir != "" {
		return nil
	}
	dir, err := runner.NewFolder(filepath.Join("runs", "capacity-"+time.Now().UTC().Format("20060102T150405Z")))
	if err != nil {
		return cli.Exit("capacity: "+err.Error(), exitFail)
	}
	cr.dir = dir
	return nil
}

// close ends the search's metrics and tokens.
func (cr *capacityRun) close() {
	cr.mx.Close(cr.c.App.ErrWriter)
	_ = cr.extras.Close() // tokens alone: nothing to report
}

func (cr *capacityRun) rateSearch(slo []bounds.Threshold) error {
	c := cr.c
	p := capacity.RateSearch{From: 10, To: 1000, Grow: c.Float64("grow"), Refine: c.Int("refine"),
		Retries: c.Int("retries"), Hold: c.Duration("hold"), Holds: c.Int("holds"), SLO: c.String("slo")}
	parseRate := func(v string) (float64, error) {
		r, err := units.ParseRate(v)
		return r.PerSecond, err
	}
	if err := rangeFlags(c, parseRate, &p.From, &p.To); err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		return cli.Exit("capacity: "+err.Error(), exitUsage)
	}
	if err := cr.makeFolder(); err != nil {
		return err
	}
	rep, err := capacity.Search(c.Context, p, cr.step, capacity.SLO(slo))
	cr.mx.Close(c.App.ErrWriter) // the last step's final push
	if err != nil {
		return exitFor("capacity: ", err)
	}
	if err := writeCapacity(c, rep, termOptions(c).WriteCapacity, report.CapacityHTML); err != nil {
		return err
	}
	return unknownRate(c, rep)
}

// unknownRate is the exit of a search that wrote its finding: 1 when it
// knows no maximum sustainable rate (max_sustainable_rate null), so that
// a script or a CI job never takes "not known" for an answer; with
// --fail-on-unknown=false, 0 and a warning on stderr, -q or not. A
// server that does not answer (limited_by no_answer) exits 1 whatever
// the flag: that is a finding, not an unknown.
func unknownRate(c *cli.Context, rep *capacity.RateFinding) error {
	if rep.MaxSustainableRate != nil {
		return nil
	}
	if rep.LimitedBy == capacity.LimitNoAnswer {
		// Not an unknown rate: the server is known not to answer, so
		// --fail-on-unknown=false does not apply (issue 47, item 6).
		return cli.Exit(fmt.Sprintf("capacity: the server does not answer (limited_by %s): %s", rep.LimitedBy, rep.Conclusion), exitFail)
	}
	what := fmt.Sprintf("capacity: the maximum sustainable rate is not known (limited_by %s): %s", rep.LimitedBy, rep.Conclusion)
	if !c.Bool("fail-on-unknown") {
		fmt.Fprintf(c.App.ErrWriter, "readbench: WARNING: %s\nreadbench: WARNING: exit 0 only because of --fail-on-unknown=false\n", what)
		return nil
	}
	return cli.Exit(what+" (--fail-on-unknown=false exits 0)", exitFail)
}

func (cr *capacityRun) sizeSweep(slo []bounds.Threshold) error {
	c := cr.c
	if !cr.opts.Workload.Sized() {
		return cli.Exit("capacity: --sweep size changes the size of classes that name a mime and size; this workload has none", exitUsage)
	}
	p := capacity.SizeSweep{Rate: cr.opts.Workload.Load.Rate.PerSecond, From: 1 << 10, To: 256 << 20, SLO: c.String("slo")}
	if c.IsSet("rate") {
		r, err := units.ParseRate(c.String("rate"))
		if err != nil {
			return cli.Exit(fmt.Sprintf("capacity: --rate: %v", err), exitUsage)
		}
		p.Rate = r.PerSecond
	}
	if err := rangeFlags(c, units.ParseSize, &p.From, &p.To); err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		return cli.Exit("capacity: "+err.Error(), exitUsage)
	}
	if err := cr.makeFolder(); err != nil {
		return err
	}
	rep, err := capacity.SweepSize(c.Context, p, cr.step, capacity.SLO(slo))
	cr.mx.Close(c.App.ErrWriter) // the last step's final push
	if err != nil {
		return exitFor("capacity: ", err)
	}
	return writeCapacity(c, rep, termOptions(c).WriteSizeSweep, report.SizeSweepHTML)
}

// rangeFlags sets from and to from --from and --to when given, each
// parsed by parse (a rate for the search, a size for the sweep).
func rangeFlags[T any](c *cli.Context, parse func(string) (T, error), from, to *T) error {
	for _, f := range []struct {
		name string
		dst  *T
	}{{"from", from}, {"to", to}} {
		if c.IsSet(f.name) {
			v, err := parse(c.String(f.name))
			if err != nil {
				return cli.Exit(fmt.Sprintf("capacity: --%s: %v", f.name, err), exitUsage)
			}
			*f.dst = v
		}
	}
	return nil
}

// writeCapacity prints a search's or a sweep's report in --format: the
// table, the JSON document, or the HTML page.
func writeCapacity[R any](c *cli.Context, rep R, table, page func(io.Writer, R) error) error {
	switch c.String("format") {
	case "json":
		return writeJSON(c, rep)
	case "html":
		return page(c.App.Writer, rep)
	}
	return table(c.App.Writer, rep)
}

// step runs one step: the workload at the setting's rate (and size),
// its result saved as DIR/step-NN.json.
func (cr *capacityRun) step(ctx context.Context, s capacity.Setting) (capacity.StepRun, error) {
	var firstFailure string
	var once sync.Once
	opts := cr.opts
	duration := cr.duration
	if s.Duration > 0 { // a hold
		duration = s.Duration
	}
	opts.Workload = cr.opts.Workload.Step(s.Rate, s.Size, cr.warmup, duration)
	if s.Listeners > 0 || s.NoListeners {
		opts.Workload = opts.Workload.WithListeners(s.Listeners)
	}
	opts.Auth = cr.tokens.Next() // each step's result counts its own token requests
	opts.Logf = func(format string, args ...any) { once.Do(func() { firstFailure = fmt.Sprintf(format, args...) }) }
	path := filepath.Join(cr.dir, fmt.Sprintf("step-%02d.json", s.Index))
	job := runner.Job{Options: opts, Save: runner.File(path, cr.c.Bool("force")), Part: true,
		Metrics: cr.mx, MetricsPart: metrics.RunLabels{Step: strconv.Itoa(s.Index)}}
	done, err := job.Run(ctx)
	if err != nil {
		return capacity.StepRun{}, err
	}
	res := done.Result
	if done.Unsaved != nil { // the search stops: its steps are its evidence
		return capacity.StepRun{}, fmt.Errorf("step %d: %s", s.Index, done.Judgement.Reason)
	}
	if done.Judgement.Exit == results.Failed { // saved, then the search stops: its figures cannot be trusted
		return capacity.StepRun{}, fmt.Errorf("step %d (saved to %s): %s", s.Index, path, done.Judgement.Reason)
	}
	if !cr.c.Bool("quiet") {
		what := numfmt.Rate(s.Rate, "turns")
		if s.Size > 0 {
			what = units.FormatSize(s.Size) + " at " + what
		}
		if s.Listeners > 0 || s.NoListeners {
			what = fmt.Sprintf("%d listeners, reads at %s", s.Listeners, what)
		}
		if s.Duration > 0 {
			what += " held for " + numfmt.Duration(s.Duration)
		}
		fmt.Fprintf(cr.c.App.ErrWriter, "step %d: %s: achieved %s, turn p99 %s, errors %s, saved to %s\n", s.Index, what,
			numfmt.Opt(res.Totals.AchievedRate, func(v float64) string { return numfmt.Rate(v, "turns") }), numfmt.Ms(res.Turn.P99Ms), numfmt.Opt(res.Totals.ErrorRate, numfmt.Share), path)
	}
	return capacity.StepRun{Result: res, File: path, FirstFailure: firstFailure}, nil
}

func writeJSON(c *cli.Context, v any) error {
	enc := json.NewEncoder(c.App.Writer)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
