package stats

import (
	"fmt"
	"time"
)

// TimelineCap bounds the timeline to 24 hours of seconds. Each second
// keeps a few counters and, once closed, the compressed encoding of its
// latency histogram (about a hundred bytes), so a day-long run costs a few
// megabytes; samples past the cap are counted in Run.TimelineBeyond and
// left out of the timeline, never out of the run's totals.
const TimelineCap = 24 * 60 * 60

// closeLag is how many seconds a second's histogram stays decoded after
// it ended. An HDR histogram of 1 µs to 1 h at 3 digits is ~190 KB, so an
// hour of decoded seconds would be ~700 MB; a read is recorded right after
// it finishes, so two seconds of lag closes a second only once its reads
// are in. A straggler for a closed second reopens it.
const closeLag = 2

// SecondStats is one second of a run's timeline, counted from the run's
// start (warmup included). A Recorder fills the counters of its own phase;
// MergeTimelines adds the phases and derives InFlight, P50, P99 and Warmup.
type SecondStats struct {
	Second   int   // seconds since the run started
	Warmup   bool  // the second began before the warmup ended (MergeTimelines)
	Asked    int64 // turns whose intended start fell in this second, dropped ones included
	Achieved int64 // turns that actually started in this second
	Ended    int64 // turns that ended in this second
	Reads    int64 // reads that finished in this second
	Errors   int64 // of those, reads whose outcome IsError
	InFlight int64 // turns in flight at the end of the second (MergeTimelines)
	// P50 and P99 are the read latency (from intended start) of the reads
	// that finished in this second, cut ones at their cut (MergeTimelines).
	P50, P99 time.Duration
	// LagMax is the largest scheduling lag of the reads sent in this
	// second (by when they finished) and of those dropped in it past
	// their deadline: a generator that fell behind and caught up shows
	// here even when the second's achieved rate looks right.
	LagMax time.Duration
	// Latency is the histogram of an open second; LatencyHDR the encoding
	// of a closed one (Histogram.Encode). At most one of them is set.
	Latency    *Histogram
	LatencyHDR string
}

// timeline is a Recorder's per-second state, guarded by the Recorder's
// mutex: the timeline adds no lock of its own to the hot path.
type timeline struct {
	start  time.Time // zero until StartTimeline: nothing is recorded before
	secs   []SecondStats
	open   []int // seconds whose Latency is decoded
	beyond int64 // samples after TimelineCap
}

// at returns the second that when falls in, growing the timeline, or nil
// when the timeline has not started or when is past the cap.
func (t *timeline) at(when time.Time) *SecondStats {
	if t.start.IsZero() || when.IsZero() {
		return nil
	}
	s := max(int(when.Sub(t.start)/time.Second), 0)
	if s >= TimelineCap {
		t.beyond++
		return nil
	}
	for len(t.secs) <= s {
		t.secs = append(t.secs, SecondStats{Second: len(t.secs)})
	}
	return &t.secs[s]
}

// opened makes sec's latency histogram ready to record into: a new one,
// or a closed second's decoded again (a straggler reopens it).
func (t *timeline) opened(sec *SecondStats) {
	if sec.Latency != nil {
		return
	}
	sec.Latency = NewHistogram()
	if sec.LatencyHDR != "" { // a straggler: reopen the closed second
		if h, err := DecodeHistogram(sec.LatencyHDR); err == nil {
			sec.Latency = h
		}
		sec.LatencyHDR = ""
	}
	t.open = append(t.open, sec.Second)
}

// closes is true when closeBefore(s) would close a second.
func (t *timeline) closes(s int) bool {
	for _, i := range t.open {
		if i < s {
			return true
		}
	}
	return false
}

// closeBefore encodes the open seconds before second s and frees their
// histograms. A second that cannot be encoded stays open: memory over
// data.
func (t *timeline) closeBefore(s int) {
	kept := t.open[:0]
	for _, i := range t.open {
		sec := &t.secs[i]
		if i < s {
			if enc, err := sec.Latency.Encode(); err == nil {
				sec.LatencyHDR, sec.Latency = enc, nil
				continue
			}
		}
		kept = append(kept, i)
	}
	t.open = kept
}

