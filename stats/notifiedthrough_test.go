package stats

import (
	"testing"
	"time"
)

// TestNotifiedThrough: two subscriptions told of one change name the same
// version of the document (the re-reads a shared cache keys on); one
// notification for two changes names the later; one telling of nothing
// names none.
func TestNotifiedThrough(t *testing.T) {
	at := time.Unix(1000, 0)
	f := NewFreshness(true)
	a := f.Subscribe([]string{"u"}, at, time.Millisecond)
	b := f.Subscribe([]string{"u"}, at, time.Millisecond)
	f.Changed("u", at.Add(time.Millisecond))
	for _, c := range []struct {
		name                string
		s                   *Subscription
		arrive              time.Duration
		change              bool // a change is made before this notification
		wantTold, wantThrou int
	}{
		{"a told of the first change", a, 2 * time.Millisecond, false, 1, 1},
		{"b told of the same change", b, 3 * time.Millisecond, false, 1, 1},
		{"a told again: a duplicate", a, 4 * time.Millisecond, false, 0, 0},
		{"a told of the second change", a, 6 * time.Millisecond, true, 1, 2},
	} {
		if c.change {
			f.Changed("u", at.Add(c.arrive-time.Millisecond))
		}
		told, through := c.s.NotifiedThrough("u", at.Add(c.arrive))
		if told != c.wantTold || through != c.wantThrou {
			t.Errorf("%s: told %d through %d, want %d and %d", c.name, told, through, c.wantTold, c.wantThrou)
		}
	}
	f.Changed("u", at.Add(7*time.Millisecond))
	if told, through := b.NotifiedThrough("u", at.Add(8*time.Millisecond)); told != 2 || through != 3 {
		t.Errorf("b told of two changes at once: told %d through %d, want 2 and 3", told, through)
	}
}
