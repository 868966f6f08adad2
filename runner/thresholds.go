package runner

import (
	"fmt"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// Thresholds are what a run of w is held to: the workload's thresholds
// (parsed with their places in the file, when it was) and more, a
// command line's, checked against w's classes before the run, so a
// misspelt class never costs a run. The classes are checked here, after
// the flags: --class may have left out one a threshold names. A bound on
// the freshness loop (notify.p99…) of a run without listeners is refused
// too: it would hold on nothing.
func Thresholds(w *workload.Workload, more []bounds.Threshold) ([]bounds.Threshold, error) {
	ts := append(w.Bounds(), more...)
	if err := bounds.CheckThresholdClasses(ts, w.ClassNames()); err != nil {
		return nil, fmt.Errorf("threshold: %w", err)
	}
	if err := bounds.CheckThresholdListeners(ts, w.Listen != nil); err != nil {
		return nil, fmt.Errorf("threshold: %w", err)
	}
	return ts, nil
}

// hold evaluates ts on res and stores the verdicts in it: a saved result
// says which bounds it was held to and how it fared.
func hold(res *results.Result, ts []bounds.Threshold) error {
	vs, err := results.EvaluateAll(ts, res)
	if err != nil {
		return fmt.Errorf("threshold: %w", err)
	}
	res.Thresholds = vs
	return nil
}
