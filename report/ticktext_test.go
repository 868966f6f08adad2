package report

import (
	"testing"

	"github.com/readbench/readbench/internal/numfmt"
)

// TestTickText: an axis figure drops the trailing zeros of its decimals
// (a count's axis reads 0, 2, 4, not 0, 2.00, 4.00), keeps the digits
// that say something and its unit.
func TestTickText(t *testing.T) {
	ms := func(v float64) string { return numfmt.Ms(v) }
	pct := func(v float64) string { return numfmt.Sig3(v) + "%" }
	for _, c := range []struct {
		format func(float64) string
		v      float64
		want   string
	}{
		{numfmt.Sig3, 0, "0"}, {numfmt.Sig3, 2, "2"}, {numfmt.Sig3, 2.5, "2.5"}, {numfmt.Sig3, 1.25, "1.25"}, {numfmt.Sig3, 1000, "1000"},
		{ms, 10, "10ms"}, {ms, 2.5, "2.5ms"}, {pct, 50, "50%"}, {pct, 12.5, "12.5%"},
	} {
		if got := tickText(c.format, c.v); got != c.want {
			t.Errorf("tickText(%v) = %q (from %q), want %q", c.v, got, c.format(c.v), c.want)
		}
	}
}
