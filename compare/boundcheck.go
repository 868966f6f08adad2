package compare

import (
	"errors"
	"fmt"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// CheckBounds holds the comparison c of nw against base to the bounds, in
// order. A bound is broken when the new value goes past the bound's
// limit in its direction and c's test of that metric found the change
// significant. A change the test calls within the noise passes; one
// without a verdict (Inconclusive: too few runs; Untested: no test
// applies) passes too, saying so, unless c.Gate.FailOnInconclusive.
// A one-run-per-side comparison with c.Gate.SingleRun is held to the
// figures as measured: the raw bound, whatever the verdict. A metric
// either result did not measure fails with the reason. The error is a
// class or turn size one of the results lacks (it wraps
// bounds.ErrUnknown): a usage error.
func CheckBounds(c *Comparison, bs []bounds.Bound, base, nw *results.Result) ([]BoundCheck, error) {
	out := make([]BoundCheck, 0, len(bs))
	for _, b := range bs {
		bc := BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: b.Metric.Unit.String()}
		d, ok := c.Find(b.Metric.Name)
		if !ok {
			// Not in the comparison (an outcome neither side saw, a
			// figure one side did not measure): from the results.
			var err error
			if d, err = fromResults(b.Metric, base, nw); errors.Is(err, bounds.ErrUnknown) {
				return nil, err
			} else if err != nil {
				bc.Verdict, bc.Reason = VerdictFail, err.Error()
				out = append(out, bc)
				continue
			}
		}
		bc.Base, bc.New, bc.Noise = d.Base, d.New, d.Noise
		bc.Limit = b.Limit(d.Base)
		bc.Pass, bc.Verdict = true, VerdictPass
		if b.Broken(d.Base, d.New) {
			bc.Pass, bc.Verdict, bc.Reason = gate(c, d)
		}
		out = append(out, bc)
	}
	return out, nil
}

// gate is the verdict on a bound the figures break: pass or not, the
// verdict to print (a pass without a verdict is inconclusive), and why.
func gate(c *Comparison, d Delta) (pass bool, verdict, reason string) {
	switch {
	case c.Method == MethodPair && c.Gate.SingleRun:
		return false, VerdictFail, "" // --single-run: the raw bound
	case d.Noise == WithinNoise:
		return true, VerdictPass, "beyond the bound but within the noise: not evidence of a change"
	case d.Noise == Inconclusive || d.Noise == Untested:
		why := d.Note
		if c.Method == MethodPair && d.Noise == Inconclusive {
			why = "one run per side cannot separate the server from the machine (--single-run gates on the figures)"
		}
		if c.Gate.FailOnInconclusive {
			return false, VerdictFail, "inconclusive (--fail-on-inconclusive): " + why
		}
		return true, VerdictInconclusive, "beyond the bound but inconclusive: " + why
	}
	return false, VerdictFail, ""
}

// Unjudged is the check of a bound no figure can judge, for why: no
// verdict, which passes or fails as c.Gate says of a change without one.
func Unjudged(c *Comparison, b bounds.Bound, why string) BoundCheck {
	bc := BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: b.Metric.Unit.String(), Noise: Untested}
	if d, ok := c.Find(b.Metric.Name); ok {
		bc.Base, bc.New, bc.Limit = d.Base, d.New, b.Limit(d.Base)
	}
	bc.Pass, bc.Verdict, bc.Reason = gate(c, Delta{Noise: Untested, Note: why})
	return bc
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
