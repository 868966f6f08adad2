package stats

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// TestFreshnessAccounting: every change a subscription was open for ends
// one way (notified, coalesced or missed), each notification's latency
// runs from the change it tells of, and what tells of nothing is named.
func TestFreshnessAccounting(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type note struct {
		sub int
		uri string
		ms  int
	}
	for _, c := range []struct {
		name    string
		subs    []int // each subscription's ack time (ms), all to "a" and "b"
		ends    map[int]int
		changes []struct {
			uri string
			ms  int
		}
		notes       []note
		want        FreshnessCounts
		notifyMaxMs int // the largest latency recorded (0: none recorded)
		spreads     int64
	}{
		{name: "each subscription told once", subs: []int{0, 0},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}},
			notes:       []note{{0, "a", 15}, {1, "a", 40}},
			want:        FreshnessCounts{Changes: 1, Subscriptions: 2, Notifications: 2, Expected: 2, Notified: 2},
			notifyMaxMs: 30, spreads: 1},
		{name: "one notification for two changes", subs: []int{0},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}, {"a", 20}},
			notes:       []note{{0, "a", 50}},
			want:        FreshnessCounts{Changes: 2, Subscriptions: 1, Notifications: 1, Expected: 2, Notified: 1, Coalesced: 1},
			notifyMaxMs: 40},
		{name: "a change never told", subs: []int{0},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}, {"b", 20}},
			notes: []note{{0, "b", 25}},
			want:  FreshnessCounts{Changes: 2, Subscriptions: 1, Notifications: 1, Expected: 2, Notified: 1, Missed: 1}, notifyMaxMs: 5},
		{name: "told twice", subs: []int{0},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}},
			notes: []note{{0, "a", 15}, {0, "a", 16}},
			want:  FreshnessCounts{Changes: 1, Subscriptions: 1, Notifications: 2, Expected: 1, Notified: 1, Duplicates: 1}, notifyMaxMs: 5},
		{name: "a notification before its change was sent is no notification of it", subs: []int{0},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}},
			notes: []note{{0, "a", 5}},
			want:  FreshnessCounts{Changes: 1, Subscriptions: 1, Notifications: 1, Expected: 1, Duplicates: 1, Missed: 1}},
		{name: "subscribed after the change", subs: []int{0, 30},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}},
			notes: []note{{0, "a", 12}, {1, "a", 35}},
			want:  FreshnessCounts{Changes: 1, Subscriptions: 2, Notifications: 2, Expected: 1, Notified: 1, Duplicates: 1}, notifyMaxMs: 2},
		{name: "closed before the second change", subs: []int{0}, ends: map[int]int{0: 15},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}, {"a", 20}},
			notes: []note{{0, "a", 30}},
			want:  FreshnessCounts{Changes: 2, Subscriptions: 1, Notifications: 1, Expected: 1, Notified: 1}, notifyMaxMs: 20},
		{name: "a URI not asked for", subs: []int{0},
			changes: []struct {
				uri string
				ms  int
			}{{"a", 10}},
			notes: []note{{0, "a", 11}, {0, "zzz", 12}},
			want:  FreshnessCounts{Changes: 1, Subscriptions: 1, Notifications: 2, Expected: 1, Notified: 1, Unsubscribed: 1}, notifyMaxMs: 1},
		{name: "the server's own changes", subs: []int{0},
			notes: []note{{0, "a", 11}, {0, "b", 12}},
			want:  FreshnessCounts{Subscriptions: 1, Notifications: 2, Spontaneous: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFreshness(c.name != "the server's own changes")
			var subs []*Subscription
			// Changes before each subscription are made first, as time goes.
			type event struct {
				ms   int
				kind int // 0 change, 1 subscribe, 2 end, 3 note
				i    int
			}
			var evs []event
			for i, ch := range c.changes {
				evs = append(evs, event{ch.ms, 0, i})
			}
			for i, ms := range c.subs {
				evs = append(evs, event{ms, 1, i})
			}
			for i, ms := range c.ends {
				evs = append(evs, event{ms, 2, i})
			}
			for i, n := range c.notes {
				evs = append(evs, event{n.ms, 3, i})
			}
			for ms := 0; ms <= 100; ms++ {
				for _, e := range evs {
					if e.ms != ms {
						continue
					}
					switch e.kind {
					case 0:
						f.Changed(c.changes[e.i].uri, at(ms))
					case 1:
						subs = append(subs, f.Subscribe([]string{"a", "b"}, at(ms), time.Millisecond))
					case 2:
						subs[e.i].End(at(ms))
					case 3:
						n := c.notes[e.i]
						subs[n.sub].Notified(n.uri, at(ms))
					}
				}
			}
			s := f.Summary()
			if s.Counts != c.want {
				t.Errorf("counts %+v\nwant   %+v", s.Counts, c.want)
			}
			if !s.Counts.IdentityOK() {
				t.Errorf("identity broken: %+v", s.Counts)
			}
			if got := s.Notify.Max(); c.notifyMaxMs > 0 && (got < time.Duration(c.notifyMaxMs)*time.Millisecond || got > time.Duration(c.notifyMaxMs+1)*time.Millisecond) {
				t.Errorf("largest notification latency %v, want %d ms", got, c.notifyMaxMs)
			}
			if s.Spread.Count() != c.spreads || s.Ack.Count() != int64(len(c.subs)) {
				t.Errorf("spread %d values (want %d), ack %d (want %d)", s.Spread.Count(), c.spreads, s.Ack.Count(), len(c.subs))
			}
		})
	}
}

// TestFreshnessIdentityConcurrent: a changer and many subscriptions
// notified from their own goroutines, some notifications lost, some
// repeated, some coalesced: the identity holds and nothing is counted
// twice, under -race.
func TestFreshnessIdentityConcurrent(t *testing.T) {
	f := NewFreshness(true)
	t0 := time.Now()
	const nSubs, nChanges = 20, 200
	uris := []string{"a", "b", "c"}
	subs := make([]*Subscription, nSubs)
	for i := range subs {
		subs[i] = f.Subscribe(uris, t0, time.Millisecond)
	}
	changeAt := make([]time.Time, nChanges)
	for i := range nChanges {
		changeAt[i] = t0.Add(time.Duration(i+1) * time.Millisecond)
		f.Changed(uris[i%len(uris)], changeAt[i])
	}
	var wg sync.WaitGroup
	for k, s := range subs {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(k), 7))
			for i := range nChanges {
				switch x := r.IntN(10); {
				case x == 0: // lost
				case x == 1: // told twice
					s.Notified(uris[i%len(uris)], changeAt[i].Add(time.Millisecond))
					s.Notified(uris[i%len(uris)], changeAt[i].Add(time.Millisecond))
				default:
					s.Notified(uris[i%len(uris)], changeAt[i].Add(time.Millisecond))
				}
			}
		})
	}
	wg.Wait()
	c := f.Summary().Counts
	if !c.IdentityOK() || c.Expected != nSubs*nChanges || c.Notified == 0 || c.Missed+c.Coalesced == 0 || c.Duplicates == 0 {
		t.Fatalf("counts %+v", c)
	}
}
