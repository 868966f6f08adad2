package compare

import (
	"fmt"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// One estimator decides a bound (docs/compare.md, "One estimator, three
// answers"). The test of a bound's figure gives the change's estimate, its
// interval at the gate's level and its p-value, and all three come from
// the same test of the same units: a bound is broken when that estimate is
// beyond it and the change is significant, held when the whole interval is
// within its limit, and otherwise the comparison could not tell — which
// fails the gate unless the user lets it pass (Gate.FailOnInconclusive
// false). Holding the bound to one estimate (the medians of the runs)
// while the test speaks of another (the paired mean) let a server whose
// test said +10.6% pass a +10% bound because its medians said −10.2%.

// Estimate is the change of one figure as its test estimates it: Change
// (new − base, in the figure's unit, at the base's level), its two-sided
// interval [Low, High] at the gate's hold level, and the p-value of no
// change, significant at Alpha (the gate's level), from N
// units (Units: "windows", "rounds", "runs"). Tested is false when no test
// applies (a maximum, a mean): the figures are then all there is, and a
// bound is held only to them. TooFew is set when a test applies but the
// units are too few for it (one run per side, 3 runs against 3): the
// question is then open, whatever the figures say.
type Estimate struct {
	Tested    bool
	TooFew    bool
	Units     string
	N         int
	Change    float64
	Low, High float64
	P         float64
	Alpha     float64
	// Why qualifies the estimate in a sentence ("p = 0.003, trimmed paired
	// t of 38 windows"), or says why there is no test.
	Why string
}

// Estimator is the estimate of metric m's change at the level base (the
// base runs' median figure), at the levels of gate g; false when it has
// none for m.
type Estimator func(m bounds.Metric, base float64, g Gate) (Estimate, bool)

// GateLevel is the two-sided level each bound of a gate is tested at so
// that the gate as a whole — every bound, every look — fails an unchanged
// server at most RunAlpha (5%) of the time: a one-sided 5% shared out
// among the bounds and looks (Bonferroni, whatever their dependence). The
// README's gate has two latency bounds and an error bound: each is tested
// at 3.3% two-sided in one look. The intervals bounds are held by are at
// GateLevel(1, looks): to pass a regression the gate must hold the very
// bound it broke, so that error needs no share among the bounds.
func GateLevel(bounds, looks int) float64 {
	return 2 * RunAlpha / float64(max(bounds, 1)*max(looks, 1))
}

// Decide holds the change est of a figure whose base value is base to the
// bound b, as gate says of a question the estimate cannot answer.
func Decide(b bounds.Bound, unit string, base float64, est Estimate, gate Gate) BoundCheck {
	bc := BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: unit, Base: base, New: base + est.Change,
		Limit: b.Limit(base), Low: base + est.Low, High: base + est.High, Units: est.Units, Pairs: est.N}
	if est.Tested {
		p, a := est.P, est.Alpha
		bc.P, bc.Alpha = &p, a
	} else {
		bc.Low, bc.High = bc.New, bc.New // no interval: the figures alone
	}
	beyond := b.Broken(base, bc.New)
	reaches := b.Broken(base, bc.Low) || b.Broken(base, bc.High)
	switch {
	case est.TooFew:
		bc.Noise = Inconclusive
		return notAnswered(bc, gate, "too few to tell: "+est.Why)
	case !est.Tested && !beyond:
		bc.Noise, bc.Pass, bc.Verdict = Untested, true, VerdictPass
		bc.Reason = "held by the figures as measured (" + est.Why + ")"
		if est.Change == 0 {
			bc.Noise = Unchanged
		}
		return bc
	case !est.Tested:
		bc.Noise = Untested
		return notAnswered(bc, gate, "beyond the bound with no test: "+est.Why)
	case est.Change == 0 && est.Low == 0 && est.High == 0:
		bc.Noise, bc.Pass, bc.Verdict = Unchanged, true, VerdictPass
		return bc
	}
	bc.Noise = WithinNoise
	if est.P <= est.Alpha {
		bc.Noise = Significant
	}
	switch {
	case beyond && bc.Noise == Significant:
		bc.Pass, bc.Verdict = false, VerdictFail
		bc.Reason = "broken: " + estimateText(bc, est)
	case !reaches:
		bc.Pass, bc.Verdict = true, VerdictPass
		bc.Reason = "held: the whole interval is within the limit; " + estimateText(bc, est)
	default:
		return notAnswered(bc, gate, "could not tell: the interval reaches past the limit; "+estimateText(bc, est))
	}
	return bc
}

