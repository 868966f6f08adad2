package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/readbench/readbench/ab"
	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// abCommand runs interleaved rounds against two targets and compares
// them, the run as the unit: package ab holds the round loop.
func abCommand() *cli.Command {
	return &cli.Command{
		Name:      "ab",
		Usage:     "is the new version worse: interleaved rounds of runs against two targets, then compare's test across runs and its gate",
		ArgsUsage: "[WORKLOAD.yaml | SCENARIO] --base TARGET --new TARGET",
		UsageText: "readbench ab w.yaml --base http://127.0.0.1:8081/mcp --new http://127.0.0.1:8082/mcp --fail-on 'read.p50=+10%'\n" +
			"readbench ab w.yaml --base 'stdio:./server-v1 --stdio' --new 'stdio:./server-v2 --stdio' --rounds 6 --duration 5s\n" +
			"readbench ab w.yaml --base embedded --new 'stdio:readbench serve --stdio --delay-scale 1.3' --fail-on 'service.p50=+10%'\n" +
			"readbench ab w.yaml --base A --new B --fail-on 'read.p50=+10%' --format junit > ab.xml",
		Description: "Runs the workload --rounds times against each target, one run at a time: base then new in odd\n" +
			"rounds, new then base in even ones, the same seed every time. A run whose generator saturated\n" +
			"or whose scheduling lag is over --max-lag-share of a figure the gate holds (read latency at\n" +
			"p50 and at each percentile of read, read_ok or turn a bound names) ends its round's attempt:\n" +
			"the round is run again, at most --retries more times, then excluded, and the output says so.\n" +
			"Service time (service.p50...: from the actual send) is compared beside read latency (from\n" +
			"the intended start), so a gate on it does not charge the generator's lag to the server.\n" +
			"Every run is saved in --out DIR: base/ and new/ hold the kept ones (readbench compare\n" +
			"DIR/base DIR/new repeats the comparison), excluded/ the others. The kept runs are compared as\n" +
			"compare does (Mann-Whitney U across runs: 4 or more rounds for a verdict).\n" +
			"Exit 0 when every bound holds, 1 when one is broken (or a target cannot be reached), 2 on\n" +
			"usage errors, 130 interrupted (the runs made are saved, and compared when they can be).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "base", Usage: "the base `TARGET` (embedded, stdio:CMD ARG..., http(s)://..., sse+http(s)://..., range+http(s)://...)"},
			&cli.StringFlag{Name: "new", Usage: "the new `TARGET`"},
			&cli.IntFlag{Name: "rounds", Value: 5, Usage: "rounds, each one run per side (4 or more for a verdict)"},
			&cli.IntFlag{Name: "retries", Value: ab.DefaultRetries, Usage: "more attempts of a noisy round before it is excluded"},
			&cli.StringFlag{Name: "max-lag-share", Value: "10%", Usage: "a run is noisy when its scheduling lag is over this `PERCENT` of a gated read percentile"},
			rateFlag("turns per second, e.g. `50/s` (open model)"),
			durationFlag("measured length of each run, e.g. 5s (warmup not included)"),
			warmupFlag(),
			concurrencyFlag(),
			&cli.Int64Flag{Name: "seed", Usage: "the workload's seed, the same for every run (default: the workload's)"},
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; never saved)"},
			&cli.StringFlag{Name: "out", Usage: "save every run in `DIR` (default runs/ab-<time>)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "the comparison: table, markdown, json, junit (the bounds as test cases) or html"},
			&cli.StringSliceFlag{Name: "fail-on", Usage: "fail (exit 1) when a change breaks `BOUNDS`, as compare's, e.g. 'read.p50=+10%,service.p99=+20%,errors=+0.5pp'"},
			&cli.BoolFlag{Name: "fail-on-inconclusive", Usage: "fail when a bound is broken by a change with no verdict (too few rounds kept)"},
			&cli.BoolFlag{Name: "fail-on-content-change", Usage: "fail when a URI read by both returned other bytes, MIME type or size"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
			maxAnswerFlag(),
			handshakeTimeoutFlag(),
		}, append(append(aimFlags(), metricsFlags()...), oauthFlags()...)...),
		Action: abAction,
	}
}

func abAction(c *cli.Context) error {
	if c.NArg() > 1 {
		return cli.Exit("ab: give at most one workload", exitUsage)
	}
	write, known := compareFormats[c.String("format")]
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
	mx, err := startMetrics(c, time.Time{})
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer mx.close(c.App.ErrWriter)
	o, err := ab.Run(c.Context, plan, sides.runner(c, mx))
	mx.close(c.App.ErrWriter) // the last run's final push
	if err != nil && (o == nil || !o.Interrupted) {
		if o == nil {
			return exitFor("ab: ", err)
		}
		return exitFor("ab: ", fmt.Errorf("%w (the runs made are in %s)", err, plan.Dir))
	}
	verdict := abVerdict(c, o, bs, write, plan.Dir)
	if o.Interrupted {
		return exitOf(c.App.ErrWriter, runner.Judgement{Status: runner.Interrupted, Also: errorText(verdict),
			Reason: fmt.Sprintf("ab interrupted after %d round(s): the runs made are in %s", len(o.Rounds), plan.Dir)})
	}
	return verdict
}

