package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

// compareWriter renders a comparison; the HTML page also draws from the
// runs of each side themselves (their histograms and timelines).
type compareWriter func(w io.Writer, c *compare.Comparison, base, nw []compare.Labelled) error

// comparisonOnly adapts a renderer that needs only the comparison.
func comparisonOnly(f func(io.Writer, *compare.Comparison) error) compareWriter {
	return func(w io.Writer, c *compare.Comparison, _, _ []compare.Labelled) error { return f(w, c) }
}

// compareFormat is how compare and ab write a comparison in format, o
// linking the trace ids of markdown and the page; false for an unknown
// format.
func compareFormat(format string, o report.Options) (compareWriter, bool) {
	switch format {
	case "table":
		return comparisonOnly(o.WriteCompareTable), true
	case "markdown":
		return comparisonOnly(o.WriteCompareMarkdown), true
	case "junit":
		return comparisonOnly(report.WriteCompareJUnit), true
	case "json":
		return comparisonOnly(writeComparisonJSON), true
	case "html":
		return o.CompareHTML, true
	}
	return nil, false
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare runs of two server versions, the run as the unit: every delta tested across runs; gate on bounds",
		ArgsUsage: "BASE NEW | DIR   (each of BASE and NEW a result, a folder of results or a quoted glob)",
		UsageText: "readbench compare base/ new/                # several runs per side: the sound comparison\n" +
			"readbench compare 'runs/v1-*.json' 'runs/v2-*.json' --fail-on 'read.p50=+10%'\n" +
			"readbench compare --base a1.json,a2.json --new b1.json,b2.json\n" +
			"readbench compare runs/                    # the newest result against up to 10 before it, same workload\n" +
			"readbench compare old.json new.json --single-run --fail-on 'read.p99=+10%'   # one pair: the raw bound\n" +
			"readbench compare base/ new/ --format markdown >> \"$GITHUB_STEP_SUMMARY\"\n" +
			"readbench compare base/ new/ --format html --trace-url 'https://jaeger.example/trace/{trace_id}' --out cmp.html",
		Description: "Each run contributes one value of each figure; the sides' values are tested with the\n" +
			"Mann-Whitney U test (4 or more runs per side), or one run against the prediction interval\n" +
			"of 5 or more (history). Each bound is decided by one estimate (the shift of the runs' values)\n" +
			"at a level that keeps the gate's false alarms at 5% however many bounds it has: broken (a\n" +
			"significant change beyond it), held (its whole interval within the limit), or not answered.\n" +
			"One run per side cannot answer: --single-run holds the bounds to the raw figures.\n" +
			"Exit 0 when every bound holds, 1 when one is broken or not answered (--fail-on-inconclusive=false\n" +
			"lets an open question pass, loudly),\n" +
			"2 on usage errors: a misspelt metric or class, unreadable results,\n" +
			"or results of different workloads (name, mix, turn, load) without --force.",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "fail-on", Usage: "fail (exit 1) when a change breaks `BOUNDS`, e.g. 'read.p99=+10%,errors=+0.5pp,rate=-5%,class.NAME.read.p99=+20%' (repeatable)"},
			&cli.BoolFlag{Name: "fail-on-content-change", Usage: "fail when a URI read by both returned other bytes, MIME type or size"},
			&cli.BoolFlag{Name: "fail-on-inconclusive", Value: true, Usage: "fail when a bound could not be decided (its interval reaches past the limit, too few runs, one run per side); =false passes it, loudly"},
			&cli.BoolFlag{Name: "single-run", Usage: "with one run per side: hold the bounds to the figures as measured"},
			&cli.BoolFlag{Name: "force", Usage: "compare results of different workloads anyway (the differences are printed)"},
			&cli.StringSliceFlag{Name: "base", Usage: "the base side: results, folders or globs (`FILES`, comma-separated or repeated)"},
			&cli.StringSliceFlag{Name: "new", Usage: "the new side: results, folders or globs (`FILES`)"},
			&cli.StringFlag{Name: "noise-floor", Value: "10%", Usage: "the smallest latency or rate change that may be called significant, in `PERCENT` (one run per side: 10%; across runs: none unless set)"},
			&cli.IntFlag{Name: "history", Value: 10, Usage: "with a folder (runs/ by default): hold the newest result against up to `N` results before it of the same workload"},
			&cli.IntFlag{Name: "last", Usage: "with a folder: compare the newest result with the `N`th before it of the same workload (one pair)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, markdown, json, junit (the bounds as test cases) or html"},
			&cli.StringFlag{Name: "out", Usage: "write to `FILE` instead of standard output"},
			traceURLFlag(),
		},
		Action: compareAction,
	}
}

