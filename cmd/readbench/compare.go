package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/urfave/cli/v2"
)

// compareWriter renders a comparison; the HTML page also draws from the
// two results themselves (their histograms and timelines).
type compareWriter func(w io.Writer, c *results.Comparison, base, nw *results.Result) error

// comparisonOnly adapts a renderer that needs only the comparison.
func comparisonOnly(f func(io.Writer, *results.Comparison) error) compareWriter {
	return func(w io.Writer, c *results.Comparison, _, _ *results.Result) error { return f(w, c) }
}

// compareFormats are compare's output formats.
var compareFormats = map[string]compareWriter{
	"table":    comparisonOnly(report.WriteCompareTable),
	"markdown": comparisonOnly(report.WriteCompareMarkdown),
	"junit":    comparisonOnly(report.WriteCompareJUnit),
	"json":     comparisonOnly(writeComparisonJSON),
	"html":     report.CompareHTML,
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare two results: every delta marked significant or within the noise; gate on bounds",
		ArgsUsage: "BASE.json NEW.json | DIR",
		UsageText: "readbench compare runs/old.json runs/new.json\n" +
			"readbench compare runs/                    # the newest result against the one before it, same workload\n" +
			"readbench compare --last 3                 # the newest in runs/ against the third before it\n" +
			"readbench compare base.json new.json --fail-on 'read.p99=+10%,turn.p99=+50ms,errors=+0.5pp,rate=-5%'\n" +
			"readbench compare base.json new.json --format markdown >> \"$GITHUB_STEP_SUMMARY\"\n" +
			"readbench compare base.json new.json --fail-on 'read.p99=+10%' --format junit --out compare.xml",
		Description: "Exit 0 when every bound holds, 1 when one is broken (a change beyond it that is not\n" +
			"within the noise), 2 on usage errors: a misspelt metric or class, unreadable results,\n" +
			"or results of different workloads (name, mix, turn, load) without --force.",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "fail-on", Usage: "fail (exit 1) when a change breaks `BOUNDS`, e.g. 'read.p99=+10%,errors=+0.5pp,rate=-5%,class.NAME.read.p99=+20%' (repeatable)"},
			&cli.BoolFlag{Name: "fail-on-content-change", Usage: "fail when a URI read by both returned other bytes, MIME type or size"},
			&cli.BoolFlag{Name: "force", Usage: "compare results of different workloads anyway (the differences are printed)"},
			&cli.StringFlag{Name: "noise-floor", Value: "10%", Usage: "the smallest latency or rate change that may be called significant, in `PERCENT`"},
			&cli.IntFlag{Name: "last", Usage: "with a folder (runs/ by default): compare the newest result with the `N`th before it of the same workload"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, markdown, json, junit (the bounds as test cases) or html"},
			&cli.StringFlag{Name: "out", Usage: "write to `FILE` instead of standard output"},
		},
		Action: compareAction,
	}
}

func compareAction(c *cli.Context) error {
	format := c.String("format")
	write, known := compareFormats[format]
	if !known {
		return cli.Exit(fmt.Sprintf("compare: --format %q: want table, markdown, json, junit or html", format), exitUsage)
	}
	var bs []bounds.Bound
	for _, s := range c.StringSlice("fail-on") {
		more, err := bounds.ParseBounds(s)
		if err != nil {
			return cli.Exit("compare: --fail-on: "+err.Error(), exitUsage)
		}
		bs = append(bs, more...)
	}
	floor, err := parseFloor(c.String("noise-floor"))
	if err != nil {
		return cli.Exit("compare: --noise-floor: "+err.Error(), exitUsage)
	}
	basePath, newPath, err := comparePaths(c)
	if err != nil {
		return cli.Exit("compare: "+err.Error(), exitUsage)
	}
	base, err := results.Load(basePath)
	if err != nil {
		return cli.Exit("compare: "+err.Error(), exitUsage)
	}
	nw, err := results.Load(newPath)
	if err != nil {
		return cli.Exit("compare: "+err.Error(), exitUsage)
	}
	cmp, err := results.Compare(base, nw, results.CompareOptions{BaseLabel: basePath, NewLabel: newPath, Force: c.Bool("force"), NoiseFloor: floor})
	if err != nil {
		return cli.Exit(fmt.Sprintf("compare %s %s: %v", basePath, newPath, err), exitUsage)
	}
	if cmp.Bounds, err = results.CheckBounds(cmp, bs, base, nw); err != nil {
		return cli.Exit("compare: --fail-on: "+err.Error(), exitUsage)
	}
	if c.Bool("fail-on-content-change") {
		cmp.Bounds = append(cmp.Bounds, results.ContentCheck(cmp))
	}
	var buf bytes.Buffer // rendered whole first: a failure leaves no half-written file
	if err := write(&buf, cmp, base, nw); err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	if out := c.String("out"); out != "" {
		if err := results.WriteOutput(out, buf.Bytes(), c.App.Writer); err != nil {
			return cli.Exit(fmt.Sprintf("compare: %v", err), exitFail)
		}
	} else if _, err := c.App.Writer.Write(buf.Bytes()); err != nil {
		return cli.Exit(fmt.Sprintf("compare: %v", err), exitFail)
	}
	return boundsFailure(cmp.Bounds)
}

// boundsFailure is the exit-1 error naming each broken bound; nil when
// every bound held.
func boundsFailure(bcs []results.BoundCheck) error {
	var broken []string
	for _, b := range bcs {
		if !b.Pass {
			what := b.Reason
			if what == "" {
				what = fmt.Sprintf("%s -> %s, limit %s", report.Value(b.Unit, b.Base), report.Value(b.Unit, b.New), report.Value(b.Unit, b.Limit))
			}
			broken = append(broken, b.Bound+" ("+what+")")
		}
	}
	if len(broken) == 0 {
		return nil
	}
	return cli.Exit(fmt.Sprintf("%d of %d bounds broken: %s", len(broken), len(bcs), strings.Join(broken, "; ")), exitFail)
}

// parseFloor reads the noise floor, "5%" or "0".
func parseFloor(s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || f < 0 || f >= 100 {
		return 0, fmt.Errorf("%q: want a percentage from 0%% to 99%%, such as 5%%", s)
	}
	return f / 100, nil
}

// comparePaths picks the two results: BASE NEW as given, or from a
// folder (the argument, or runs/ with --last) the newest and the Nth
// before it of the same workload.
func comparePaths(c *cli.Context) (base, nw string, err error) {
	last := c.Int("last")
	switch {
	case c.NArg() == 2 && !c.IsSet("last"):
		return c.Args().Get(0), c.Args().Get(1), nil
	case c.NArg() == 2:
		return "", "", errors.New("--last picks from a folder: give one folder, or two results without --last")
	case c.NArg() > 2:
		return "", "", errors.New("give two results (BASE NEW) or one folder")
	}
	dir := "runs"
	if c.NArg() == 1 {
		dir = c.Args().First()
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", "", fmt.Errorf("%s is not a folder of results: give two results (BASE NEW), or a folder", dir)
	}
	if !c.IsSet("last") {
		last = 1
	}
	if last < 1 {
		return "", "", fmt.Errorf("--last %d: want 1 or more", last)
	}
	return results.PickHistory(dir, last)
}

func writeComparisonJSON(w io.Writer, c *results.Comparison) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("compare: json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
