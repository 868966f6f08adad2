package stats

import "time"

// Percentiles are a histogram's p50, p90 and p99: what a live view shows
// of a latency while the run goes on (the result keeps the whole block).
// A chosen three, read in one pass each second, not LatencyStats: a stat
// added to the block widens the reports, not the live view's one line.
type Percentiles struct {
	P50, P90, P99 time.Duration
	// Count is how many values the histogram holds, and LowerBounds how
	// many of them were recorded at a limit (reads or turns cut, dropped
	// turns): a quantile above the uncut share is a lower bound
	// (AtLeast), as the reports mark it "≥".
	Count, LowerBounds int64
}

// AtLeast reports whether the quantile q (0.5, 0.9, 0.99) is a lower
// bound: more values than 1-q of them were cut at a limit, so the true
// quantile lies at or above the one shown.
func (p Percentiles) AtLeast(q float64) bool {
	return p.Count > 0 && float64(p.LowerBounds) > (1-q)*float64(p.Count)
}

// Percentiles returns h's p50, p90 and p99 in one pass over its counts
// (zero for an empty histogram).
func (h *Histogram) Percentiles() Percentiles {
	if h.Count() == 0 {
		return Percentiles{}
	}
	v := h.h.ValueAtPercentiles([]float64{50, 90, 99})
	us := func(p float64) time.Duration { return time.Duration(v[p]) * time.Microsecond }
	return Percentiles{P50: us(50), P90: us(90), P99: us(99), Count: h.Count()}
}

// Live is a phase's figures so far, as a live view shows them: outcomes,
// bytes, and the percentiles of read latency, turn latency and
// scheduling lag; SecondP99 is the read p99 of the reads that finished in
// one second of the timeline (the last whole one: a sparkline's point),
// filled by the caller from the recorder of that second's phase
// (Recorder.SecondP99). ReadBins is the phase's read latencies counted
// in the live bins (LiveBinUpper): the histogram a live view draws.
type Live struct {
	Outcomes Counts
	ByteCounts
	Read, Turn, Lag Percentiles
	SecondP99       time.Duration
	ReadBins        [LiveBins]int64
}

// Live returns the phase's figures so far. It holds the recorder's lock
// for three quantiles passes (tens of microseconds): meant for a view
// that asks about once a second, never for anything per read.
func (r *Recorder) Live() Live {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.run
	r.flush()
	out := Live{
		Outcomes: run.Outcomes, ByteCounts: run.ByteCounts,
		Read: run.Read.Percentiles(), Turn: run.Turn.Percentiles(), Lag: run.Lag.Percentiles(),
		ReadBins: liveBins(run.Read),
	}
	out.Read.LowerBounds, out.Turn.LowerBounds = run.ReadLowerBounds, run.TurnLowerBounds
	return out
}

// SecondP99 is the read p99 of the reads this recorder's phase finished
// in the timeline's second sec (0 when it has none, or sec < 0). An open
// second is read in place; one already closed is decoded.
func (r *Recorder) SecondP99(sec int) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if sec < 0 || sec >= len(r.tl.secs) {
		return 0
	}
	r.flush()
	s := &r.tl.secs[sec]
	h := s.Latency
	if h == nil && s.LatencyHDR != "" {
		h, _ = DecodeHistogram(s.LatencyHDR)
	}
	if h == nil || h.Count() == 0 {
		return 0
	}
	return h.Quantile(99)
}
