package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/ab"
	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/live"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// abCommand runs rounds of two targets side by side and compares them
// window by window: package ab holds the round loop and the verdict.
func abCommand() *cli.Command {
	return &cli.Command{
		Name:      "ab",
		Usage:     "is the new version worse: base and new run side by side from the same instant, judged window by window, gated",
		ArgsUsage: "[WORKLOAD.yaml | SCENARIO] --base TARGET --new TARGET",
		UsageText: "readbench ab w.yaml --base http://127.0.0.1:8081/mcp --new http://127.0.0.1:8082/mcp --fail-on 'read.p50=+10%'\n" +
			"readbench ab w.yaml --base 'stdio:./server-v1 --stdio' --new 'stdio:./server-v2 --stdio' --rounds 6 --duration 5s\n" +
			"readbench ab w.yaml --base embedded --new 'stdio:readbench serve --stdio --delay-scale 1.3' --fail-on 'service.p50=+10%'\n" +
			"readbench ab w.yaml --base A --new B --fail-on 'read.p50=+10%' --format junit > ab.xml",
		Description: "Runs the workload against both targets at once, in rounds: the same seed and schedule on both\n" +
			"sides, started at the same instant, so that whatever the machine does meets both alike. Each\n" +
			"bound is judged on windows of the schedule (250 ms or more: the same reads on both sides, at the\n" +
			"same moments), by the trimmed paired t of the windows' differences: broken (a significant change\n" +
			"beyond it), held (its whole interval within the limit) or not answered. After --rounds kept rounds,\n" +
			"and each time they double (12, 24, ...), the windows are tested, and the experiment stops once every --fail-on bound is\n" +
			"decided; else it runs on to --max-rounds or the --budget. Each bound is tested at 10%/(bounds x\n" +
			"looks) two-sided, so an unchanged server fails the gate at most 5% of the time (Bonferroni).\n" +
			"A run whose generator saturated ends its round's attempt: the round is run again, at most\n" +
			"--retries more times, then excluded. When the scheduling lag is over --max-lag-share of a read\n" +
			"percentile (a busy machine), a bound on read or read_ok latency there is judged on service time\n" +
			"(from the actual send) and says so; one on turn latency cannot be judged (not answered).\n" +
			"Every run is saved in --out DIR: base/ and new/ hold the kept ones (readbench compare\n" +
			"DIR/base DIR/new compares them unpaired), excluded/ the others. The default DIR is a folder of\n" +
			"its own (runs/ab-<time>-2 when another experiment took the name); an existing DIR that holds\n" +
			"files is refused unless --force, and no run replaces a file but with --force.\n" +
			"Exit 0 when every bound holds, 1 when one is broken, when the question was not answered (an\n" +
			"interval reaching past a bound, no round kept: --fail-on-inconclusive=false lets that pass),\n" +
			"or a target cannot be reached (the document is written all the same); 2 on usage errors (an\n" +
			"--out DIR that holds files, without --force, too);\n" +
			"130 interrupted (the runs made are saved).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "base", Usage: "the base `TARGET` (embedded, stdio:CMD ARG..., http(s)://..., sse+http(s)://..., range+http(s)://...)"},
			&cli.StringFlag{Name: "new", Usage: "the new `TARGET`"},
			&cli.IntFlag{Name: "rounds", Value: ab.DefaultRounds, Usage: "kept rounds before the first look (each round one run per side)"},
			&cli.IntFlag{Name: "max-rounds", Value: ab.DefaultMaxRounds, Usage: "the most rounds run while a bound is undecided (= --rounds: a fixed number)"},
			&cli.DurationFlag{Name: "budget", Value: ab.DefaultBudget, Usage: "start no round that would end past this `DURATION` from the start (0: no budget)"},
			&cli.IntFlag{Name: "retries", Value: ab.DefaultRetries, Usage: "more attempts of an unusable round (the generator saturated) before it is excluded"},
			&cli.StringFlag{Name: "max-lag-share", Value: "10%", Usage: "past this `PERCENT` of a read percentile, the scheduling lag makes a read bound judged on service time"},
			rateFlag("turns per second, e.g. `50/s` (open model)"),
			durationFlag("measured length of each run, e.g. 5s (warmup not included)"),
			warmupFlag(),
			concurrencyFlag(),
			&cli.Int64Flag{Name: "seed", Usage: "the workload's seed, the same for every run (default: the workload's)"},
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			httpFlag(),
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; never saved)"},
			&cli.StringFlag{Name: "out", Usage: "save every run in `DIR` (default runs/ab-<time>, -2, -3 … when taken); a DIR that holds files is refused"},
			forceFolderFlag(),
			&cli.StringFlag{Name: "format", Value: "table", Usage: "the comparison: table, markdown, json, junit (the bounds as test cases) or html"},
			traceURLFlag(),
			&cli.StringSliceFlag{Name: "fail-on", Usage: "fail (exit 1) when a change breaks `BOUNDS`, as compare's, e.g. 'read.p50=+10%,service.p99=+20%,errors=+0.5pp'"},
			&cli.BoolFlag{Name: "fail-on-inconclusive", Value: true, Usage: "fail when the question was not answered (an interval reaching past a bound; no round kept); =false passes it, loudly"},
			&cli.BoolFlag{Name: "fail-on-content-change", Usage: "fail when a URI read by both returned other bytes, MIME type or size"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
			maxAnswerFlag(),
			traceSampleFlag(),
			handshakeTimeoutFlag(),
		}, append(append(aimFlags(), metricsFlags()...), oauthFlags()...)...),
		Action: abAction,
	}
}

