package compare

import (
	"fmt"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestAdviceAcross: across runs the advice covers the slowest run's tail
// and says how far the tail swung; one run has no such note.
func TestAdviceAcross(t *testing.T) {
	var runs []Labelled
	for i, p99 := range []float64{40, 95, 60} {
		r := &results.Result{}
		r.Turn.P99Ms = p99
		r.Advice.RecommendedDeadlineMs = &[]float64{100, 200, 200}[i]
		r.Advice.RecommendedTimeoutMs = &[]float64{5000, 10000, 5000}[i]
		runs = append(runs, Labelled{Label: fmt.Sprint(i), Result: r})
	}
	want := "advice across the 3 new runs: turn p99 swung from 40.0ms to 95.0ms (2.38x) between runs; deadline 200ms and timeout 10.0s cover the slowest of them with the usual headroom (one run alone recommended a deadline of 100ms to 200ms)"
	if got := AdviceAcross(runs, "new"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := AdviceAcross(runs[:1], "new"); got != "" {
		t.Errorf("one run: %q", got)
	}
}
