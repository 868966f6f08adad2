package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
	"github.com/readbench/readbench/scenarios"
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
			"readbench capacity w.yaml --slo 'read.p99<50ms' --from 50/s --to 800/s --format html -q > capacity.html",
		Description: "Steps the open-model rate up from --from (each step --grow times the one before, the last\n" +
			"--to), each step a run of --step-duration after a --step-warmup, until a step breaks the SLO;\n" +
			"then bisects (--refine steps) between the last good and the first bad rate; then holds the best\n" +
			"rate for --hold (default 20s), stepping down to the next good rate when the hold breaks the SLO\n" +
			"(at most --holds holds), so the rate reported is one that held that long. A failing step whose\n" +
			"breach shows only in seconds of scheduling lag over half the SLO's headroom, or that readbench\n" +
			"could not drive (lag over its bound, or turns it never scheduled), is run again (--retries);\n" +
			"one that stays so is generator-bound and ends the search: it is never reported as the server's\n" +
			"limit. Every step's full result is saved in --out DIR (default runs/capacity-<time>/step-NN.json).\n" +
			"The SLO is in the grammar of thresholds (docs/compare.md). --sweep size holds the rate and doubles the size of every sized\n" +
			"class from --from (default 1KiB) to --to (default 256MiB) until reads fail outright.",
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
			&cli.StringFlag{Name: "sweep", Usage: "`size`: hold the rate and double the attachment size instead"},
			&cli.StringFlag{Name: "rate", Usage: "the rate a --sweep size holds (default: the workload's)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json or html (a self-contained page: latency against the asked rate or size, the knee marked, the step table)"},
			&cli.StringFlag{Name: "out", Usage: "save each step's result in `DIR` (default runs/capacity-<time>)"},
			&cli.StringFlag{Name: "target", Usage: "`TARGET`: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse"},
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; never saved)"},
			&cli.IntFlag{Name: "server-pid", Usage: "sample the CPU and memory of the server process `PID` on this machine"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress lines on stderr"},
			maxAnswerFlag(),
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
	mx       *liveMetrics   // --metrics: every step feeds it, labelled with its step
	tokens   *auth.Sequence // the target's tokens, shared by the steps (nil: none)
}

func capacityAction(c *cli.Context) error {
	if c.NArg() > 1 {
		return cli.Exit("capacity: give at most one workload", exitUsage)
	}
	if f := c.String("format"); f != "table" && f != "json" && f != "html" {
		return cli.Exit(fmt.Sprintf("capacity: --format %q: want table, json or html", f), exitUsage)
	}
	if s := c.String("sweep"); s != "" && s != "size" {
		return cli.Exit(fmt.Sprintf("capacity: --sweep %q: the only sweep is size", s), exitUsage)
	}
	set, err := reach(c)
	if err != nil {
		return err
	}
	w, err := scenarios.Load(c.Args().First())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	hadRate := w.OpenLoad(c.Duration("step-duration"))
	if set.Overrides, err = overridesOf(c); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	set.ServerPID = c.Int("server-pid")
	opts, err := driver.NewOptions(w, set)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if !c.IsSet("slo") {
		return cli.Exit("capacity: --slo is required, e.g. --slo 'turn.p99<800ms,errors<1%'", exitUsage)
	}
	slo, err := bounds.ParseThresholds(c.String("slo"))
	if err != nil || len(slo) == 0 {
		if err == nil {
			err = errors.New("give at least one bound, e.g. 'turn.p99<800ms,errors<1%'")
		}
		return cli.Exit(fmt.Sprintf("capacity: --slo: %v", err), exitUsage)
	}
	if err := bounds.CheckThresholdClasses(slo, classNames(w)); err != nil {
		return cli.Exit(fmt.Sprintf("capacity: --slo: %v", err), exitUsage)
	}
	if err := checkAim("capacity", w.Target, w.Headers, opts.Aim()); err != nil {
		return err
	}
	tokens, closeTokens, err := oauthTokens(c, w.Auth, w.Target)
	if err != nil {
		return err
	}
	defer closeTokens()
	if !(c.Duration("step-duration") > 0) || c.Duration("step-warmup") < 0 {
		return cli.Exit("capacity: --step-duration must be above 0 and --step-warmup not negative", exitUsage)
	}
	dir := c.String("out")
	if dir == "" {
		dir = filepath.Join("runs", "capacity-"+time.Now().UTC().Format("20060102T150405Z")) // made by the first step
	} else if err := capacityDir(dir); err != nil {
		return cli.Exit(fmt.Sprintf("capacity: --out: %v", err), exitUsage)
	}
	mx, err := startMetrics(c, time.Time{})
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer mx.close(c.App.ErrWriter)
	cr := &capacityRun{c: c, opts: opts, dir: dir, warmup: c.Duration("step-warmup"), duration: c.Duration("step-duration"), mx: mx,
		tokens: auth.NewSequence(tokens)}
	if c.String("sweep") == "size" {
		if !hadRate && !c.IsSet("rate") {
			return cli.Exit("capacity: --sweep size holds a rate: give --rate or a workload with load.rate", exitUsage)
		}
		return cr.sizeSweep(slo)
	}
	return cr.rateSearch(slo)
}

