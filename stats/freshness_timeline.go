package stats

import "time"

// ListenSecond is one second of a run's freshness loop, on the seconds of
// the reads' timeline (SecondStats: counted from the run's start, warmup
// included), so the two line up: what changed, what was told and what
// was read again when. A change missed or lost in a gap is counted in
// the second it was made (only the run's end says it was never told);
// a notification in the second it arrived; a re-read in the second it
// was sent. It is also the result's subscriptions.timeline[] entry
// (docs/results.md): each column adds up to its total there.
type ListenSecond struct {
	Second int `json:"t_s"`
	// Changes are the changes readbench made (sent) in this second,
	// failed ones included, as FreshnessCounts.Changes.
	Changes int64 `json:"changes"`
	// Notifications are the notifications received in this second, as
	// FreshnessCounts.Notifications.
	Notifications int64 `json:"notifications"`
	// Missed and LostInGaps are, for the changes made in this second, the
	// subscriptions never told of them (FreshnessCounts.Missed and
	// LostInGaps): one change missed by three listeners counts three.
	Missed     int64 `json:"missed"`
	LostInGaps int64 `json:"lost_in_gaps"`
	// Rereads are the re-reads sent in this second (RereadCounts.Made).
	Rereads int64 `json:"rereads"`
}

// listenTimeline is a Freshness's per-second counts, guarded by its
// mutex.
type listenTimeline struct {
	start time.Time // zero until StartTimeline: nothing is counted before
	secs  []ListenSecond
}

// at returns the second when falls in, growing the timeline; nil when the
// timeline has not started or when is past TimelineCap (as the reads'
// timeline, which leaves such seconds out: the totals keep them).
func (t *listenTimeline) at(when time.Time) *ListenSecond {
	if t.start.IsZero() || when.IsZero() {
		return nil
	}
	s := max(int(when.Sub(t.start)/time.Second), 0)
	if s >= TimelineCap {
		return nil
	}
	for len(t.secs) <= s {
		t.secs = append(t.secs, ListenSecond{Second: len(t.secs)})
	}
	return &t.secs[s]
}

// StartTimeline sets the run's start, the reads' timeline's (the
// driver's Recorder.StartTimeline): from then on the loop is also counted
// per second (FreshnessSummary.Timeline).
func (f *Freshness) StartTimeline(start time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tl.start = start
}

// Reread counts a re-read sent at at in its second: the re-reads are
// recorded as reads of their own class, and the timeline shows them
// beside the notifications that started them.
func (f *Freshness) Reread(at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if sec := f.tl.at(at); sec != nil {
		sec.Rereads++
	}
}

// timelineOf is the timeline with the missed and lost changes placed in
// the seconds they were made, by the same ranges summaryTo counts them
// over (so each second's sum is its totals'); f.mu is held. Each
// subscription's untold range and gaps are marked on a per-URI
// difference array of change indexes, and one pass over each URI's
// changes adds them up: linear in subscriptions × URIs plus changes, not
// their product.
func (f *Freshness) timelineOf(failedUpTo map[string][]int) []ListenSecond {
	if f.tl.start.IsZero() {
		return nil
	}
	type marks struct{ missed, lost []int64 }
	byURI := map[string]*marks{}
	mark := func(u string, from, to int, lost bool, d int64) {
		if to <= from {
			return
		}
		m := byURI[u]
		if m == nil {
			n := len(f.changes[u].atOrNil()) + 1
			m = &marks{missed: make([]int64, n), lost: make([]int64, n)}
			byURI[u] = m
		}
		a := m.missed
		if lost {
			a = m.lost
		}
		a[from] += d
		a[to] -= d
	}
	for _, s := range f.subs {
		for _, k := range s.marks.list {
			u := k.uri
			if s.dropped {
				from, to := f.dropGap(s, u, time.Time{})
				mark(u, from, to, true, 1)
			}
			toldEnd, end, ok := f.untoldRange(s, k, time.Time{})
			if !ok {
				continue
			}
			mark(u, toldEnd, end, false, 1)
			for _, g := range s.gaps {
				from, to := f.gapRange(g, u, toldEnd, end)
				mark(u, from, to, false, -1)
				mark(u, from, to, true, 1)
			}
		}
	}
	out := append([]ListenSecond(nil), f.tl.secs...)
	for u, m := range byURI {
		at, failed := f.changes[u].at, failedUpTo[u]
		var missed, lost int64
		for i, t := range at {
			missed += m.missed[i]
			lost += m.lost[i]
			if failed != nil && failed[i+1] > failed[i] {
				continue // a failed change untold is never expected
			}
			if missed == 0 && lost == 0 {
				continue
			}
			s := max(int(t.Sub(f.tl.start)/time.Second), 0)
			if s >= TimelineCap {
				continue
			}
			for len(out) <= s {
				out = append(out, ListenSecond{Second: len(out)})
			}
			out[s].Missed += missed
			out[s].LostInGaps += lost
		}
	}
	return out
}

// addListenSeconds adds b's seconds into a's, second by second (the
// caller places both on one clock), and returns the sum; the changes of
// a second are the schedule's, which every shard of a run records, not
// a sum (Listening.Merge).
func addListenSeconds(a, b []ListenSecond) []ListenSecond {
	for len(a) < len(b) {
		a = append(a, ListenSecond{Second: len(a)})
	}
	for i, s := range b {
		o := &a[i]
		o.Changes = max(o.Changes, s.Changes)
		o.Notifications += s.Notifications
		o.Missed += s.Missed
		o.LostInGaps += s.LostInGaps
		o.Rereads += s.Rereads
	}
	return a
}
