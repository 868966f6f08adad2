package stats

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// Freshness is the accounting of a run's freshness loop: the changes made
// to documents, the subscriptions that should be told of them, and the
// notifications that arrive (docs/measurement.md, freshness). It matches
// each notification to the changes it tells of, so that every change a
// subscription was open for ends exactly one way — notified, or missed —
// and nothing is silently merged:
//
//   - A notification of URI u on subscription s at time a tells of every
//     change of u made at or after s was acknowledged, not yet told to s,
//     and made before a (a change is dated when readbench sent it, so its
//     notification cannot come first). Each such change's latency is
//     a minus its time: a change coalesced with a later one is stale for
//     longer, and says so.
//   - The first change a notification tells of is notified, any others are
//     coalesced (one notification for several changes, which a server may
//     send: say which); a notification that tells of no change is the late
//     one of a burst when an earlier one told of several (it makes one of
//     those coalesced changes notified: a legacy replay after
//     Last-Event-ID arrives so), else a duplicate, or spontaneous when
//     readbench makes no changes itself (the server's own: only counts and
//     arrivals can be measured then).
//   - A change left untold when the run ends is missed.
//   - A change whose request failed (Failed) is expected of no
//     subscription that was not told of it: the server may not have made
//     it. One that was told of anyway (the server made it and then failed
//     the answer) stays expected, and notified or coalesced.
//
// So expected (each change × each subscription open for it) = notified +
// coalesced + missed, the identity Summary checks. Safe for concurrent
// use: the changer, every stream's reader and the run's end call it.
type Freshness struct {
	timed   bool // readbench makes the changes (else the server's own: nothing to match)
	mu      sync.Mutex
	changes map[string]*uriChanges
	subs    []*Subscription
	ack     *Histogram
	notify  *Histogram
	counts  FreshnessCounts
	// classOf names a URI's class (the mix class whose reads name it; ""
	// for none); nil: every URI's is "".
	classOf func(string) string
	// open is how many subscriptions are open for each URI now: a change
	// keeps it, so its notifications are recorded by listener count.
	open        map[string]int32
	byClass     map[string]*Histogram
	byListeners [NumListenerBuckets]*Histogram
	// tl is the loop's seconds (freshness_timeline.go): changes,
	// notifications and re-reads as they happen, missed and lost at the
	// run's end.
	tl listenTimeline
}

// uriChanges is the changes made to one URI, oldest first, and for each
// the first and last arrival of a notification telling of it (zero: none
// yet) and how many subscriptions were told.
type uriChanges struct {
	at          []time.Time
	first, last []time.Time
	told        []int32
	open        []int32 // subscriptions open for the URI when the change was made
	failed      []bool  // the change's request failed (Freshness.Failed)
}

// Subscription is one subscription's view of the changes: the URIs it
// asked for, when the server acknowledged it, and for each URI the next
// change it has not been told of.
type Subscription struct {
	f     *Freshness
	acked time.Time
	ended time.Time // zero: open until the run's end
	// marks are, by URI, the first change made after acked (start) and
	// the first change not yet told (cursor).
	marks uriMarks
	// dropped: its stream ended without readbench closing it (Dropped);
	// from ended to gapEnd (the next subscription's acknowledgement, or
	// the run's end) nothing was open to carry its changes.
	dropped bool
	gapEnd  time.Time
	// gaps are the spells its stream was down while it stayed open
	// (legacy: the standalone stream between a drop and its reopening).
	gaps []gap
	// late counts, by URI, the changes told as coalesced whose own
	// notification may still come: notifications that arrive in a burst
	// (a legacy stream's replay after Last-Event-ID, notifications
	// queued behind each other) each tell of every change made before
	// it, so the first takes them all; each of the others then makes one
	// of those coalesced changes notified instead of being a duplicate.
	// Only notifications beyond one per change are duplicates.
	late map[string]int
}

