package workload

import (
	"github.com/readbench/readbench/bounds"
)

// Threshold is one entry of the file's thresholds, "turn.p99: <800ms": a
// bound the run is held to. It is parsed with the file, in the grammar of
// package bounds, so that a misspelt metric, an unknown class, an operator
// or a limit that does not parse is an error at its line and column like
// any other mistake of the file, before anything runs. Metric and Bound
// keep the entry as written: a result records it so (workload.thresholds).
type Threshold struct {
	Metric string           // the key as written: "turn.p99"
	Bound  string           // the value as written: "<800ms"
	Parsed bounds.Threshold // what the run is held to; set by the file's parser, or read back from a result
}

// Bounds is the parsed thresholds of w, in the order of their metrics:
// what a run of w is held to.
func (w *Workload) Bounds() []bounds.Threshold {
	out := make([]bounds.Threshold, 0, len(w.Thresholds))
	for _, t := range w.Thresholds {
		out = append(out, t.Parsed)
	}
	return out
}
