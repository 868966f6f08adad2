package report

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestCancellationAllowanceSpread: each late answer is judged with its
// own cancel's allowance, so the ignored line gives their spread when
// they differ, and the one figure when they do not.
func TestCancellationAllowanceSpread(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name   string
		spread stats.Latency
		want   string
	}{
		{"spread", stats.Latency{Count: 40, P50Ms: 25, P99Ms: 120, MaxMs: 400}, "the round-trip allowance of its own cancel (over the late answers p50 25.0ms, p99 120ms, max 400ms)"},
		{"one figure", stats.Latency{Count: 40, P50Ms: 25, P99Ms: 25, MaxMs: 25}, "the round-trip allowance 25.0ms"},
		{"written before the spread", stats.Latency{}, "the round-trip allowance 400ms"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			max := 25.0
			if tc.spread.Count == 0 {
				max = 400
			}
			c := results.Cancellation{Cancelled: 50, Observable: true, LateAnswers: n(40), WastedBytes: n(4000),
				Ignored: n(30), IgnoredBytes: n(3000), AllowanceMs: f(max), AllowancesMs: tc.spread}
			_, _, ignored := cancellationText(c)
			if !strings.Contains(ignored, tc.want) {
				t.Errorf("%q does not say %q", ignored, tc.want)
			}
		})
	}
}