func (cr *capacityRun) rateSearch(slo []bounds.Threshold) error {
	c := cr.c
	p := capacity.Plan{From: 10, To: 1000, Grow: c.Float64("grow"), Refine: c.Int("refine"),
		Retries: c.Int("retries"), Hold: c.Duration("hold"), Holds: c.Int("holds")}
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
	rep, err := capacity.Search(c.Context, p, cr.step, capacity.SLO(slo))
	cr.mx.close(c.App.ErrWriter) // the last step's final push
	if rep != nil {
		rep.SLO = c.String("slo")
	}
	if err != nil {
		return cr.failed(err)
	}
	return writeCapacity(c, rep, report.WriteCapacity, report.CapacityHTML)
}

func (cr *capacityRun) sizeSweep(slo []bounds.Threshold) error {
	c := cr.c
	if !cr.opts.Workload.Sized() {
		return cli.Exit("capacity: --sweep size changes the size of classes that name a mime and size; this workload has none", exitUsage)
	}
	p := capacity.SizePlan{Rate: cr.opts.Workload.Load.Rate.PerSecond, From: 1 << 10, To: 256 << 20}
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
	rep, err := capacity.SweepSize(c.Context, p, cr.step, capacity.SLO(slo))
	cr.mx.close(c.App.ErrWriter) // the last step's final push
	if rep != nil {
		rep.SLO = c.String("slo")
	}
	if err != nil {
		return cr.failed(err)
	}
	return writeCapacity(c, rep, report.WriteSizeSweep, report.SizeSweepHTML)
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

// failed turns a search that stopped into its exit: a workload error is
// bad input (2), anything else the target failing us (1).
func (cr *capacityRun) failed(err error) error {
	var we *workload.Error
	if errors.As(err, &we) {
		return cli.Exit("capacity: "+err.Error(), exitUsage)
	}
	return cli.Exit("capacity: "+err.Error(), exitFail)
}

// capacityDir makes the folder the user named for the steps' results. The
// folder itself is created, as the flag promises; a missing parent is
// refused (a misspelt path must not become a tree of folders), and so is
// anything that exists and is not a folder.
func capacityDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("%s exists and is not a folder: capacity saves one result per step in a folder", dir)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("the folder %s does not exist (readbench creates %s in it, not the folders above): create it first", filepath.Dir(dir), filepath.Base(dir))
		}
		return err
	}
	return nil
}

// step runs one step: the workload at the setting's rate (and size),
// its result saved as DIR/step-NN.json.
func (cr *capacityRun) step(ctx context.Context, s capacity.Setting) (capacity.Outcome, error) {
	var firstFailure string
	var once sync.Once
	opts := cr.opts
	duration := cr.duration
	if s.Duration > 0 { // a hold
		duration = s.Duration
	}
	opts.Workload = cr.opts.Workload.Step(s.Rate, s.Size, cr.warmup, duration)
	opts.Auth = cr.tokens.Next() // each step's result counts its own token requests
	opts.Logf = func(format string, args ...any) { once.Do(func() { firstFailure = fmt.Sprintf(format, args...) }) }
	cr.mx.wire(&opts, metrics.Run{Step: strconv.Itoa(s.Index)})
	rep, err := driver.Run(ctx, opts)
	cr.mx.ended()
	if err != nil {
		return capacity.Outcome{}, err
	}
	res, err := rep.Result(tool())
	if err != nil {
		return capacity.Outcome{}, err
	}
	path := filepath.Join(cr.dir, fmt.Sprintf("step-%02d.json", s.Index))
	if err := os.MkdirAll(cr.dir, 0o755); err != nil { // the default runs/capacity-<time>; --out DIR exists already
		return capacity.Outcome{}, fmt.Errorf("save step: %w", err)
	}
	if err := res.SaveFile(path); err != nil {
		return capacity.Outcome{}, fmt.Errorf("save step: %w", err)
	}
	if !cr.c.Bool("quiet") {
		what := numfmt.Rate(s.Rate, "turns")
		if s.Size > 0 {
			what = units.FormatSize(s.Size) + " at " + what
		}
		if s.Duration > 0 {
			what += " held for " + s.Duration.String()
		}
		fmt.Fprintf(cr.c.App.ErrWriter, "step %d: %s: achieved %s, turn p99 %s, errors %s, saved to %s\n", s.Index, what,
			numfmt.Opt(res.Totals.AchievedRate, func(v float64) string { return numfmt.Rate(v, "turns") }), numfmt.Ms(res.Turn.P99Ms), numfmt.Opt(res.Totals.ErrorRate, numfmt.Share), path)
	}
	return capacity.Outcome{Result: res, File: path, FirstFailure: firstFailure}, nil
}

func classNames(w *workload.Workload) []string {
	var out []string
	for _, c := range w.Mix {
		out = append(out, c.Name)
	}
	return out
}

func writeJSON(c *cli.Context, v any) error {
	enc := json.NewEncoder(c.App.Writer)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
