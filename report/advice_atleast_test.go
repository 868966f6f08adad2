package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestAdviceLowerBoundsSayAtLeast: a timeout's share that the deadline
// cut short is printed "≥" in the table, markdown and HTML rows, and an
// exact one is not.
func TestAdviceLowerBoundsSayAtLeast(t *testing.T) {
	exact, low := 0.02, 0.01
	a := results.Advice{Timeouts: []results.Candidate{{Ms: 500, Share: &exact}, {Ms: 2000, Share: &low, AtLeast: true}}}
	rows := adviceRows(a)
	if len(rows) != 2 || rows[0][2] != "2.0%" || rows[1][2] != "≥ 1.0%" {
		t.Errorf("rows %q, want the 2 s timeout's share as ≥ 1.0%% and the 500 ms one's plain", rows)
	}
	r := fixture(t, false)
	r.Advice.Timeouts = a.Timeouts
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "≥ 1.0% of reads ended") || strings.Contains(md.String(), "≥ 2.0%") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
