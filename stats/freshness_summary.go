package stats

import "time"

// Summary is the accounting as of now: the run's end, after the grace it
// gave late notifications. A change still untold to a subscription open
// for it is missed. Its timeline places each missed or lost change in
// the second it was made.
func (f *Freshness) Summary() FreshnessSummary {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.summaryTo(time.Time{})
	out.Spread = NewHistogram()
	f.copyBreakdowns(&out)
	for _, c := range f.changes {
		for i := range c.at {
			if c.told[i] >= 2 {
				out.Spread.Record(c.last[i].Sub(c.first[i]))
			}
		}
	}
	out.Timeline = f.timelineOf(f.failedPrefixes())
	return out
}

// summaryTo is the counts and the ack and notification latency (no
// spread, no breakdowns: Summary adds them), with the
// changes made before cutoff (zero: every change) as the ones a
// subscription could have been told of; f.mu is held.
func (f *Freshness) summaryTo(cutoff time.Time) FreshnessSummary {
	out := FreshnessSummary{Counts: f.counts, Ack: NewHistogram(), Notify: NewHistogram()}
	out.Ack.Merge(f.ack)
	out.Notify.Merge(f.notify)
	failedUpTo := f.failedPrefixes()
	for _, s := range f.subs {
		if s.ended.IsZero() {
			out.Open++
		}
		out.Counts.LostInGaps += f.lostAfterDrop(s, failedUpTo, cutoff)
		for _, k := range s.marks.list {
			u, start := k.uri, k.start
			toldEnd, end, ok := f.untoldRange(s, k, cutoff)
			if !ok {
				continue
			}
			untold := int64(end - toldEnd)
			if p := failedUpTo[u]; p != nil {
				untold -= int64(p[end] - p[toldEnd]) // failed and untold: never expected
			}
			gapped := f.untoldInGaps(s, u, toldEnd, end, failedUpTo[u])
			untold -= gapped
			out.Counts.LostInGaps += gapped
			out.Counts.Expected += int64(toldEnd-start) + untold
			out.Counts.Missed += untold
		}
	}
	return out
}

// untoldRange is the indexes [toldEnd, end) of the changes of k's URI that s,
// open for them, has not been told of, the changes made from cutoff on
// left out (zero: none); ok is false when s closed before its first
// change of u. f.mu is held.
func (f *Freshness) untoldRange(s *Subscription, k uriMark, cutoff time.Time) (toldEnd, end int, ok bool) {
	u, start := k.uri, k.start
	end = len(f.changes[u].atOrNil())
	if !s.ended.IsZero() {
		end = f.changesBefore(u, s.ended)
	}
	if !cutoff.IsZero() {
		end = min(end, f.changesBefore(u, cutoff))
	}
	if end < start {
		return 0, 0, false
	}
	return max(min(k.cursor, end), start), end, true
}

// SoFar is the accounting while the run goes on, for a live view and live
// metrics: the counts and the ack and notification latency so far, a
// change untold to an open subscription counted as missed once it was
// made before cutoff (a notification later than that is late, and will
// be matched then). It holds the accounting's lock for a pass over the
// subscriptions: meant for about once a second.
func (f *Freshness) SoFar(cutoff time.Time) FreshnessSummary {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.summaryTo(cutoff)
}