func abAction(c *cli.Context) error {
	if c.NArg() > 1 {
		return cli.Exit("ab: give at most one workload", exitUsage)
	}
	opts, err := reportOptions(c)
	if err != nil {
		return err
	}
	write, known := compareFormat(c.String("format"), opts)
	if !known {
		return cli.Exit(fmt.Sprintf("ab: --format %q: want table, markdown, json, junit or html", c.String("format")), exitUsage)
	}
	bs, err := failOnBounds(c)
	if err != nil {
		return err
	}
	plan, err := abPlan(c, bs)
	if err != nil {
		return err
	}
	sides, closeSides, err := abSides(c, bs)
	if err != nil {
		return err
	}
	defer closeSides()
	mx, err := startMetrics(c, time.Time{}, "")
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer mx.Close(c.App.ErrWriter)
	if c.String("out") == "" {
		// The default folder, made once the flags and targets are known to
		// be right, exclusively: two experiments started in the same second
		// get runs/ab-<time> and runs/ab-<time>-2, never one folder whose
		// runs they replace (issue 47, item 17).
		if plan.Dir, err = runner.NewFolder(plan.Dir); err != nil {
			return cli.Exit("ab: "+err.Error(), exitFail)
		}
	}
	o, err := ab.Run(c.Context, plan, sides.runner(c, mx))
	mx.Close(c.App.ErrWriter) // the last run's final push
	if err != nil && (o == nil || !o.Interrupted) {
		if o == nil {
			return exitFor("ab: ", err)
		}
		// A document whatever happened: a target that cannot be reached
		// still gets its JSON or JUnit, saying so, before the exit.
		if werr := writeComparison(c, "ab", o.Document(), o.Base, o.New, write, ""); werr != nil {
			return werr
		}
		return exitFor("ab: ", fmt.Errorf("%w (the runs made are in %s)", err, plan.Dir))
	}
	verdict := abVerdict(c, o, write, plan.Dir)
	if o.Interrupted {
		return exitOf(c.App.ErrWriter, results.Judgement{Exit: results.Interrupted, Also: errorText(verdict),
			Reason: fmt.Sprintf("ab interrupted after %d round(s): the runs made are in %s", len(o.Rounds), plan.Dir)})
	}
	return verdict
}

// abPlan is the experiment the flags ask for: its rounds, budget, retries,
// the bounds it judges and how, and the folder of its runs.
func abPlan(c *cli.Context, bs []bounds.Bound) (ab.Design, error) {
	share, err := parseFloor(c.String("max-lag-share"))
	if err != nil {
		return ab.Design{}, cli.Exit("ab: --max-lag-share: "+err.Error(), exitUsage)
	}
	dir := c.String("out")
	if dir == "" {
		dir = defaultABFolder() // made by abAction once the targets are ready (NewFolder)
	} else if err := runner.FolderName(dir, "ab", "every run is saved in", c.String("format")); err != nil {
		return ab.Design{}, cli.Exit("ab: "+err.Error(), exitUsage)
	} else if err := runner.Folder(dir, c.Bool("force")); err != nil {
		return ab.Design{}, cli.Exit(fmt.Sprintf("ab: --out: %v", err), exitUsage)
	}
	pol := ab.DefaultPolicy()
	pol.MaxLagShare = share
	plan := ab.Design{Rounds: c.Int("rounds"), MaxRounds: max(c.Int("max-rounds"), c.Int("rounds")), Budget: c.Duration("budget"),
		Retries: c.Int("retries"), Policy: pol, Dir: dir,
		Judging: ab.Judging{Bounds: bs, Gate: compare.Gate{FailOnInconclusive: c.Bool("fail-on-inconclusive")}, Content: c.Bool("fail-on-content-change")}}
	if c.IsSet("max-rounds") {
		plan.MaxRounds = c.Int("max-rounds")
	}
	if err := plan.Check(); err != nil {
		return ab.Design{}, cli.Exit(err.Error(), exitUsage)
	}
	if !c.Bool("quiet") {
		plan.Told = func(rd ab.Round) { fmt.Fprintln(c.App.ErrWriter, roundLine(rd, plan.Rounds, plan.MaxRounds)) }
		plan.Saved = func(side ab.Side, round, attempt int, _ string, noisy string) {
			if noisy != "" {
				fmt.Fprintf(c.App.ErrWriter, "round %d, attempt %d: the %s run is unusable (%s)\n", round, attempt, side, noisy)
			}
		}
		plan.Looked = func(kept int, cmp *compare.Comparison, decided bool) {
			fmt.Fprintln(c.App.ErrWriter, lookLine(kept, cmp, decided))
		}
	}
	return plan, nil
}

