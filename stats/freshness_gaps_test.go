package stats

import (
	"testing"
	"time"
)

// TestFreshnessGaps: a change made while a listener's stream was down and
// never told is lost in the gap, neither expected nor missed, so the
// identity holds; one a later notification told of (a legacy replay, one
// notification for several changes) is notified or coalesced as any.
func TestFreshnessGaps(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for _, c := range []struct {
		name    string
		changes []int // ms of changes of "a"
		run     func(f *Freshness)
		want    FreshnessCounts
	}{
		{name: "dropped, listened again: the change between is lost", changes: []int{10, 30, 50},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Notified("a", at(11))
				s.Dropped(at(20))
				n := f.Resubscribe(s, []string{"a"}, at(40), time.Millisecond)
				n.Notified("a", at(51))
				n.End(at(90))
				s.End(at(90))
			},
			want: FreshnessCounts{Changes: 3, Subscriptions: 2, Notifications: 2, Expected: 2, Notified: 2, LostInGaps: 1}},
		{name: "dropped, never listened again: lost to the run's end", changes: []int{10, 30, 50},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Notified("a", at(11))
				s.Dropped(at(20))
				s.End(at(90))
			},
			want: FreshnessCounts{Changes: 3, Subscriptions: 1, Notifications: 1, Expected: 1, Notified: 1, LostInGaps: 2}},
		{name: "closed by readbench: nothing lost", changes: []int{10, 30},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Notified("a", at(11))
				s.End(at(20))
			},
			want: FreshnessCounts{Changes: 2, Subscriptions: 1, Notifications: 1, Expected: 1, Notified: 1}},
		{name: "legacy gap, untold: lost, not missed", changes: []int{10, 30, 70},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Notified("a", at(11))
				s.Gap(at(20), at(40))
				s.End(at(90)) // 70 untold and after the gap: missed
			},
			want: FreshnessCounts{Changes: 3, Subscriptions: 1, Notifications: 1, Expected: 2, Notified: 1, Missed: 1, LostInGaps: 1}},
		{name: "legacy gap replayed: notified, nothing lost", changes: []int{10, 30},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Notified("a", at(11))
				s.Gap(at(20), at(40))
				s.Notified("a", at(41)) // the replay
				s.Notified("a", at(42)) // replayed twice: a duplicate
				s.End(at(90))
			},
			want: FreshnessCounts{Changes: 2, Subscriptions: 1, Notifications: 3, Expected: 2, Notified: 2, Duplicates: 1}},
		{name: "a burst after a gap: one notification per change, none a duplicate", changes: []int{10, 30, 35},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Gap(at(5), at(40))
				s.Notified("a", at(41)) // tells of all three
				s.Notified("a", at(41))
				s.Notified("a", at(42))
				s.Notified("a", at(43)) // one more than the changes
				s.End(at(90))
			},
			want: FreshnessCounts{Changes: 3, Subscriptions: 1, Notifications: 4, Expected: 3, Notified: 3, Duplicates: 1}},
		{name: "legacy gap still open at the end", changes: []int{10, 30},
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s.Gap(at(20), time.Time{})
				s.End(at(90))
			},
			want: FreshnessCounts{Changes: 2, Subscriptions: 1, Expected: 1, Missed: 1, LostInGaps: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFreshness(true)
			for _, ms := range c.changes {
				f.Changed("a", at(ms))
			}
			c.run(f)
			got := f.Summary().Counts
			if got != c.want {
				t.Errorf("counts %+v\nwant   %+v", got, c.want)
			}
			if !got.IdentityOK() {
				t.Errorf("identity broken: %+v", got)
			}
		})
	}
}

// TestNotifyBreakdowns: each notified change's latency is kept by its
// URI's class and by the subscriptions open for it at the change, each
// breakdown adding up to the whole, and merging two shards adds them.
func TestNotifyBreakdowns(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)
	f := NewFreshness(true)
	f.SetClassOf(func(u string) string { return map[string]string{"a": "md"}[u] })
	one := f.Subscribe([]string{"a", "b"}, t0, time.Millisecond)
	f.Changed("a", t0.Add(time.Millisecond)) // one listener
	var many []*Subscription
	for range 11 {
		many = append(many, f.Subscribe([]string{"b"}, t0.Add(2*time.Millisecond), time.Millisecond))
	}
	f.Changed("b", t0.Add(3*time.Millisecond)) // twelve listeners
	one.Notified("a", t0.Add(5*time.Millisecond))
	one.Notified("b", t0.Add(5*time.Millisecond))
	for _, s := range many {
		s.Notified("b", t0.Add(6*time.Millisecond))
	}
	sum := f.Summary()
	if n := sum.Notify.Count(); n != 13 {
		t.Fatalf("notify %d values, want 13", n)
	}
	for _, c := range []struct {
		name string
		h    *Histogram
		want int64
	}{
		{"class md", sum.NotifyByClass["md"], 1}, {"no class", sum.NotifyByClass[""], 12},
		{"1 listener", sum.NotifyByListeners[ListenerBucket(1)], 1}, {"11-100 listeners", sum.NotifyByListeners[ListenerBucket(12)], 12},
		{"2-10 listeners", sum.NotifyByListeners[ListenerBucket(5)], 0},
	} {
		if c.h == nil || c.h.Count() != c.want {
			t.Errorf("%s: %v values, want %d", c.name, c.h, c.want)
		}
	}
	a, b := NewListening(), NewListening()
	a.Freshness, b.Freshness = sum, f.Summary()
	a.Merge(b)
	if got := a.Freshness.NotifyByClass[""].Count(); got != 24 {
		t.Errorf("merged no-class count %d, want 24", got)
	}
	if got := a.Freshness.NotifyByListeners[2].Count(); got != 24 {
		t.Errorf("merged 11-100 count %d, want 24", got)
	}
}

// TestListenerBucket: the decades' edges.
func TestListenerBucket(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 0}, {1, 0}, {2, 1}, {10, 1}, {11, 2}, {100, 2}, {101, 3}, {1000, 3}, {1001, 4}, {1 << 20, 4}} {
		if got := ListenerBucket(c.n); got != c.want {
			t.Errorf("ListenerBucket(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
