package bounds

import (
	"errors"
	"fmt"

	"github.com/readbench/readbench/results"
)

// Check holds the comparison c of nw against base to the bounds, in
// order. A bound is broken when the new value goes past the bound's
// limit in its direction and the change is not within the noise (c's
// noise test of that metric): a change the runs cannot tell from sampling
// error passes, and the check says so. A metric either result did not
// measure fails with the reason. The error is a class or turn size one of
// the results lacks (it wraps ErrUnknown): a usage error.
func Check(c *results.Comparison, bs []Bound, base, nw *results.Result) ([]results.BoundCheck, error) {
	out := make([]results.BoundCheck, 0, len(bs))
	for _, b := range bs {
		bc := results.BoundCheck{Bound: b.Text, Metric: b.Metric.Name, Unit: b.Metric.Unit.String()}
		d, ok := c.Find(b.Metric.Name)
		if !ok {
			// Not compared: find out why from the results themselves.
			for _, s := range []struct {
				side string
				r    *results.Result
			}{{"base", base}, {"new", nw}} {
				_, err := b.Metric.Value(s.r)
				switch {
				case errors.Is(err, ErrUnknown):
					return nil, fmt.Errorf("%s result: %w", s.side, err)
				case err != nil:
					bc.Reason = fmt.Sprintf("%s result: %v", s.side, err)
				}
			}
			if bc.Reason == "" {
				bc.Reason = "not compared"
			}
			out = append(out, bc)
			continue
		}
		bc.Base, bc.New, bc.Noise = d.Base, d.New, d.Noise
		bc.Limit = b.Limit(d.Base)
		bc.Pass = true
		if b.Broken(d.Base, d.New) {
			if d.Noise == results.WithinNoise {
				bc.Reason = "beyond the bound but within the noise: not evidence of a change"
			} else {
				bc.Pass = false
			}
		}
		out = append(out, bc)
	}
	return out, nil
}

// ContentCheck is the check of `compare --fail-on-content-change`: it
// fails when any URI read by both results returned other bytes, another
// MIME type or another size.
func ContentCheck(c *results.Comparison) results.BoundCheck {
	bc := results.BoundCheck{Bound: "content unchanged", Metric: "content", Unit: "URIs",
		New: float64(len(c.Content.Changed)), Pass: len(c.Content.Changed) == 0, Noise: results.Untested}
	switch {
	case c.Content.Compared == 0:
		bc.Pass = false
		bc.Reason = "no URI has a digest in both results: nothing to compare"
	case !bc.Pass:
		bc.Reason = fmt.Sprintf("%d of %d URIs read by both returned other content, e.g. %s (%v)",
			len(c.Content.Changed), c.Content.Compared, c.Content.Changed[0].URI, c.Content.Changed[0].What)
	}
	return bc
}
