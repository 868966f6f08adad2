package workload

import (
	"slices"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
)

// What a capacity search does to a workload (package capacity steps the
// rate or the size; these make each step's workload from the user's).

// OpenLoad makes w's load the one a capacity search drives: the open
// model, run for duration, whose rate each step sets. A workload without a rate gets
// a placeholder of 1/s, so that it validates before the first step sets
// one; hadRate says whether it had a rate of its own (a size sweep holds
// the workload's rate, so it needs one, or a --rate).
func (w *Workload) OpenLoad(duration time.Duration) (hadRate bool) {
	hadRate = w.Load.Rate.PerSecond > 0
	w.Load.Model, w.Load.Stages, w.Load.Turns, w.Load.Duration = ModelOpen, nil, 0, duration
	if !hadRate {
		w.Load.Rate = units.Rate{PerSecond: 1, Text: "1/s"}
	}
	return hadRate
}

// Sized says whether w has a class that names a mime and size: the only
// classes a size sweep can change.
func (w *Workload) Sized() bool {
	return slices.ContainsFunc(w.Mix, func(c Class) bool { return c.Size != nil })
}

// Step is the workload of one capacity step: base at rate (turns per
// second), an open model over warmup then duration, and when size > 0
// (a size sweep) every sized class at size bytes. The receiver is not
// changed: every step starts from the same workload.
func (base *Workload) Step(rate float64, size int64, warmup, duration time.Duration) *Workload {
	w := *base
	w.Load.Model, w.Load.Stages, w.Load.Turns = ModelOpen, nil, 0
	w.Load.Rate = units.Rate{PerSecond: rate, Text: numfmt.Sig3(rate) + "/s"}
	w.Load.Duration, w.Load.Warmup = duration, warmup
	if size > 0 {
		w.Mix = slices.Clone(w.Mix)
		for i := range w.Mix {
			if w.Mix[i].Size != nil {
				w.Mix[i].Size = &units.Dist{Kind: units.DistFixed, A: float64(size), Unit: units.UnitBytes}
			}
		}
	}
	return &w
}

// WithListeners is w with n listeners in its listen section, or (n 0)
// with no listen and no changes section: the steps of a listener search,
// whose baseline is the reads alone. w is not changed.
func (w *Workload) WithListeners(n int) *Workload {
	out := *w
	if n == 0 || out.Listen == nil {
		out.Listen, out.Changes = nil, nil
		return &out
	}
	l := *out.Listen
	l.Listeners = n
	out.Listen = &l
	return &out
}
