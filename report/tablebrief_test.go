package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestBriefReport: the brief report says the lower bounds in one
// sentence, lists six classes at most and counts the others, and leaves
// the detail to the full report, which has every class.
func TestBriefReport(t *testing.T) {
	r := fixture(t, true)
	r.Read.LowerBounds, r.Turn.LowerBounds = 160, 60
	for len(r.Classes) < 9 {
		c := r.Classes[0]
		c.Class = fmt.Sprintf("extra-%d", len(r.Classes))
		r.Classes = append(r.Classes, c)
	}
	var brief, full bytes.Buffer
	if err := WriteTable(&brief, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteFullTable(&full, r); err != nil {
		t.Fatal(err)
	}
	b := brief.String()
	for _, want := range []string{"Lower bounds: 160 reads and 60 turns were cut or dropped", "3 more classes in --full", " extra-5 "} {
		if !strings.Contains(b, want) {
			t.Errorf("the brief report lacks %q:\n%s", want, b)
		}
	}
	for _, detail := range []string{" extra-6 ", "reads and bytes", "advice (", "\nlate ", "\nconns "} {
		if strings.Contains(b, detail) {
			t.Errorf("the brief report has %q", detail)
		}
		if !strings.Contains(full.String(), detail) {
			t.Errorf("the full report lacks %q", detail)
		}
	}
}
