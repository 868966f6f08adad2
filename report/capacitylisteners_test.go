package report

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/capacity"
)

// TestWriteListenerSearch: the table states the count found, what
// refused first, and the reads' p99 at no listener and at each count
// with its ratio to none (the interference); a count not known says so.
func TestWriteListenerSearch(t *testing.T) {
	found, unknown := listenerFindings()
	for _, c := range []struct {
		name string
		r    *capacity.ListenerFinding
		want []string
	}{
		{"found", found, []string{"✓ most listeners within the SLO: 20", "refused first at 21 listeners: limit_reached", " 20/20 |", "|    1.50 |          - |     3.00 |   1.50 |", "[1] FAIL: 1 of 21 listen streams refused"}},
		{"not known", unknown, []string{"✗ most listeners within the SLO: not known (limited by machine)", "Could not tell."}},
	} {
		var b strings.Builder
		if err := WriteListenerSearch(&b, c.r); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b.String())
			}
		}
	}
}

// listenerFindings are a search that found 20 listeners, refused first
// at 21 by the limit, and one that could not tell.
func listenerFindings() (found, unknown *capacity.ListenerFinding) {
	twenty := 20
	found = &capacity.ListenerFinding{Target: "http://127.0.0.1:1/mcp", Server: "sim 1", SLO: "ack.p99<1s", Rate: 10, MaxListeners: &twenty,
		LimitedBy: capacity.LimitListeners, RefusedFirst: capacity.RefusedLimit, RefusedWhy: "1 of 21 listen streams refused: Subscription limit reached",
		FirstBadListeners: 21, ReadP99AtZeroMs: 2, Conclusion: "At most 20 listeners.",
		Steps: []capacity.Step{
			{Phase: "baseline", Read: capacity.Percentiles{P99Ms: 2}, Pass: true},
			{Phase: "step", Listeners: 20, Read: capacity.Percentiles{P99Ms: 3}, Pass: true,
				Listen: &capacity.ListenStep{StreamsAsked: 20, StreamsOpened: 20, AckP99Ms: 1.5, Acks: 20}},
			{Phase: "refine", Listeners: 21, Read: capacity.Percentiles{P99Ms: 2}, Reason: "1 of 21 listen streams refused: Subscription limit reached",
				Listen: &capacity.ListenStep{StreamsAsked: 21, StreamsOpened: 20, LimitReached: 1}},
		}}
	unknown = &capacity.ListenerFinding{LimitedBy: capacity.LimitMachine, Conclusion: "Could not tell.", Steps: []capacity.Step{}}
	return found, unknown
}

// TestListenerSearchHTML: the listener search's page states the count
// found and what refused first, draws the reads', acknowledgements' and
// notifications' p99 against the listeners, marks the count held and the
// first that failed, and the SLO's ack bound; one not known says so.
func TestListenerSearchHTML(t *testing.T) {
	found, unknown := listenerFindings()
	var b strings.Builder
	if err := ListenerSearchHTML(&b, found); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"most listeners within the SLO: 20", "refused first at 21 listeners: limit_reached",
		`data-chart="capacity"`, "ack p99", "notify p99", "read p99", `class="marker knee" data-at="20"`,
		`class="marker first-fail" data-at="21"`, `data-line="ack p99" data-ms="1000"`, "1 of 21 listen streams refused"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	b.Reset()
	if err := ListenerSearchHTML(&b, unknown); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "most listeners within the SLO: not known (limited by machine)") {
		t.Errorf("a count not known is not said:\n%.400s", b.String())
	}
}
