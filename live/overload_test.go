package live

import (
	"strings"
	"testing"
	"time"
)

// TestOverloadedAndLowerBounds: the rate line says the run is overloaded
// once two whole seconds in a row started under 90% of the turns asked
// (one short second is not enough, and a second back at the rate clears
// it); a percentile that cut reads hold is drawn "≥", as the reports do.
func TestOverloadedAndLowerBounds(t *testing.T) {
	const word = "overloaded: short of the rate asked"
	for _, c := range []struct {
		name  string
		turns []int64 // turns started by each second's end, 10 asked a second
		want  bool
	}{
		{"kept the rate", []int64{10, 20, 30, 40}, false},
		{"one short second", []int64{10, 20, 25, 35}, false},
		{"two short seconds", []int64{10, 20, 25, 30}, true},
		{"short, then back at the rate", []int64{10, 15, 20, 30}, false},
	} {
		m := feed(plain(160), readyMsg{at: t0})
		for i, n := range c.turns {
			m = feed(m, second(i+1, n, 4*n, 40*time.Millisecond))
		}
		if got := strings.Contains(lineOf(t, m.View(), "rate"), word); got != c.want {
			t.Errorf("%s: overloaded %v, want %v: %q", c.name, got, c.want, lineOf(t, m.View(), "rate"))
		}
	}
	tick := second(1, 10, 100, 40*time.Millisecond)
	tick.tick.Phase.Read.Count, tick.tick.Phase.Read.LowerBounds = 100, 5 // 5% cut: p99 a lower bound, p90 and p50 not
	m := feed(plain(160), readyMsg{at: t0}, tick)
	if got := lineOf(t, m.View(), "read"); !strings.HasSuffix(got, "p50 12.0ms · p90 30.0ms · p99 ≥40.0ms") {
		t.Errorf("read line %q: want only p99 marked ≥", got)
	}
}
