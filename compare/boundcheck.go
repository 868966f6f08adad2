package compare

import (
	"errors"
	"fmt"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// CheckBounds holds the comparison c of nw against base to the bounds, in
// order, each tested at the gate's levels (GateLevel: 5% for the gate as a
// whole) and decided by one estimate (Decide): broken by a significant
// change beyond it, held when the whole interval is within its limit,
// else not answered, which fails unless the gate lets it pass. The
// estimate is c.Estimator's when it has one, else the runs'. A
// one-run-per-side comparison with c.Gate.SingleRun is held to the
// figures as measured: the raw bound. A metric either result did not
// measure fails with the reason. The error is a class or turn size one of
// the results lacks (it wraps bounds.ErrUnknown): a usage error.
func CheckBounds(c *Comparison, bs []bounds.Bound, base, nw *results.Result) ([]BoundCheck, error) {
	out := make([]BoundCheck, 0, len(bs))
	if c.Gate.Level == 0 {
		c.Gate.Level, c.Gate.HoldLevel = GateLevel(len(bs), 1), GateLevel(1, 1)
	}
	for _, b := range bs {
		d, ok := c.Find(b.Metric.Name)
		if !ok {
			// Not in the comparison (an outcome neither side saw, a
			// figure one side did not measure): from the results.
			var err error
			if d, err = fromResults(b.Metric, base, nw); errors.Is(err, bounds.ErrUnknown) {
				return nil, err
			} else if err != nil {
				out = append(out, BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: b.Metric.Unit.String(),
					Verdict: VerdictFail, Reason: err.Error()})
				continue
			}
		}
		if c.Method == MethodPair && c.Gate.SingleRun {
			out = append(out, rawBound(b, d))
			continue
		}
		est, ok := Estimate{}, false
		if c.Estimator != nil {
			est, ok = c.Estimator(b.Metric, d.Base, c.Gate)
		}
		if !ok {
			est = estimateRuns(c.Method, d, c.Gate)
		}
		out = append(out, Decide(b, b.Metric.Unit.String(), d.Base, est, c.Gate))
	}
	return out, nil
}

// rawBound is --single-run's check of one run per side: the bound held
// to the figures as measured.
func rawBound(b bounds.Bound, d Delta) BoundCheck {
	bc := BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: b.Metric.Unit.String(), Base: d.Base, New: d.New,
		Limit: b.Limit(d.Base), Low: d.New, High: d.New, Noise: d.Noise, Pass: true, Verdict: VerdictPass}
	if b.Broken(d.Base, d.New) {
		bc.Pass, bc.Verdict = false, VerdictFail
	}
	return bc
}

// Unjudged is the check of a bound no figure can judge, for why: not
// answered, which fails unless c.Gate lets an open question pass.
func Unjudged(c *Comparison, b bounds.Bound, why string) BoundCheck {
	bc := BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: b.Metric.Unit.String(), Noise: Untested}
	if d, ok := c.Find(b.Metric.Name); ok {
		bc.Base, bc.New, bc.Limit = d.Base, d.New, b.Limit(d.Base)
	}
	return notAnswered(bc, c.Gate, why)
}

// fromResults makes the delta of a metric the comparison does not hold,
// untested, from the two results' values.
func fromResults(m bounds.Metric, base, nw *results.Result) (Delta, error) {
	a, err := base.MetricValue(m)
	if err != nil {
		return Delta{}, fmt.Errorf("base result: %w", err)
	}
	b, err := nw.MetricValue(m)
	if err != nil {
		return Delta{}, fmt.Errorf("new result: %w", err)
	}
	d := Delta{Metric: m.Name, Unit: m.Unit.String(), Base: a, New: b, Change: b - a, Noise: Unchanged}
	if a != b {
		d.Noise = Untested
	}
	return d, nil
}

// ContentCheck is the check of `compare --fail-on-content-change`: it
// fails when any URI read by both results returned other bytes, another
// MIME type or another size.
func ContentCheck(c *Comparison) BoundCheck {
	bc := BoundCheck{Bound: "content unchanged", Metric: "content", Unit: "URIs",
		New: float64(len(c.Content.Changed)), Pass: len(c.Content.Changed) == 0, Noise: Untested}
	bc.Verdict = VerdictPass
	if !bc.Pass {
		bc.Verdict = VerdictFail
	}
	switch {
	case c.Content.Compared == 0:
		bc.Pass, bc.Verdict = false, VerdictFail
		bc.Reason = "no URI has a digest in both results: nothing to compare"
	case !bc.Pass:
		bc.Reason = fmt.Sprintf("%d of %d URIs read by both returned other content, e.g. %s (%v)",
			len(c.Content.Changed), c.Content.Compared, c.Content.Changed[0].URI, c.Content.Changed[0].What)
	}
	return bc
}
