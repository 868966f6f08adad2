package stats

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLatencyStatsAreTheBlock: every stat has its own field in the block,
// saved under its name and "_ms", the JSON keys in the list's order, and
// Export fills each with the stat read off the histogram.
func TestLatencyStatsAreTheBlock(t *testing.T) {
	h := NewHistogram()
	for i := 1; i <= 2000; i++ {
		h.Record(time.Duration(i) * time.Millisecond)
	}
	l, err := h.Export()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]float64
	_ = json.Unmarshal(b, &keys) // hdr is no number: only it fails to read
	seen := map[float64]bool{}
	for _, s := range LatencyStats() {
		want := Millis(s.Of(h))
		if got := s.Ms(l); got != want || keys[s.Name+"_ms"] != want {
			t.Errorf("%s: field %v, key %s_ms %v, want %v", s.Name, got, s.Name, keys[s.Name+"_ms"], want)
		}
		if seen[want] {
			t.Errorf("%s: a figure another stat has: two stats share a field?", s.Name)
		}
		seen[want] = true
		if got, ok := LatencyStat(s.Name); !ok || got.Label != s.Label {
			t.Errorf("LatencyStat(%q) = %v, %v", s.Name, got, ok)
		}
	}
	if _, ok := LatencyStat("p42"); ok {
		t.Error("LatencyStat found a stat the list lacks")
	}
	if l.Count != 2000 || l.HDR == "" {
		t.Errorf("count %d, hdr %q", l.Count, l.HDR)
	}
}

// TestLatencyStatPercentile: a percentile stat's quantile, as a
// percentile, is the short decimal its label shows (100 × 0.999 is 99.9,
// where 99.9 / 100 is not 0.999: the fraction is kept, not the
// percentile), and its name is its label without the point.
func TestLatencyStatPercentile(t *testing.T) {
	for _, s := range LatencyStats() {
		if s.Quantile == 0 {
			continue
		}
		p := strconv.FormatFloat(s.Percentile(), 'f', -1, 64)
		if s.Label != "p"+p || s.Name != strings.ReplaceAll(s.Label, ".", "") {
			t.Errorf("%s: label %q, percentile %s", s.Name, s.Label, p)
		}
	}
}