// FreshnessCounts are the counts of a run's freshness loop
// (docs/results.md, subscriptions).
type FreshnessCounts struct {
	Changes       int64 // changes made (their requests sent), Failed included
	Failed        int64 // of those, the requests that failed (Freshness.Failed)
	Subscriptions int64 // subscriptions acknowledged
	Notifications int64 // notifications received on them
	// Expected is each change × each subscription open for it; it
	// equals Notified + Coalesced + Missed.
	Expected, Notified, Coalesced, Missed int64
	// Duplicates tell of no change readbench made that the subscription
	// had not been told of; Spontaneous are notifications when readbench
	// makes no changes (the server's own), which cannot be matched.
	Duplicates, Spontaneous int64
	// Unsubscribed name a URI the subscription did not ask for.
	Unsubscribed int64
	// LostInGaps are changes made while a listener's stream for their URI
	// was down (freshness_gaps.go) that no notification told of: not
	// expected (nothing open could carry them), so not missed either.
	LostInGaps int64
}

// NewFreshness returns an empty accounting. timed says readbench makes
// the changes (Changed): without, the server changes documents on its
// own, and every notification is spontaneous.
func NewFreshness(timed bool) *Freshness {
	f := &Freshness{timed: timed, changes: map[string]*uriChanges{}, ack: NewHistogram(), notify: NewHistogram(),
		open: map[string]int32{}, byClass: map[string]*Histogram{}}
	for i := range f.byListeners {
		f.byListeners[i] = NewHistogram()
	}
	return f
}

// Changed records a change of uri sent at at. Changes of one URI must be
// recorded in the order they were made (one changer does).
func (f *Freshness) Changed(uri string, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.changes[uri]
	if c == nil {
		c = &uriChanges{}
		f.changes[uri] = c
	}
	c.at = append(c.at, at)
	c.first, c.last, c.told = append(c.first, time.Time{}), append(c.last, time.Time{}), append(c.told, 0)
	c.failed = append(c.failed, false)
	c.open = append(c.open, f.open[uri])
	f.counts.Changes++
	if sec := f.tl.at(at); sec != nil {
		sec.Changes++
	}
}

// Failed marks the change of uri recorded at at (Changed) as failed: its
// request failed, so the server may not have made it, and a subscription
// not told of it does not miss it. A change is recorded before its
// request is sent (a notification can come before the answer) and marked
// here once the answer says it failed, so that the matching of
// notifications to changes is never undone. It reports whether such a
// change was recorded.
func (f *Freshness) Failed(uri string, at time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.changes[uri]
	if c == nil {
		return false
	}
	for i := sort.Search(len(c.at), func(i int) bool { return !c.at[i].Before(at) }); i < len(c.at) && c.at[i].Equal(at); i++ {
		if !c.failed[i] {
			c.failed[i] = true
			f.counts.Failed++
			return true
		}
	}
	return false
}

// Subscribe records a subscription to uris acknowledged at acked, ack
// after it was asked for: it is told of the changes made from then on.
func (f *Freshness) Subscribe(uris []string, acked time.Time, ack time.Duration) *Subscription {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := &Subscription{f: f, acked: acked}
	s.marks = newURIMarks(uris, func(u string) int { return f.changesBefore(u, acked) })
	for _, u := range uris {
		f.open[u]++
	}
	f.subs = append(f.subs, s)
	f.ack.Record(ack)
	f.counts.Subscriptions++
	return s
}

// changesBefore is how many changes of uri were made before t; f.mu is
// held.
func (f *Freshness) changesBefore(uri string, t time.Time) int {
	c := f.changes[uri]
	if c == nil {
		return 0
	}
	return sort.Search(len(c.at), func(i int) bool { return !c.at[i].Before(t) })
}

// Notified records a notification that uri changed, arrived at at on s,
// and reports how many changes it told of (0: a duplicate, spontaneous,
// or of a URI s did not ask for).
func (s *Subscription) Notified(uri string, at time.Time) int {
	told, _ := s.NotifiedThrough(uri, at)
	return told
}