// notAnswered is a bound the comparison could not decide: it fails the
// gate unless gate lets an open question pass (and then says so).
func notAnswered(bc BoundCheck, gate Gate, why string) BoundCheck {
	bc.Verdict, bc.Pass, bc.Reason = VerdictInconclusive, !gate.FailOnInconclusive, "not answered, "+why
	if bc.Pass {
		bc.Reason += " (passed by --fail-on-inconclusive=false)"
	}
	return bc
}

// estimateText says an estimate and its interval as the new figure:
// "estimate 6.51 ms (+30.2%), interval 6.32 ms .. 6.70 ms at 3.3%, p = 1e-09, 38 windows".
func estimateText(bc BoundCheck, est Estimate) string {
	rel := ""
	if bc.Base != 0 {
		rel = fmt.Sprintf(" (%+.1f%%)", 100*est.Change/bc.Base)
	}
	s := fmt.Sprintf("estimate %s%s, interval %s .. %s", numfmt.Value(bc.Unit, bc.New), rel,
		numfmt.Value(bc.Unit, bc.Low), numfmt.Value(bc.Unit, bc.High))
	if est.Why != "" {
		s += ", " + est.Why
	}
	return s
}

// estimateRuns is the estimate of a delta's change from its runs' values
// (BaseRuns, NewRuns) by the comparison's method, at the gate's levels:
// the paired trimmed t of rounds (ab), the Hodges–Lehmann shift and the U
// test of runs, or one run against the other side's prediction interval;
// too few for one run per side, untested for figures with no test.
func estimateRuns(method string, d Delta, g Gate) Estimate {
	a, b := d.BaseRuns, d.NewRuns
	alpha, hold := g.Level, g.HoldLevel
	switch {
	case d.Noise == Unchanged:
		return Estimate{Tested: true, Units: "runs", N: len(a), Alpha: alpha, P: 1, Why: "every run the same"}
	case d.Noise == Inconclusive || method == MethodPair:
		why := d.Note
		if method == MethodPair {
			why = "one run per side cannot separate the server from the machine (--single-run gates on the figures)"
		}
		return Estimate{TooFew: true, Change: d.Change, Why: why}
	case d.Noise == Untested || len(a) == 0 || len(b) == 0:
		why := d.Note
		if why == "" {
			why = "no test"
		}
		return Estimate{Change: d.Change, Why: why}
	}
	tr, back := scale(append(append([]float64{}, a...), b...))
	at := func(lo, mid, hi float64) Estimate {
		x := tr(d.Base)
		return Estimate{Tested: true, Alpha: alpha, Change: back(x+mid) - d.Base, Low: back(x+lo) - d.Base, High: back(x+hi) - d.Base}
	}
	switch method {
	case MethodPaired:
		diffs := make([]float64, len(a))
		for i := range a {
			diffs[i] = tr(b[i]) - tr(a[i])
		}
		p, ok := stats.PairedT(diffs, hold)
		if !ok {
			return Estimate{TooFew: true, Change: d.Change, Why: "need at least 2 rounds"}
		}
		e := at(p.Low, p.Mean, p.High)
		e.Units, e.N, e.P = "rounds", p.N, p.P
		e.Why = fmt.Sprintf("p = %.2g, trimmed paired t of %d rounds", p.P, p.N)
		return e
	case MethodRuns:
		if stats.MinP(len(a), len(b)) > alpha {
			return Estimate{TooFew: true, Change: d.Change, Why: fmt.Sprintf("%d and %d runs cannot reach p <= %.2g: need more runs per side", len(a), len(b), alpha)}
		}
		ta, tb := apply(tr, a), apply(tr, b)
		est, lo, hi, ok := stats.ShiftInterval(ta, tb, hold)
		if !ok {
			return Estimate{Change: d.Change, Why: "no interval"}
		}
		_, p := stats.UTest(a, b)
		e := at(lo, est, hi)
		e.Units, e.N, e.P = "runs", min(len(a), len(b)), p
		e.Why = fmt.Sprintf("p = %.2g, U test of %d and %d runs, Hodges-Lehmann shift", p, len(a), len(b))
		return e
	}
	// History (the lone run against the others' 95% prediction interval)
	// and a single pair's within-run test (Pair): the test the delta
	// made, whose estimate is the change of its figures.
	e := Estimate{Tested: true, Units: "runs", N: max(len(a), len(b)), Alpha: RunAlpha, Change: d.Change, Low: d.Low, High: d.High, P: 1, Why: d.Note}
	if d.Noise == Significant {
		e.P = 0
	}
	return e
}

// apply maps f over vs.
func apply(f func(float64) float64, vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = f(v)
	}
	return out
}
