package compare

import (
	"testing"

	"github.com/readbench/readbench/results"
)

// TestNoDeltaFromNothing: compare states no relative change from a 0 base
// (null), and no share delta when a side had no reads.
func TestNoDeltaFromNothing(t *testing.T) {
	if d := newDelta("read.p99", "p99", "ms", 0, 3); d.Relative != nil || d.RelativeOK {
		t.Errorf("relative from 0: %v %v, want null", d.Relative, d.RelativeOK)
	}
	if d := newDelta("read.p99", "p99", "ms", 2, 3); d.Relative == nil || *d.Relative != 0.5 || !d.RelativeOK {
		t.Errorf("relative from 2 to 3: %v %v, want 0.5", d.Relative, d.RelativeOK)
	}
	if ds := outcomeDeltas("", map[string]int64{}, map[string]int64{"ok": 5}, 0, 5, true); len(ds) != 0 {
		t.Errorf("outcome deltas against a side of no reads: %+v", ds)
	}
	base := &results.Result{Classes: []results.Class{{Class: "png", Outcomes: map[string]int64{}}}}
	nw := &results.Result{Classes: []results.Class{{Class: "png", Reads: 4, Errors: 1, Outcomes: map[string]int64{"ok": 3, "timeout": 1}}}}
	c, err := Pair(base, nw, PairOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if cl := c.Classes[0]; cl.Errors.Metric != "" || len(cl.Outcomes) != 0 {
		t.Errorf("class deltas against no reads: errors %+v outcomes %+v", cl.Errors, cl.Outcomes)
	}
	if _, ok := c.Find("class.png.errors"); ok {
		t.Error("class.png.errors found in the comparison: a side had no reads")
	}
}