// NotifiedThrough is Notified that also says which version of uri the
// notification told of: through is how many of uri's changes were made up
// to the last one it told of (0 when it told of none). Two listeners told
// of the same change get the same through, so a re-read keyed by it is a
// read of one version of the document: what a cache shared between
// listeners answers once (docs/subscriptions.md, re-reads).
func (s *Subscription) NotifiedThrough(uri string, at time.Time) (told, through int) {
	f := s.f
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts.Notifications++
	if sec := f.tl.at(at); sec != nil {
		sec.Notifications++
	}
	mark := s.marks.find(uri)
	var next int
	if mark != nil {
		next = mark.cursor
	}
	switch {
	case mark == nil:
		f.counts.Unsubscribed++
		return 0, 0
	case !f.timed:
		f.counts.Spontaneous++
		return 0, 0
	}
	c := f.changes[uri]
	end := f.changesBefore(uri, at.Add(1)) // made at or before the arrival
	if !s.ended.IsZero() {
		end = min(end, f.changesBefore(uri, s.ended)) // nothing after it closed is its to be told
	}
	if c == nil || end <= next {
		if s.late[uri] > 0 { // the late one of a burst: see late
			s.late[uri]--
			f.counts.Coalesced--
			f.counts.Notified++
			return 0, 0
		}
		f.counts.Duplicates++
		return 0, 0
	}
	class := f.histogramOfClass(uri)
	for i := next; i < end; i++ {
		f.notify.Record(at.Sub(c.at[i]))
		class.Record(at.Sub(c.at[i]))
		f.byListeners[ListenerBucket(int(c.open[i]))].Record(at.Sub(c.at[i]))
		if c.first[i].IsZero() || at.Before(c.first[i]) {
			c.first[i] = at
		}
		if at.After(c.last[i]) {
			c.last[i] = at
		}
		c.told[i]++
	}
	mark.cursor = end
	f.counts.Notified++
	f.counts.Coalesced += int64(end - next - 1)
	if end-next > 1 {
		if s.late == nil {
			s.late = map[string]int{}
		}
		s.late[uri] += end - next - 1
	}
	return end - next, end
}

// End closes s at t: changes made from then on are not expected of it (a
// subscription closed by readbench; a stream the server or a proxy
// dropped stays open here, and its changes count as missed).
func (s *Subscription) End(t time.Time) {
	s.f.mu.Lock()
	defer s.f.mu.Unlock()
	if s.dropped && s.gapEnd.IsZero() {
		s.gapEnd = t // its gap lasted to the run's end
	}
	s.close(t)
}

// close sets s's end, once, and takes it out of its URIs' open counts;
// f.mu is held.
func (s *Subscription) close(t time.Time) {
	if !s.ended.IsZero() {
		return
	}
	s.ended = t
	for _, k := range s.marks.list {
		s.f.open[k.uri]--
	}
}

// FreshnessSummary is a run's freshness loop once it ended: the counts,
// and the latency of acknowledgements, of notifications (change →
// arrival, each change told to each subscription) and the spread of one
// change's arrivals (first to last subscription told, changes told to two
// or more).
type FreshnessSummary struct {
	Counts              FreshnessCounts
	Ack, Notify, Spread *Histogram
	// NotifyByClass is Notify by the class of the notified URI ("" for a
	// URI no class names); NotifyByListeners by how many subscriptions
	// were open for the URI when it changed, one per ListenerBuckets
	// entry. Each adds up to Notify.
	NotifyByClass     map[string]*Histogram
	NotifyByListeners []*Histogram
	// Timeline is the loop's seconds from the run's start
	// (Freshness.StartTimeline): its counts add up to Counts' changes,
	// notifications, missed and lost in gaps, and to the re-reads made.
	Timeline []ListenSecond
	// Open is the subscriptions open when the summary was taken: the
	// live figure of SoFar (0 at the run's end, every one ended then).
	Open int64
}

// IdentityOK reports whether every expected notification is accounted
// for: Expected = Notified + Coalesced + Missed.
func (c FreshnessCounts) IdentityOK() bool {
	return c.Expected == c.Notified+c.Coalesced+c.Missed
}

// failedPrefixes is, for each URI with a failed change, the count of
// failed changes before each index (len+1 entries); f.mu is held.
func (f *Freshness) failedPrefixes() map[string][]int {
	out := map[string][]int{}
	for u, c := range f.changes {
		if !slices.Contains(c.failed, true) {
			continue
		}
		p := make([]int, len(c.failed)+1)
		for i, bad := range c.failed {
			p[i+1] = p[i]
			if bad {
				p[i+1]++
			}
		}
		out[u] = p
	}
	return out
}

// atOrNil is c's change times; nil for a URI never changed.
func (c *uriChanges) atOrNil() []time.Time {
	if c == nil {
		return nil
	}
	return c.at
}
