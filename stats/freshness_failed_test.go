package stats

import (
	"testing"
	"time"
)

// TestFreshnessFailedChanges: a change whose request failed is expected of
// no subscription that was not told of it, and stays expected (notified
// or coalesced) of one that was: the identity holds either way, and the
// matching of the other changes is untouched.
func TestFreshnessFailedChanges(t *testing.T) {
	t0 := time.Date(2026, 12, 9, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for _, c := range []struct {
		name   string
		failed []int // indexes of the changes of "a" (at 10, 20, 30 ms) that failed
		notes  []int // arrival times (ms) of notifications of "a"
		want   FreshnessCounts
	}{
		{name: "failed, told with the next: coalesced", failed: []int{1}, notes: []int{15, 35},
			want: FreshnessCounts{Changes: 3, Failed: 1, Subscriptions: 1, Notifications: 2, Expected: 3, Notified: 2, Coalesced: 1}},
		{name: "failed, untold, at the end", failed: []int{2}, notes: []int{15, 25},
			want: FreshnessCounts{Changes: 3, Failed: 1, Subscriptions: 1, Notifications: 2, Expected: 2, Notified: 2}},
		{name: "failed and told anyway: expected and notified", failed: []int{0}, notes: []int{15},
			want: FreshnessCounts{Changes: 3, Failed: 1, Subscriptions: 1, Notifications: 1, Expected: 3, Notified: 1, Missed: 2}},
		{name: "all failed, none told", failed: []int{0, 1, 2},
			want: FreshnessCounts{Changes: 3, Failed: 3, Subscriptions: 1}},
		{name: "none failed, none told", want: FreshnessCounts{Changes: 3, Subscriptions: 1, Expected: 3, Missed: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFreshness(true)
			s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
			times := []time.Time{at(10), at(20), at(30)}
			for _, ts := range times {
				f.Changed("a", ts)
			}
			for _, i := range c.failed {
				if !f.Failed("a", times[i]) {
					t.Fatalf("Failed(a, change %d) found no change", i)
				}
			}
			for _, ms := range c.notes {
				s.Notified("a", at(ms))
			}
			got := f.Summary().Counts
			if got != c.want {
				t.Errorf("counts %+v\nwant   %+v", got, c.want)
			}
			if !got.IdentityOK() {
				t.Errorf("identity broken: %+v", got)
			}
		})
	}
	f := NewFreshness(true)
	if f.Failed("a", at(1)) {
		t.Error("Failed of a change never recorded")
	}
	f.Changed("a", at(1))
	if f.Failed("a", at(2)) || !f.Failed("a", at(1)) || f.Failed("a", at(1)) {
		t.Error("Failed must mark exactly the change recorded at that time, once")
	}
}
