package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// thresholdFlag is run's --threshold: repeatable, each a bound or a
// comma-separated list of them, in the grammar of package bounds.
func thresholdFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "threshold", Usage: "hold the run to `BOUND`, e.g. 'turn.p99<800ms' or 'errors<1%,rate>45/s' (repeatable; with the workload's thresholds; a broken one exits 1 after the result is saved)"}
}

// runThresholds adds --threshold to the workload's thresholds (parsed,
// with their places in the file, when the workload was) before the run, so
// a misspelt metric or class never costs a run: an error is a usage error.
// The classes are checked again here: --class may have left out one a
// threshold names.
func runThresholds(c *cli.Context, w *workload.Workload) ([]bounds.Threshold, error) {
	ts := w.Bounds()
	for _, s := range c.StringSlice("threshold") {
		more, err := bounds.ParseThresholds(s)
		if err != nil {
			return nil, fmt.Errorf("--threshold: %w", err)
		}
		ts = append(ts, more...)
	}
	classes := make([]string, 0, len(w.Mix))
	for _, m := range w.Mix {
		classes = append(classes, m.Name)
	}
	if err := bounds.CheckThresholdClasses(ts, classes); err != nil {
		return nil, fmt.Errorf("threshold: %w", err)
	}
	return ts, nil
}

// holdToThresholds evaluates ts on res and stores the verdicts in it.
func holdToThresholds(res *results.Result, ts []bounds.Threshold) error {
	vs, err := results.EvaluateAll(ts, res)
	if err != nil {
		return fmt.Errorf("threshold: %w", err)
	}
	res.Thresholds = vs
	return nil
}

// thresholdFailure is the exit-1 error for broken thresholds, naming each
// with what was measured; nil when all held.
func thresholdFailure(vs []results.Verdict) error {
	var broken []string
	for _, v := range vs {
		if !v.Pass {
			what := v.Reason
			if what == "" {
				what = "measured " + report.Value(v.Unit, v.Measured)
			}
			broken = append(broken, v.Bound+" ("+what+")")
		}
	}
	if len(broken) == 0 {
		return nil
	}
	return cli.Exit(fmt.Sprintf("%d of %d thresholds broken: %s", len(broken), len(vs), strings.Join(broken, "; ")), exitFail)
}

// thresholdUsage tells a usage error (unknown class or turn size) from
// another failure of evaluation.
func thresholdUsage(err error) bool { return errors.Is(err, bounds.ErrUnknown) }