// defaultABFolder is the name of an experiment's default folder,
// runs/ab-<time>, before runner.NewFolder makes it (or its -2 …).
func defaultABFolder() string {
	return filepath.Join("runs", "ab-"+time.Now().UTC().Format("20060102T150405Z"))
}

// lookLine is a look's one line on stderr: each bound's verdict once the
// experiment is decided; before, its figures so far, never a "fail"
// beside "undecided" (an interim look does not decide a bound).
func lookLine(kept int, cmp *compare.Comparison, decided bool) string {
	parts := make([]string, 0, len(cmp.Bounds))
	for _, b := range cmp.Bounds {
		if decided {
			parts = append(parts, fmt.Sprintf("%s %s", b.Bound, b.Verdict))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s so far %s → %s (limit %s)", b.Bound,
			numfmt.Value(b.Unit, b.Base), numfmt.Value(b.Unit, b.New), numfmt.Value(b.Unit, b.Limit)))
	}
	end := "undecided: more rounds"
	if decided {
		end = "decided"
	}
	return fmt.Sprintf("look at %d kept rounds (p <= %.3g): %s; %s", kept, cmp.Alpha, strings.Join(parts, ", "), end)
}

// abSide is the run of one side: its options and its tokens, shared by
// its runs (each run's result counts its own token requests).
type abSide struct {
	opts   driver.Options
	tokens *auth.Sequence
}

// abSides are the two sides' runs of the one workload, the same seed on
// both; closing them ends their tokens.
func abSides(c *cli.Context, bs []bounds.Bound) (abSideRuns, func(), error) {
	base, err := reach(c)
	if err != nil {
		return nil, nil, err
	}
	w, err := workloadOf(c)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range bs {
		if b.Metric.Class != "" && !slices.Contains(w.ClassNames(), b.Metric.Class) {
			return nil, nil, cli.Exit(fmt.Sprintf("ab: --fail-on: %s: the workload has no class %q (it has %v)", b.Text, b.Metric.Class, w.ClassNames()), exitUsage)
		}
	}
	if c.IsSet("seed") {
		w.Seed = c.Int64("seed")
	}
	sides, closers := abSideRuns{}, []func(){}
	closeAll := func() {
		for _, f := range closers {
			f()
		}
	}
	for _, side := range []ab.Side{ab.Base, ab.New} {
		s, done, err := abSideOf(c, base, w, side)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		sides[side], closers = s, append(closers, done)
	}
	return sides, closeAll, nil
}

// abSideOf is the run of one side: w at --base's or --new's target, and
// its tokens (done ends them).
func abSideOf(c *cli.Context, base driver.Options, w *workload.Workload, side ab.Side) (abSide, func(), error) {
	if !c.IsSet(string(side)) {
		return abSide{}, nil, cli.Exit("ab: give both --base TARGET and --new TARGET", exitUsage)
	}
	t, err := targets.Parse(c.String(string(side)))
	if err != nil {
		return abSide{}, nil, cli.Exit(fmt.Sprintf("ab: --%s: %v", side, err), exitUsage)
	}
	opts, err := prepare(c, base, w, func(ov *driver.Overrides) { ov.Target = &t })
	if err != nil {
		return abSide{}, nil, err
	}
	extras := &runner.Extras{}
	tokens, err := oauthTokens(c, extras, opts.Workload.Auth, t)
	if err != nil {
		return abSide{}, nil, err
	}
	return abSide{opts: opts, tokens: auth.NewSequence(tokens)}, func() { _ = extras.Close() }, nil
}