func compareAction(c *cli.Context) error {
	format := c.String("format")
	o, err := reportOptions(c)
	if err != nil {
		return err
	}
	write, known := compareFormat(format, o)
	if !known {
		return cli.Exit(fmt.Sprintf("compare: --format %q: want table, markdown, json, junit or html", format), exitUsage)
	}
	bs, err := failOnBounds(c)
	if err != nil {
		return err
	}
	floor := -1.0 // the default: 10% for one pair, none across runs
	if c.IsSet("noise-floor") {
		f, err := parseFloor(c.String("noise-floor"))
		if err != nil {
			return cli.Exit("compare: --noise-floor: "+err.Error(), exitUsage)
		}
		floor = f
	}
	if out := c.String("out"); out != "" {
		if err := runner.OutputFile(out); err != nil { // before any work, as run's --out: exit 2
			return cli.Exit("compare: "+err.Error(), exitUsage)
		}
	}
	base, nw, err := compareRuns(c)
	if err != nil {
		return cli.Exit("compare: "+err.Error(), exitUsage)
	}
	cmp, err := compare.Runs(base, nw, compare.RunsOptions{Force: c.Bool("force"), NoiseFloor: floor,
		Gate: compare.Gate{SingleRun: c.Bool("single-run"), FailOnInconclusive: c.Bool("fail-on-inconclusive")}})
	if err != nil {
		return cli.Exit(fmt.Sprintf("compare %s %s: %v", cmpLabel(base), cmpLabel(nw), err), exitUsage)
	}
	return gateAndWrite(c, "compare", cmp, bs, base, nw, write, c.String("out"))
}

// failOnBounds parses every --fail-on: a mistake is a usage error.
func failOnBounds(c *cli.Context) ([]bounds.Bound, error) {
	var bs []bounds.Bound
	for _, s := range c.StringSlice("fail-on") {
		more, err := bounds.ParseBounds(s)
		if err != nil {
			return nil, cli.Exit(c.Command.Name+": --fail-on: "+err.Error(), exitUsage)
		}
		bs = append(bs, more...)
	}
	return bs, nil
}

// gateAndWrite holds a comparison of runs to the bounds (and, with
// --fail-on-content-change, to unchanged content), renders it whole with
// write to out (standard output when ""), and returns the bounds' exit:
// compare and ab end the same way.
func gateAndWrite(c *cli.Context, cmd string, cmp *compare.Comparison, bs []bounds.Bound, base, nw []compare.Labelled, write compareWriter, out string) error {
	if _, _, err := cmp.Hold(cmd, bs, base, nw, c.Bool("fail-on-content-change")); err != nil {
		return cli.Exit(cmd+": --fail-on: "+err.Error(), exitUsage)
	}
	if err := writeComparison(c, cmd, cmp, base, nw, write, out); err != nil {
		return err
	}
	return boundsFailure(cmp.Bounds)
}

// writeComparison writes the gated comparison in its format to out (a
// file), or to stdout when out is "".
func writeComparison(c *cli.Context, cmd string, cmp *compare.Comparison, base, nw []compare.Labelled, write compareWriter, out string) error {
	var buf bytes.Buffer // rendered whole first: a failure leaves no half-written file
	if err := write(&buf, cmp, base, nw); err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	if out != "" {
		if err := results.WriteOutput(out, buf.Bytes(), c.App.Writer); err != nil {
			return cli.Exit(fmt.Sprintf("%s: %v", cmd, err), exitFail)
		}
	} else if _, err := c.App.Writer.Write(buf.Bytes()); err != nil {
		return cli.Exit(fmt.Sprintf("%s: %v", cmd, err), exitFail)
	}
	return nil
}

// cmpLabel names a side in an error: the file, or how many.
func cmpLabel(runs []compare.Labelled) string {
	if len(runs) == 1 {
		return runs[0].Label
	}
	return fmt.Sprintf("(%d results)", len(runs))
}

// boundsFailure is the exit-1 error naming each broken bound; nil when
// every bound held.
func boundsFailure(bcs []compare.BoundCheck) error {
	failed := compare.BrokenBounds(bcs)
	if len(failed) == 0 {
		return nil
	}
	broken, open, _ := compare.Settled(bcs)
	what := fmt.Sprintf("%d of %d bounds broken", len(broken), len(bcs))
	if len(open) > 0 {
		what += fmt.Sprintf(", %d not answered (--fail-on-inconclusive=false lets those pass)", len(open))
	}
	return cli.Exit(what+": "+strings.Join(failed, "; "), exitFail)
}

// parseFloor reads the noise floor, "5%" or "0".
func parseFloor(s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || f < 0 || f >= 100 {
		return 0, fmt.Errorf("%q: want a percentage from 0%% to 99%%, such as 5%%", s)
	}
	return f / 100, nil
}

// compareRuns are the two sides the arguments name (compare.Choice).
func compareRuns(c *cli.Context) (base, nw []compare.Labelled, err error) {
	return compare.Choice{
		Args: c.Args().Slice(), Base: c.StringSlice("base"), New: c.StringSlice("new"),
		Last: c.Int("last"), LastSet: c.IsSet("last"), History: c.Int("history"),
	}.Sides()
}

func writeComparisonJSON(w io.Writer, c *compare.Comparison) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("compare: json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
