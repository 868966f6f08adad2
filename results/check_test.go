package results

import "testing"

// checkStatuses are the statuses of report's check fixture, in its order:
// 5 passed, 4 failed, 2 skipped.
var checkStatuses = []CheckStatus{CheckPass, CheckPass, CheckPass, CheckPass, CheckFail, CheckFail, CheckFail, CheckFail,
	CheckPass, CheckSkip, CheckSkip}

func TestCheckDocumentFinish(t *testing.T) {
	r := &CheckDocument{Tool: Tool{Name: "readbench", Version: "0.1.0"}}
	for i, s := range checkStatuses {
		r.Checks = append(r.Checks, Check{Name: "check " + string(rune('a'+i)), Status: s})
	}
	r.Finish()
	if r.Schema != CheckSchema || r.Pass || r.Summary != (CheckSummary{Pass: 5, Fail: 4, Skip: 2}) {
		t.Errorf("schema %q, pass %v, summary %+v", r.Schema, r.Pass, r.Summary)
	}
	r.Checks = r.Checks[:4]
	r.Finish()
	if !r.Pass {
		t.Error("a report without a failed check does not pass")
	}
}

// TestCheckDocumentNotApplicable: n/a rows are counted apart and never
// fail the document.
func TestCheckDocumentNotApplicable(t *testing.T) {
	r := &CheckDocument{Checks: []Check{{Name: "handshake", Status: CheckPass}, {Name: "capabilities", Status: CheckNA},
		{Name: "resources/list", Status: CheckNA}, {Name: "read tool", Status: CheckSkip}}}
	r.Finish()
	if !r.Pass || r.Summary != (CheckSummary{Pass: 1, Skip: 1, NA: 2}) {
		t.Errorf("pass %v, summary %+v", r.Pass, r.Summary)
	}
}