// abSideRuns are the sides of an experiment.
type abSideRuns map[ab.Side]abSide

// runner is ab.Run's: each run of a side a runner.Job saved where the
// experiment says, its schedule started with the round's other side, its
// measured reads told to the experiment's windows; the base side's
// progress is shown on stderr (both sides run the same schedule at once).
func (sides abSideRuns) runner(c *cli.Context, mx *metrics.Live) ab.Runner {
	quiet := c.Bool("quiet")
	return func(ctx context.Context, r ab.SideRun) (*results.Result, error) {
		opts := sides[r.Side].opts
		opts.Auth = sides[r.Side].tokens.Next()
		if !quiet && r.Side == ab.Base && terminal(c.App.ErrWriter) {
			opts.Progress = live.Line(c.App.ErrWriter, opts.Workload.Load.Warmup, nil)
		}
		shown := opts.Progress != nil
		opts.Logf = func(format string, args ...any) {
			if !quiet {
				runner.ClearProgress(c.App.ErrWriter, shown)
				fmt.Fprintf(c.App.ErrWriter, "readbench: round %d, %s: "+format+"\n", append([]any{r.Round, r.Side}, args...)...)
			}
		}
		opts.Observe = r.Observe(nil)
		opts.Together = r.Together
		job := runner.Job{Options: opts, Save: runner.File(r.Path, c.Bool("force")), Part: true,
			Metrics: mx, MetricsPart: metrics.RunLabels{Side: string(r.Side), Round: strconv.Itoa(r.Round)}} // a round's attempts share its series
		done, err := job.Run(ctx)
		runner.ClearProgress(c.App.ErrWriter, shown)
		if err != nil {
			return nil, err
		}
		if done.Judgement.Exit == results.Failed || done.Unsaved != nil {
			return done.Result, errors.New(done.Judgement.Reason)
		}
		return done.Result, nil
	}
}

// abVerdict writes the experiment's document in the asked format, its
// answer first on stderr too, and gates on its bounds: a question not
// answered fails unless --fail-on-inconclusive=false, which passes it
// loudly.
func abVerdict(c *cli.Context, o *ab.Experiment, write compareWriter, dir string) error {
	cmp := o.Document()
	say(c.App.ErrWriter, "readbench: "+cmp.Answer.Line)
	if !c.Bool("quiet") && len(o.Base) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "every run is saved in %s (readbench compare %s %s compares them unpaired)\n",
			dir, filepath.Join(dir, string(ab.Base)), filepath.Join(dir, string(ab.New)))
	}
	if err := writeComparison(c, "ab", cmp, o.Base, o.New, write, ""); err != nil {
		return err
	}
	if err := boundsFailure(cmp.Bounds); err != nil {
		return err
	}
	if !cmp.Answer.Answered && len(cmp.Bounds) > 0 {
		fmt.Fprintln(c.App.ErrWriter, "readbench: ab: not answered, passed only because of --fail-on-inconclusive=false")
	}
	return nil
}

// errorText is err's message as a finding to say first, none for nil.
func errorText(err error) []string {
	if err == nil {
		return nil
	}
	return []string{err.Error()}
}

// roundLine is a round's one line on stderr: kept with each side's read
// and service p50, or excluded and why. Its count says how many rounds
// the plan runs: "round 2/4", or "round 2 of 4–16" when more are run
// while a bound is undecided (--rounds 4, --max-rounds 16).
func roundLine(rd ab.Round, rounds, most int) string {
	of := fmt.Sprintf("/%d", most)
	if most > rounds && rounds > 0 {
		of = fmt.Sprintf(" of %d–%d", rounds, most)
	}
	head := fmt.Sprintf("round %d%s (%s, %s)", rd.Index, of, rd.Order[0], rd.Order[1])
	if !rd.Kept {
		return fmt.Sprintf("%s: excluded after %d attempt(s): %s", head, rd.Attempts, rd.Noisy[len(rd.Noisy)-1])
	}
	b, n := rd.Runs[ab.Base].Result, rd.Runs[ab.New].Result
	again := ""
	if rd.Attempts > 1 {
		again = fmt.Sprintf(" (attempt %d)", rd.Attempts)
	}
	return fmt.Sprintf("%s: kept%s: read p50 %s -> %s, service p50 %s -> %s, lag p99 %s / %s", head, again,
		numfmt.Ms(b.Read.P50Ms), numfmt.Ms(n.Read.P50Ms), numfmt.Ms(b.Service.P50Ms), numfmt.Ms(n.Service.P50Ms),
		numfmt.Ms(b.Lag.P99Ms), numfmt.Ms(n.Lag.P99Ms))
}
