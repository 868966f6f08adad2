package ab

import (
	"context"
	"slices"
	"testing"

	"github.com/readbench/readbench/compare"
)

// TestCompareKeepsRounds: the comparison of an experiment holds its
// rounds: each kept round's base and new run (labels of the sides' runs,
// so its change is RoundDelta's), the order they ran in, and an excluded
// round with no runs and its reasons.
func TestCompareKeepsRounds(t *testing.T) {
	f := &fake{t: t, noisy: func(side Side, round, _ int) bool { return round == 2 && side == New }}
	o, err := Run(context.Background(), plan(t, 3), f.run)
	if err != nil {
		t.Fatal(err)
	}
	c, err := o.Compare(compare.Gate{}, compare.RunAlpha)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rounds) != 3 {
		t.Fatalf("%d rounds, want 3: %+v", len(c.Rounds), c.Rounds)
	}
	for i, want := range []struct {
		kept      bool
		order     []string
		base, new string
	}{{true, []string{"base", "new"}, o.Base[0].Label, o.New[0].Label}, {false, []string{"new", "base"}, "", ""},
		{true, []string{"base", "new"}, o.Base[1].Label, o.New[1].Label}} {
		r := c.Rounds[i]
		if r.Index != i+1 || r.Kept != want.kept || !slices.Equal(r.Order, want.order) || r.Base != want.base || r.New != want.new {
			t.Errorf("round %d: %+v, want %+v", i+1, r, want)
		}
	}
	if c.Rounds[1].Attempts != 1+DefaultRetries || len(c.Rounds[1].Noisy) != 1+DefaultRetries {
		t.Errorf("excluded round: %+v", c.Rounds[1])
	}
	if d, ok := c.RoundDelta(c.Rounds[0], "read.p50"); !ok || d.Base != o.Base[0].Result.Read.P50Ms {
		t.Errorf("round 1's read.p50: %+v %v", d, ok)
	}
	if _, ok := c.RoundDelta(c.Rounds[1], "read.p50"); ok {
		t.Error("an excluded round has a change")
	}
}
