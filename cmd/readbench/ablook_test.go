package main

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/compare"
)

// TestLookLine: an interim look says each bound's figures so far, never
// a verdict beside "undecided"; the deciding look says the verdicts.
func TestLookLine(t *testing.T) {
	cmp := &compare.Comparison{Alpha: 0.05, Bounds: []compare.BoundCheck{{Bound: "read.p50=+10%", Unit: "ms", Base: 20, New: 23, Limit: 22, Verdict: compare.VerdictFail}}}
	open := lookLine(4, cmp, false)
	if strings.Contains(open, "fail") || !strings.Contains(open, "read.p50=+10% so far 20.0ms → 23.0ms (limit 22.0ms)") || !strings.HasSuffix(open, "undecided: more rounds") {
		t.Errorf("interim look %q", open)
	}
	if done := lookLine(8, cmp, true); !strings.Contains(done, "read.p50=+10% fail; decided") {
		t.Errorf("deciding look %q", done)
	}
}
