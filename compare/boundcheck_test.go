package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// TestCheckBounds: bounds against a comparison pass, break, pass "within the
// noise", fail for a metric not measured, and refuse an unknown class.
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
	nw.Totals.AchievedRate = figure(9.8) // -6.7%: beyond the bound, but 420 turns cannot tell it from chance
	if g := check(nw)[1]; !g.Pass || g.Noise != WithinNoise || !strings.Contains(g.Reason, "within the noise") {
		t.Errorf("rate -6.7%%: %+v", g)
	}
	nw.Totals.AchievedRate = figure(5) // halved: significant
	if g := check(nw)[1]; g.Pass || g.Noise != Significant || g.Limit != 10.5*0.95 {
		t.Errorf("rate halved: %+v", g)
	}
	unknown, _ := bounds.ParseBounds("class.markdwon.read.p99=+10%")
	c, _ := Pair(base, nw, PairOptions{})
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
