package results

import (
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestLatencyStatMs: every stat name reads its own figure, and a name
// that is not a percentile or the maximum reads the mean.
func TestLatencyStatMs(t *testing.T) {
	l := stats.Latency{P50Ms: 1, P90Ms: 2, P99Ms: 3, P999Ms: 4, MaxMs: 5, MeanMs: 6}
	for _, tc := range []struct {
		stat string
		want float64
	}{{"p50", 1}, {"p90", 2}, {"p99", 3}, {"p999", 4}, {"max", 5}, {"mean", 6}, {"", 6}} {
		if got := l.StatMs(tc.stat); got != tc.want {
			t.Errorf("StatMs(%q) = %v, want %v", tc.stat, got, tc.want)
		}
	}
}
