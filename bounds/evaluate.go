package bounds

import (
	"errors"
	"fmt"
	"slices"

	"github.com/readbench/readbench/results"
)

// Evaluate holds r to the threshold. A metric r did not measure fails,
// with the reason in the verdict: a bound that cannot be checked never
// passes. The error is for a class or turn size r does not have (it wraps
// ErrUnknown): a usage error, to be reported as such.
func (t Threshold) Evaluate(r *results.Result) (results.Verdict, error) {
	v := results.Verdict{Bound: t.Text, Metric: t.Metric.Name, Unit: t.Metric.Unit.String(), Limit: t.Limit}
	got, err := t.Metric.Value(r)
	switch {
	case errors.Is(err, ErrNotMeasured):
		v.Reason = err.Error()
		return v, nil
	case err != nil:
		return v, err
	}
	v.Measured = got
	v.Pass = t.Op.holds(got, t.Limit)
	return v, nil
}

// EvaluateAll holds r to every threshold, in order; the error is the
// first unknown class or turn size.
func EvaluateAll(ts []Threshold, r *results.Result) ([]results.Verdict, error) {
	out := make([]results.Verdict, 0, len(ts))
	for _, t := range ts {
		v, err := t.Evaluate(r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// CheckThresholdClasses answers the first threshold naming a class not in
// classes (the workload's mix), before a run starts.
func CheckThresholdClasses(ts []Threshold, classes []string) error {
	for _, t := range ts {
		if err := t.Metric.CheckClasses(classes); err != nil {
			return err
		}
	}
	return nil
}

// FromWorkload parses a workload's thresholds map (metric → bound), in
// the order of the metric names so that verdicts print the same way each
// time. Errors name the key.
func FromWorkload(m map[string]string) ([]Threshold, error) {
	var out []Threshold
	for _, k := range slices.Sorted(mapKeys(m)) {
		t, err := ParseThresholdPair(k, m[k])
		if err != nil {
			return nil, fmt.Errorf("thresholds.%s: %w", k, err)
		}
		out = append(out, t)
	}
	return out, nil
}
