package workload

import "testing"

// TestWithListeners: a listener search's step sets the listeners and
// leaves the user's workload as it was; its baseline (0) has neither
// listeners nor changes, so the reads are measured alone.
func TestWithListeners(t *testing.T) {
	base := &Workload{Listen: &Listen{Listeners: 3, Streams: 2}, Changes: &Changes{}}
	for _, c := range []struct {
		n           int
		want        int // listeners; -1: no listen section
		changesKept bool
	}{{0, -1, false}, {1, 1, true}, {250, 250, true}} {
		w := base.WithListeners(c.n)
		got := -1
		if w.Listen != nil {
			got = w.Listen.Listeners
		}
		if got != c.want || (w.Changes != nil) != c.changesKept || (w.Listen != nil && w.Listen.Streams != 2) {
			t.Errorf("WithListeners(%d): listen %+v, changes %v", c.n, w.Listen, w.Changes)
		}
	}
	if base.Listen.Listeners != 3 || base.Changes == nil {
		t.Errorf("the base workload changed: %+v", base.Listen)
	}
}
