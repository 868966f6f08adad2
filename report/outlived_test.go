package report

import (
	"strings"
	"testing"
	"time"
)

// TestOutlivedNote: a run whose ok reads' max (1.81 s) passes both the
// turn deadline (800 ms) and every turn (≥800 ms, cut) says why, so the
// two figures do not read as a contradiction; a run whose reads all
// ended within their turns says nothing of it.
func TestOutlivedNote(t *testing.T) {
	r := fixture(t, true)
	r.Workload.Turn.Deadline = 800 * time.Millisecond
	r.Turn.MaxMs, r.ReadOK.MaxMs = 800, 1810
	want := "A turn ends at its 800ms deadline; a read still running then keeps its own latency, so the ok reads' max (1.81s) is above every turn's."
	if !strings.Contains(strings.Join(latencyNotes(r), "\n"), want) {
		t.Errorf("notes %q lack %q", latencyNotes(r), want)
	}
	r.ReadOK.MaxMs = 700
	for _, n := range latencyNotes(r) {
		if strings.HasPrefix(n, "A turn ends at its") {
			t.Errorf("reads within their turns, yet: %q", n)
		}
	}
}
