package compare

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBoundVerdict: a bound exceeded by a change with no verdict is not
// answered (inconclusive), never a pass, and fails unless the gate lets
// it pass; one held passes; a significant change beyond it fails.
func TestBoundVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	base3, slow3 := side(t, rng, 3, 1, 0.05), side(t, rng, 3, 2, 0.05)
	base5, slow5 := side(t, rng, 5, 1, 0.05), side(t, rng, 5, 2, 0.05)
	same5 := side(t, rng, 5, 1, 0.05)
	for _, tc := range []struct {
		name     string
		base, nw []Labelled
		gate     Gate
		bound    string
		pass     bool
		verdict  string
	}{
		{"exceeded, too few runs", base3, slow3, Gate{}, "read.p50=+10%", true, VerdictInconclusive},
		{"exceeded, too few runs, --fail-on-inconclusive", base3, slow3, Gate{FailOnInconclusive: true}, "read.p50=+10%", false, VerdictInconclusive},
		{"within, too few runs: still open", base3, slow3, Gate{FailOnInconclusive: true}, "read.p50=+500%", false, VerdictInconclusive},
		{"exceeded, significant", base5, slow5, Gate{}, "read.p50=+10%", false, VerdictFail},
		{"held, same server", base5, same5, Gate{}, "read.p50=+50%", true, VerdictPass},
	} {
		c := mustCompareRuns(t, tc.base, tc.nw, RunsOptions{NoiseFloor: -1, Gate: tc.gate})
		g := gateOf(t, c, tc.bound, tc.base, tc.nw)[0]
		if g.Pass != tc.pass || g.Verdict != tc.verdict {
			t.Errorf("%s: pass %v verdict %q, want %v %q (%+v)", tc.name, g.Pass, g.Verdict, tc.pass, tc.verdict, g)
		}
	}
	if g := ContentCheck(&Comparison{Content: Content{Compared: 2}}); g.Verdict != VerdictPass {
		t.Errorf("content unchanged: %+v", g)
	}
}

// TestRunsKeepEveryRun: every delta carries each run's value of its
// side, oldest first, and Base and New are their medians: what the
// page's charts draw is what its tables say.
func TestRunsKeepEveryRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, k := range [][2]int{{3, 3}, {1, 1}, {4, 5}} {
		base, nw := side(t, rng, k[0], 1, 0.05), side(t, rng, k[1], 1.3, 0.05)
		c := mustCompareRuns(t, base, nw, RunsOptions{NoiseFloor: -1})
		for _, metric := range []string{"read.p50", "read.p99", "turn.p99", "service.p99", "errors", "rate"} {
			d, ok := c.Find(metric)
			if !ok {
				t.Fatalf("%v: no %s", k, metric)
			}
			a, _ := values(base, metric)
			b, _ := values(nw, metric)
			if !slices.Equal(d.BaseRuns, a) || !slices.Equal(d.NewRuns, b) || d.Base != median(a) || d.New != median(b) {
				t.Errorf("%v %s: runs %v %v, want %v %v; medians %v %v", k, metric, d.BaseRuns, d.NewRuns, a, b, d.Base, d.New)
			}
		}
	}
}
