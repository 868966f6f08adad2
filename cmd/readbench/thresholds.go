package main

import (
	"fmt"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// thresholdFlag is run's --threshold: repeatable, each a bound or a
// comma-separated list of them, in the grammar of package bounds.
func thresholdFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "threshold", Usage: "hold the run to `BOUND`, e.g. 'turn.p99<800ms' or 'errors<1%,rate>45/s' (repeatable; with the workload's thresholds; a broken one exits 1 after the result is saved)"}
}

// runThresholds are --threshold with the workload's thresholds
// (runner.Thresholds), read before the run so that a misspelt metric or
// class never costs a run: an error is a usage error.
func runThresholds(c *cli.Context, w *workload.Workload) ([]bounds.Threshold, error) {
	var more []bounds.Threshold
	for _, s := range c.StringSlice("threshold") {
		ts, err := bounds.ParseThresholds(s)
		if err != nil {
			return nil, fmt.Errorf("--threshold: %w", err)
		}
		more = append(more, ts...)
	}
	return runner.Thresholds(w, more)
}
