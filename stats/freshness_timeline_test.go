package stats

import (
	"slices"
	"testing"
	"time"
)

// TestFreshnessTimeline: each second counts the changes made, the
// notifications received and the re-reads sent in it, and the missed and
// lost changes in the second they were made; the seconds add up to the
// run's counts whatever the mix of told, failed, dropped and gapped.
func TestFreshnessTimeline(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	change := func(f *Freshness, ms ...int) {
		for _, m := range ms {
			f.Changed("a", at(m))
		}
	}
	for _, c := range []struct {
		name string
		run  func(f *Freshness)
		want []ListenSecond
	}{
		{name: "told, missed, failed and re-read, each in its second",
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				change(f, 500, 1500, 2500)
				f.Failed("a", at(2500)) // untold and failed: never expected
				s.Notified("a", at(600))
				f.Reread(at(700))
				s.End(at(5000))
			},
			want: []ListenSecond{{Second: 0, Changes: 1, Notifications: 1, Rereads: 1}, {Second: 1, Changes: 1, Missed: 1}, {Second: 2, Changes: 1}}},
		{name: "two listeners miss one change: it counts twice",
			run: func(f *Freshness) {
				s1 := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				s2 := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				change(f, 1200)
				s1.End(at(3000))
				s2.End(at(3000))
			},
			want: []ListenSecond{{Second: 0}, {Second: 1, Changes: 1, Missed: 2}}},
		{name: "lost after a drop and in a legacy gap, missed after the gap",
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				g := f.Subscribe([]string{"a"}, at(0), time.Millisecond)
				change(f, 100, 1100, 2100, 3100)
				s.Notified("a", at(150))
				g.Notified("a", at(160))
				s.Dropped(at(1000)) // 1100 lost, then 2100 told to the new one, 3100 missed
				n := f.Resubscribe(s, []string{"a"}, at(2000), time.Millisecond)
				n.Notified("a", at(2200))
				g.Gap(at(1000), at(2500)) // 1100 and 2100 lost, 3100 missed
				g.Notified("a", at(5000)) // … unless told: a late notification tells of all three
				for _, x := range []*Subscription{s, g, n} {
					x.End(at(6000))
				}
			},
			want: []ListenSecond{{Second: 0, Changes: 1, Notifications: 2}, {Second: 1, Changes: 1, LostInGaps: 1}, {Second: 2, Changes: 1, Notifications: 1},
				{Second: 3, Changes: 1, Missed: 1}, {Second: 4}, {Second: 5, Notifications: 1}}},
		{name: "before the start: the first second",
			run: func(f *Freshness) {
				s := f.Subscribe([]string{"a"}, at(-3000), time.Millisecond)
				f.Changed("a", at(-2000))
				s.End(at(500))
			},
			want: []ListenSecond{{Second: 0, Changes: 1, Missed: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFreshness(true)
			f.StartTimeline(t0)
			c.run(f)
			sum := f.Summary()
			if !slices.Equal(sum.Timeline, c.want) {
				t.Errorf("timeline\n got %+v\nwant %+v", sum.Timeline, c.want)
			}
			var total ListenSecond
			for _, s := range sum.Timeline {
				total.Changes += s.Changes
				total.Notifications += s.Notifications
				total.Missed += s.Missed
				total.LostInGaps += s.LostInGaps
			}
			n := sum.Counts
			if total.Changes != n.Changes || total.Notifications != n.Notifications || total.Missed != n.Missed || total.LostInGaps != n.LostInGaps {
				t.Errorf("the seconds add up to %+v, the counts are %+v", total, n)
			}
			if !n.IdentityOK() {
				t.Errorf("identity broken: %+v", n)
			}
		})
	}
}

// TestFreshnessTimelineNotStarted: without StartTimeline there are no
// seconds, only the counts.
func TestFreshnessTimelineNotStarted(t *testing.T) {
	f := NewFreshness(true)
	s := f.Subscribe([]string{"a"}, time.Unix(0, 0), time.Millisecond)
	f.Changed("a", time.Unix(1, 0))
	f.Reread(time.Unix(1, 0))
	s.End(time.Unix(2, 0))
	if sum := f.Summary(); sum.Timeline != nil || sum.Counts.Missed != 1 {
		t.Errorf("got timeline %+v, missed %d; want none, 1", sum.Timeline, sum.Counts.Missed)
	}
}

// TestFreshnessSoFar: while the run goes on, a change untold to an open
// subscription is missed once it is older than the cutoff, and no longer
// once a notification tells of it; the open subscriptions are counted.
func TestFreshnessSoFar(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)
	f := NewFreshness(true)
	s := f.Subscribe([]string{"a"}, t0, 3*time.Millisecond)
	closed := f.Subscribe([]string{"a"}, t0, time.Millisecond)
	closed.End(t0.Add(100 * time.Millisecond))
	f.Changed("a", t0.Add(time.Second))
	for _, c := range []struct {
		name         string
		cutoff       time.Time
		tell         bool
		missed, open int64
		notified     int64
	}{
		{name: "younger than the cutoff: not missed yet", cutoff: t0.Add(1500 * time.Millisecond).Add(-time.Second), open: 1},
		{name: "older than the cutoff: missed so far", cutoff: t0.Add(2 * time.Second), missed: 1, open: 1},
		{name: "told late: notified", cutoff: t0.Add(3 * time.Second), tell: true, notified: 1, open: 1},
	} {
		if c.tell {
			s.Notified("a", t0.Add(2500*time.Millisecond))
		}
		got := f.SoFar(c.cutoff)
		if got.Counts.Missed != c.missed || got.Counts.Notified != c.notified || got.Open != c.open {
			t.Errorf("%s: missed %d, notified %d, open %d; want %d, %d, %d", c.name, got.Counts.Missed, got.Counts.Notified, got.Open, c.missed, c.notified, c.open)
		}
		if got.Ack.Count() != 2 || got.Notify.Count() != c.notified {
			t.Errorf("%s: %d acks and %d notifications recorded, want 2 and %d", c.name, got.Ack.Count(), got.Notify.Count(), c.notified)
		}
	}
}
