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
