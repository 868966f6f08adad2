package stats

import (
	"time"
)

// A stream's life in the freshness accounting: a subscription whose
// stream dropped (not closed by readbench) and the listener's next one,
// and the spells a legacy stream was down while its subscriptions stayed
// open. A change made in such a gap that no notification told of is lost
// in the gap (FreshnessCounts.LostInGaps): no stream was open to carry
// it, so it is neither expected nor missed, and the identity expected =
// notified + coalesced + missed holds without it. A gap change that a
// later notification of its URI did tell of (a legacy stream's replay
// after Last-Event-ID, or one notification for several changes) is
// notified or coalesced as any other.

// gap is one spell a subscription's stream was down: [from, to).
type gap struct{ from, to time.Time }

// maxGaps bounds the gaps one subscription keeps; past it the last one
// is stretched to cover the next (the lost count stays exact: a change
// between two stretched gaps is counted as lost only when untold).
const maxGaps = 4096

// ListenerRange is one bucket of notification latency by listener
// count: Min to Max subscriptions open for the changed URI (Max 0: no
// upper bound), named as the result names it.
type ListenerRange struct {
	Name     string
	Min, Max int
}

// NumListenerBuckets is how many ListenerBuckets there are.
const NumListenerBuckets = 5

// ListenerBuckets are the decades of open subscriptions by which
// notification latency is kept (FreshnessSummary.NotifyByListeners): how
// many subscriptions were open for a URI when it changed, so that the
// fan-out's cost shows.
func ListenerBuckets() [NumListenerBuckets]ListenerRange {
	return [NumListenerBuckets]ListenerRange{
		{"1", 1, 1}, {"2-10", 2, 10}, {"11-100", 11, 100}, {"101-1000", 101, 1000}, {">1000", 1001, 0},
	}
}

// ListenerBucket is the index in ListenerBuckets of n open subscriptions;
// fewer than one (a subscription acknowledged before the change but
// recorded after it) counts as one.
func ListenerBucket(n int) int {
	for i, b := range ListenerBuckets() {
		if b.Max == 0 || n <= b.Max {
			return i
		}
	}
	return NumListenerBuckets - 1
}

// SetClassOf names the class of each URI (the mix class whose reads name
// it) for the notification latency by class; call it before any
// notification. Without it every URI's class is "".
func (f *Freshness) SetClassOf(classOf func(uri string) string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.classOf = classOf
}

// histogramOfClass is the by-class notification histogram of uri's class;
// f.mu is held.
func (f *Freshness) histogramOfClass(uri string) *Histogram {
	name := ""
	if f.classOf != nil {
		name = f.classOf(uri)
	}
	h := f.byClass[name]
	if h == nil {
		h = NewHistogram()
		f.byClass[name] = h
	}
	return h
}

// Dropped closes s at t because its stream ended without readbench
// closing it: changes made from then on are not expected of it, and
// until the listener's next subscription is acknowledged (Resubscribe) or
// the run ends (End) they are lost in its gap unless told.
func (s *Subscription) Dropped(t time.Time) {
	s.f.mu.Lock()
	defer s.f.mu.Unlock()
	if s.ended.IsZero() {
		s.dropped = true
	}
	s.close(t)
}

// Resubscribe is Subscribe for a listener listening again after prev
// dropped: prev's gap ends at acked.
func (f *Freshness) Resubscribe(prev *Subscription, uris []string, acked time.Time, ack time.Duration) *Subscription {
	s := f.Subscribe(uris, acked, ack)
	f.mu.Lock()
	defer f.mu.Unlock()
	if prev != nil && prev.dropped && prev.gapEnd.IsZero() {
		prev.gapEnd = acked
	}
	return s
}

// Gap records that s's stream was down from from to to while s stayed
// open (a legacy standalone stream between its end and its reopening;
// to zero: until s ends): changes made then that no notification told
// of are lost in the gap, not missed.
func (s *Subscription) Gap(from, to time.Time) {
	s.f.mu.Lock()
	defer s.f.mu.Unlock()
	if n := len(s.gaps); n >= maxGaps {
		s.gaps[n-1].to = to
		return
	}
	s.gaps = append(s.gaps, gap{from, to})
}

// lostAfterDrop counts the changes of s's URIs made in its gap after a
// drop, failed ones excepted, those made from cutoff on left out (zero:
// none); f.mu is held.
func (f *Freshness) lostAfterDrop(s *Subscription, failedUpTo map[string][]int, cutoff time.Time) int64 {
	if !s.dropped {
		return 0
	}
	var n int64
	for _, k := range s.marks.list {
		u := k.uri
		from, to := f.dropGap(s, u, cutoff)
		if to <= from {
			continue
		}
		n += int64(to - from)
		if p := failedUpTo[u]; p != nil {
			n -= int64(p[to] - p[from])
		}
	}
	return n
}

// dropGap is the indexes [from, to) of the changes of u made in s's gap
// after its drop, those made from cutoff on left out (zero: none); f.mu
// is held and s dropped.
func (f *Freshness) dropGap(s *Subscription, u string, cutoff time.Time) (from, to int) {
	from, to = f.changesBefore(u, s.ended), len(f.changes[u].atOrNil())
	if !s.gapEnd.IsZero() {
		to = f.changesBefore(u, s.gapEnd)
	}
	if !cutoff.IsZero() {
		to = min(to, f.changesBefore(u, cutoff))
	}
	return from, to
}

// untoldInGaps counts the changes of u with index in [toldEnd, end) made
// in one of s's gaps, failed ones excepted; f.mu is held.
func (f *Freshness) untoldInGaps(s *Subscription, u string, toldEnd, end int, failed []int) int64 {
	var n int64
	for _, g := range s.gaps {
		from, to := f.gapRange(g, u, toldEnd, end)
		if to <= from {
			continue
		}
		n += int64(to - from)
		if failed != nil {
			n -= int64(failed[to] - failed[from])
		}
	}
	return n
}

// gapRange is the indexes [from, to) of the changes of u in [toldEnd,
// end) made in g; f.mu is held.
func (f *Freshness) gapRange(g gap, u string, toldEnd, end int) (from, to int) {
	from, to = max(f.changesBefore(u, g.from), toldEnd), end
	if !g.to.IsZero() {
		to = min(f.changesBefore(u, g.to), end)
	}
	return from, to
}

// copyBreakdowns copies the by-class and by-listeners histograms into
// out; f.mu is held.
func (f *Freshness) copyBreakdowns(out *FreshnessSummary) {
	out.NotifyByClass = make(map[string]*Histogram, len(f.byClass))
	for name, h := range f.byClass {
		c := NewHistogram()
		c.Merge(h)
		out.NotifyByClass[name] = c
	}
	out.NotifyByListeners = make([]*Histogram, len(f.byListeners))
	for i, h := range f.byListeners {
		out.NotifyByListeners[i] = NewHistogram()
		out.NotifyByListeners[i].Merge(h)
	}
}