// abPlan is the experiment the flags ask for: its rounds, retries, the
// noise policy of the gated bounds, and the folder of its runs.
func abPlan(c *cli.Context, bs []bounds.Bound) (ab.Plan, error) {
	share, err := parseFloor(c.String("max-lag-share"))
	if err != nil {
		return ab.Plan{}, cli.Exit("ab: --max-lag-share: "+err.Error(), exitUsage)
	}
	dir := c.String("out")
	if dir == "" {
		dir = filepath.Join("runs", "ab-"+time.Now().UTC().Format("20060102T150405Z"))
	} else if err := runner.Folder(dir); err != nil {
		return ab.Plan{}, cli.Exit(fmt.Sprintf("ab: --out: %v", err), exitUsage)
	}
	pol := ab.DefaultPolicy(bs)
	pol.MaxLagShare = share
	plan := ab.Plan{Rounds: c.Int("rounds"), Retries: c.Int("retries"), Policy: pol, Dir: dir}
	if err := plan.Check(); err != nil {
		return ab.Plan{}, cli.Exit(err.Error(), exitUsage)
	}
	if !c.Bool("quiet") {
		plan.Told = func(rd ab.Round) { fmt.Fprintln(c.App.ErrWriter, roundLine(rd, plan.Rounds)) }
		plan.Saved = func(side ab.Side, round, attempt int, _ string, noisy string) {
			if noisy != "" {
				fmt.Fprintf(c.App.ErrWriter, "round %d, attempt %d: the %s run is noisy (%s)\n", round, attempt, side, noisy)
			}
		}
	}
	return plan, nil
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
	tokens, done, err := oauthTokens(c, opts.Workload.Auth, t)
	if err != nil {
		return abSide{}, nil, err
	}
	return abSide{opts: opts, tokens: auth.NewSequence(tokens)}, done, nil
}

// abSideRuns are the sides of an experiment.
type abSideRuns map[ab.Side]abSide

// runner is ab.Run's: each run of a side a runner.Job saved where the
// experiment says, shown on stderr as its round's.
func (sides abSideRuns) runner(c *cli.Context, mx *liveMetrics) ab.Runner {
	quiet := c.Bool("quiet")
	return func(ctx context.Context, side ab.Side, round, attempt int, path string) (*results.Result, error) {
		opts := sides[side].opts
		opts.Auth = sides[side].tokens.Next()
		if !quiet {
			opts.Progress = progressPrinter(c.App.ErrWriter, opts.Workload.Load.Warmup)
		}
		shown := opts.Progress != nil
		opts.Logf = func(format string, args ...any) {
			if !quiet {
				clearProgress(c.App.ErrWriter, shown)
				fmt.Fprintf(c.App.ErrWriter, "readbench: round %d, %s: "+format+"\n", append([]any{round, side}, args...)...)
			}
		}
		mx.wire(&opts, metrics.RunLabels{Side: string(side), Round: strconv.Itoa(round)}) // a round's attempts share its series
		job := runner.Job{Options: opts, Tool: tool(), Save: runner.File(path), Part: true, Finished: func() *results.LiveMetrics {
			mx.ended()
			clearProgress(c.App.ErrWriter, shown)
			return nil
		}}
		done, err := job.Run(ctx)
		if err != nil {
			return nil, err
		}
		if done.Judgement.Status == runner.Failed {
			return done.Result, errors.New(done.Judgement.Reason)
		}
		return done.Result, nil
	}
}

// abVerdict compares the kept runs of o and gates them as compare does;
// with no round kept there is nothing to compare: inconclusive.
func abVerdict(c *cli.Context, o *ab.Experiment, bs []bounds.Bound, write compareWriter, dir string) error {
	cmp, err := o.Compare(compare.Gate{FailOnInconclusive: c.Bool("fail-on-inconclusive")})
	if err != nil {
		return cli.Exit("ab: "+err.Error(), exitFail)
	}
	if cmp == nil {
		for _, n := range o.Notes() {
			fmt.Fprintln(c.App.ErrWriter, "readbench: "+n)
		}
		msg := fmt.Sprintf("ab: no round kept, nothing to compare: the machine could not measure the servers (the runs are in %s)", dir)
		if c.Bool("fail-on-inconclusive") || o.Interrupted {
			return cli.Exit(msg, exitFail)
		}
		fmt.Fprintf(c.App.ErrWriter, "readbench: %s; inconclusive, which passes without --fail-on-inconclusive\n", msg)
		return nil
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "every run is saved in %s (readbench compare %s %s repeats the comparison)\n",
			dir, filepath.Join(dir, string(ab.Base)), filepath.Join(dir, string(ab.New)))
	}
	return gateAndWrite(c, "ab", cmp, bs, o.Base, o.New, write, "")
}

// errorText is err's message as a finding to say first, none for nil.
func errorText(err error) []string {
	if err == nil {
		return nil
	}
	return []string{err.Error()}
}

// roundLine is a round's one line on stderr: kept with each side's read
// and service p50, or excluded and why.
func roundLine(rd ab.Round, rounds int) string {
	head := fmt.Sprintf("round %d/%d (%s, %s)", rd.Index, rounds, rd.Order[0], rd.Order[1])
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
