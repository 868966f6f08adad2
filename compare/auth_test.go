package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
)

// TestCompareAuth: two runs with tokens compare their token latency and
// fresh-token read latency, as metrics bounds can name; a run without
// tokens has no such figure.
func TestCompareAuth(t *testing.T) {
	base, nw := authed(t, 3, 7), authed(t, 6, 7)
	c, err := Pair(base, nw, PairOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]bool{}
	for _, l := range c.Latency {
		blocks[l.Block] = true
		if l.Block == "auth.reads_fresh_token" && (l.BaseCount != 3 || l.NewCount != 6 || l.Deltas[2].Metric != "auth.reads_fresh_token.p99") {
			t.Errorf("fresh-token block %+v", l)
		}
	}
	if !blocks["auth.token"] || !blocks["auth.reads_fresh_token"] {
		t.Errorf("blocks %v: want auth.token and auth.reads_fresh_token", blocks)
	}
	m, err := bounds.ParseMetric("auth.token.p99")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := nw.MetricValue(m); err != nil || v < 79 {
		t.Errorf("auth.token.p99 = %v, %v", v, err)
	}
	plain := fixture(t, false)
	if _, err := plain.MetricValue(m); !errors.Is(err, bounds.ErrNotMeasured) {
		t.Errorf("auth.token.p99 of a run without tokens: %v, want not measured", err)
	}
	c2, err := Pair(plain, nw, PairOptions{Force: true, NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range c2.Latency {
		if strings.HasPrefix(l.Block, "auth.") {
			t.Errorf("auth block %s compared against a run without tokens", l.Block)
		}
	}
}