// StartTimeline sets the run's start: from then on finished reads and
// turns are also counted per second. The driver gives every phase's
// Recorder the same start, so their timelines line up second by second.
func (r *Recorder) StartTimeline(start time.Time) {
	r.mu.Lock()
	r.tl.start = start
	r.mu.Unlock()
}

// recordTimelineRead adds a read to its second: its latency goes to the
// second's histogram with the read's other values (v.second, batch.go),
// and the seconds closeLag behind are closed, their values added first.
// It returns the read's second, -1 when it is off the timeline. Called
// with r.mu held.
func (r *Recorder) recordTimelineRead(s *ReadSample, v *readValues) int {
	sec := r.tl.at(s.End)
	if sec == nil {
		return -1
	}
	sec.Reads++
	if s.Outcome.IsError() {
		sec.Errors++
	}
	second := sec.Second
	if s.Answered || s.LowerBound {
		r.tl.opened(sec)
		v.second = int32(second)
		if before := second - closeLag + 1; r.tl.closes(before) {
			r.flush()
			r.tl.closeBefore(before)
		}
	}
	if s.Lagged() {
		sec.LagMax = max(sec.LagMax, s.Lag)
	}
	return second
}

// recordTimelineTurn adds a turn to the seconds of its intended start,
// actual start and end; a zero time is left out (a dropped turn was asked
// and never achieved). Called with r.mu held.
func (r *Recorder) recordTimelineTurn(t TurnSample) {
	if t.Started.IsZero() != t.Ended.IsZero() {
		return // started but not ended, or the reverse: it would skew the in-flight count
	}
	if sec := r.tl.at(t.Intended); sec != nil {
		sec.Asked++
	}
	if sec := r.tl.at(t.Started); sec != nil {
		sec.Achieved++
	}
	if sec := r.tl.at(t.Ended); sec != nil {
		sec.Ended++
	}
}

// finishTimeline closes every second into run. Called with r.mu held.
func (r *Recorder) finishTimeline() {
	r.tl.closeBefore(TimelineCap)
	r.run.Timeline = r.tl.secs
	r.run.TimelineBeyond = r.tl.beyond
}

// MergeTimelines adds the timelines of a run's phases (warmup and measured,
// which share a start) second by second, and derives what needs them all:
// turns in flight at the end of each second (started minus ended so far),
// the read percentiles of each second, and the warmup mark (seconds that
// began before warmup ended). Each second's merged histogram is kept as
// its encoding (LatencyHDR), so that timelines of shards can be merged
// again exactly; no decoded histogram is held.
func MergeTimelines(warmup time.Duration, runs ...*Phase) ([]SecondStats, error) {
	n := 0
	for _, r := range runs {
		if r != nil {
			n = max(n, len(r.Timeline))
		}
	}
	out := make([]SecondStats, n)
	var inFlight int64
	for i := range out {
		o := &out[i]
		o.Second = i
		o.Warmup = time.Duration(i)*time.Second < warmup
		var h *Histogram
		for _, r := range runs {
			if r == nil || i >= len(r.Timeline) {
				continue
			}
			s := &r.Timeline[i]
			o.Asked += s.Asked
			o.Achieved += s.Achieved
			o.Ended += s.Ended
			o.Reads += s.Reads
			o.Errors += s.Errors
			o.LagMax = max(o.LagMax, s.LagMax)
			sh, err := s.histogram()
			if err != nil {
				return nil, fmt.Errorf("timeline second %d: %w", i, err)
			}
			switch {
			case sh == nil:
			case h == nil:
				h = sh
			default:
				h.Merge(sh)
			}
		}
		inFlight += o.Achieved - o.Ended
		o.InFlight = inFlight
		if h != nil && h.Count() > 0 {
			o.P50, o.P99 = h.Quantile(50), h.Quantile(99)
			enc, err := h.Encode()
			if err != nil {
				return nil, fmt.Errorf("timeline second %d: %w", i, err)
			}
			o.LatencyHDR = enc
		}
	}
	return out, nil
}

// histogram returns the second's latency histogram, decoding a closed
// one; nil when no read answered in it. A decoded histogram is a copy the
// caller may merge into.
func (s *SecondStats) histogram() (*Histogram, error) {
	if s.LatencyHDR != "" {
		return DecodeHistogram(s.LatencyHDR)
	}
	if s.Latency == nil {
		return nil, nil
	}
	c := NewHistogram()
	c.Merge(s.Latency)
	return c, nil
}
