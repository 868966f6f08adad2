package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// TestCheckBounds: bounds against one pair of runs pass, are not
// answered when the figures go beyond them, break on the raw figures with
// --single-run, fail for a metric not measured, and refuse an unknown
// class.
func TestCheckBounds(t *testing.T) {
	base, nw := loadFixture(t), loadFixture(t) // 10.5 turns/s over 40 s
	bs, err := bounds.ParseBounds("read.p99=+10%,rate=-5%,errors=+0.5pp,server_cost.rss_peak=+10%,class.markdown.outcome.internal=+0pp")
	if err != nil {
		t.Fatal(err)
	}
	check := func(nw *results.Result) []BoundCheck {
		t.Helper()
		c, err := Pair(base, nw, PairOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := CheckBounds(c, bs, base, nw)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := check(nw)
	for i, want := range []bool{true, true, true, false, true} { // no internal errors on either side: held
		if got[i].Pass != want {
			t.Errorf("same result, %s: %+v", got[i].Bound, got[i])
		}
	}
	if !strings.Contains(got[3].Reason, "not measured") {
		t.Errorf("server cost not measured: %+v", got[3])
	}
	// One pair of runs cannot tell a change from the machine: a figure
	// beyond the bound is not answered (passing here only because this
	// gate lets an open question pass); --single-run holds the raw bound.
	nw.Totals.AchievedRate = figure(5) // halved
	if g := check(nw)[1]; !g.Pass || g.Verdict != VerdictInconclusive || !strings.Contains(g.Reason, "not answered, too few to tell: one run per side") {
		t.Errorf("rate halved, one pair: %+v", g)
	}
	c, _ := Pair(base, nw, PairOptions{})
	c.Gate.SingleRun = true
	if g, _ := CheckBounds(c, bs, base, nw); g[1].Pass || g[1].Verdict != VerdictFail || g[1].Limit != 10.5*0.95 {
		t.Errorf("rate halved, --single-run: %+v", g[1])
	}
	unknown, _ := bounds.ParseBounds("class.markdwon.read.p99=+10%")
	if _, err := CheckBounds(c, unknown, base, nw); !errors.Is(err, bounds.ErrUnknown) || !strings.Contains(err.Error(), `did you mean "markdown"`) {
		t.Errorf("unknown class: %v", err)
	}
}

func TestContentCheck(t *testing.T) {
	c := &Comparison{}
	if g := ContentCheck(c); g.Pass || !strings.Contains(g.Reason, "nothing to compare") {
		t.Errorf("no digests: %+v", g)
	}
	c.Content.Compared = 3
	if g := ContentCheck(c); !g.Pass {
		t.Errorf("nothing changed: %+v", g)
	}
	c.Content.Changed = []ContentChange{{URI: "docs://a", What: []string{"bytes"}}}
	if g := ContentCheck(c); g.Pass || !strings.Contains(g.Reason, "1 of 3 URIs") {
		t.Errorf("one changed: %+v", g)
	}
}
