package results

import (
	"fmt"
	"math"

	"github.com/readbench/readbench/bounds"
)

// quotient is num/den passed through round, or nil when there is nothing
// under it: a divisor that is zero, negative or missing, or a quotient
// that is not finite. Every ratio and per-unit figure of the document
// (CPU per 1,000 reads, the first read against the steady median,
// inflation) is made here, so none can write 0 for "no value": nil is
// JSON null, and the reports print it as numfmt.None ("-").
// A nil round keeps the quotient as it is.
func quotient(num, den float64, round func(float64) float64) *float64 {
	if !(den > 0) || math.IsNaN(num) || math.IsInf(num, 0) {
		return nil
	}
	v := num / den
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	if round != nil {
		v = round(v)
	}
	return &v
}

// share is a share already computed over of items, or nil when there
// were none: stats prices its candidates at 0 over nothing, and that 0 is
// no figure.
func share(v float64, of int64) *float64 {
	if of <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// PctOf is n of total in %, nil when total is 0: a share of nothing is
// no figure, and a bound held to it must say so rather than pass on 0.
func PctOf(n, total int64) *float64 {
	return quotient(100*float64(n), float64(total), nil)
}

// figure is a measured value as the document's nullable figures hold it.
func figure(v float64) *float64 { return &v }

// valueOf is *v for a threshold, or an error wrapping
// bounds.ErrNotMeasured saying why there is none: a bound is never held
// against a 0 that was never measured.
func valueOf(name string, v *float64, why string) (float64, error) {
	if v == nil {
		return 0, fmt.Errorf("%s: %w in this result (%s)", name, bounds.ErrNotMeasured, why)
	}
	return *v, nil
}

// ZeroIfNone is *v, or 0 when there is no value: for a consumer for
// which "nothing measured" and "nothing achieved" are the same verdict
// (a capacity step with no measured time sustained no rate). Reports
// print the figure with numfmt.Opt instead, so a reader sees "-".
func ZeroIfNone(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}
