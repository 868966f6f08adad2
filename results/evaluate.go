package results

import (
	"errors"

	"github.com/readbench/readbench/bounds"
)

// Evaluate holds r to the threshold t. A metric r did not measure fails,
// with the reason in the verdict: a bound that cannot be checked never
// passes. The error is for a class or turn size r does not have (it wraps
// bounds.ErrUnknown): a usage error, to be reported as such.
func Evaluate(t bounds.Threshold, r *Result) (Verdict, error) {
	v := Verdict{Bound: t.Text, Metric: t.Metric.Name, Unit: t.Metric.Unit.String(), Limit: t.Limit}
	got, err := r.MetricValue(t.Metric)
	switch {
	case errors.Is(err, bounds.ErrNotMeasured):
		v.Reason = err.Error()
		return v, nil
	case err != nil:
		return v, err
	}
	v.Measured = got
	v.Pass = t.Op.Holds(got, t.Limit)
	return v, nil
}

// EvaluateAll holds r to every threshold, in order; the error is the
// first unknown class or turn size.
func EvaluateAll(ts []bounds.Threshold, r *Result) ([]Verdict, error) {
	out := make([]Verdict, 0, len(ts))
	for _, t := range ts {
		v, err := Evaluate(t, r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
