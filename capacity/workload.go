package capacity

import (
	"slices"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// OpenLoad makes w's load the one a search drives: the open model, run
// for duration, whose rate each step sets. A workload without a rate gets
// a placeholder of 1/s, so that it validates before the first step sets
// one; hadRate says whether it had a rate of its own (a size sweep holds
// the workload's rate, so it needs one, or a --rate).
func OpenLoad(w *workload.Workload, duration time.Duration) (hadRate bool) {
	hadRate = w.Load.Rate.PerSecond > 0
	w.Load.Model, w.Load.Stages, w.Load.Turns, w.Load.Duration = workload.ModelOpen, nil, 0, duration
	if !hadRate {
		w.Load.Rate = units.Rate{PerSecond: 1, Text: "1/s"}
	}
	return hadRate
}

// Sized says whether w has a class that names a mime and size: the only
// classes a size sweep can change.
func Sized(w *workload.Workload) bool {
	return slices.ContainsFunc(w.Mix, func(c workload.Class) bool { return c.Size != nil })
}

// StepWorkload is the workload of one step: base at the setting's rate,
// an open model over warmup then duration, and in a size sweep every
// sized class at the setting's size. base is not changed: every step
// starts from the same workload.
func StepWorkload(base *workload.Workload, s Setting, warmup, duration time.Duration) *workload.Workload {
	w := *base
	w.Load.Model, w.Load.Stages, w.Load.Turns = workload.ModelOpen, nil, 0
	w.Load.Rate = units.Rate{PerSecond: s.Rate, Text: numfmt.Sig3(s.Rate) + "/s"}
	w.Load.Duration, w.Load.Warmup = duration, warmup
	if s.Size > 0 {
		w.Mix = slices.Clone(w.Mix)
		for i := range w.Mix {
			if w.Mix[i].Size != nil {
				w.Mix[i].Size = &units.Dist{Kind: units.DistFixed, A: float64(s.Size), Unit: units.UnitBytes}
			}
		}
	}
	return &w
}
