package report

import (
	"testing"

	"github.com/readbench/readbench/capacity"
)

// TestPassedTileSaysTheRateStepped: the tile of the highest rate passed
// says it as the search stepped it (11.875 turns/s), as the interval and
// the answer do, not rounded to 11.9 beside "≥ 11.875".
func TestPassedTileSaysTheRateStepped(t *testing.T) {
	r := &capacity.RateFinding{Steps: []capacity.Step{
		{Phase: "step", Rate: 10, Pass: true}, {Phase: "refine", Rate: 11.875, Pass: true},
		{Phase: "refine", Rate: 12.5, Reason: "read.p99 broke"},
	}}
	tiles := evidenceTiles(r, evidenceOf(r))
	if tiles[0].Value != "11.875 turns/s" || tiles[1].Value != "12.5/s" {
		t.Errorf("tiles %q and %q, want 11.875 turns/s and 12.5/s", tiles[0].Value, tiles[1].Value)
	}
	if got := shortRate(1000.0 / 3); got != "333" {
		t.Errorf("shortRate(333.33…) = %q, want three digits", got)
	}
}

// TestCapacityAxisStartsNearTheSteps: steps from 300 to 600/s are drawn
// on an axis that starts a tick below the lowest, not at 0 (which left
// half the chart empty); a search from near 0 keeps its 0.
func TestCapacityAxisStartsNearTheSteps(t *testing.T) {
	rate := func(s capacity.Step) float64 { return s.Rate }
	high := []capacity.Step{{Rate: 300}, {Rate: 450}, {Rate: 600}}
	xt, x := capacityXAxis(high, rate, false, nil)
	if xt[0].at == 0 || xt[0].at > 300 || x(xt[0].at) != padL {
		t.Errorf("axis from %v (at x %.1f), want a tick below 300 at the left edge", xt[0].at, x(xt[0].at))
	}
	low := []capacity.Step{{Rate: 10}, {Rate: 20}, {Rate: 40}}
	if xt, _ := capacityXAxis(low, rate, false, nil); xt[0].at != 0 {
		t.Errorf("a search from 10/s starts its axis at %v, want 0", xt[0].at)
	}
}
