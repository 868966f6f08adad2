package results

import (
	"fmt"
	"math"
	"time"

	"github.com/readbench/readbench/stats"
)

// Reading a saved result back into what the recorder held, so shards can
// be merged with the same code that builds one run's document.

// runsOf rebuilds the recorded phases of a result: counters and
// histograms of the measured phase, and what the warmup block keeps.
func runsOf(r *Result) (measured, warmup *stats.Phase, err error) {
	classes := make([]stats.ClassInfo, len(r.Classes))
	for i, c := range r.Classes {
		classes[i] = stats.ClassInfo{Name: c.Class, MIME: c.MIME}
	}
	m := stats.NewRun(classes)
	m.Scheduled, m.Turns = r.Totals.Scheduled, r.Totals.Turns
	m.MisusedMethodNotFound = r.Totals.MisusedMethodNotFound
	if m.Outcomes, err = countsOf(r.Totals.Outcomes); err != nil {
		return nil, nil, err
	}
	e := r.Totals.TurnEnds
	for i, n := range []int64{e.Complete, e.Cut, e.Failed, e.Dropped} {
		m.TurnEnds[i] = n
	}
	for _, b := range []struct {
		dst **stats.Histogram
		l   stats.Latency
	}{
		{&m.Read, r.Read}, {&m.ReadOK, r.ReadOK}, {&m.Service, r.Service}, {&m.ServiceOK, r.ServiceOK}, {&m.TTFB, r.TTFB},
		{&m.Lag, r.Lag}, {&m.Turn, r.Turn}, {&m.Cancel.CancelToLate, r.Cancellation.CancelToLateMs}, {&m.Cancel.Allowances, r.Cancellation.AllowancesMs},
		{&m.Handshake, r.Handshake}, {&m.FirstRead, r.FirstRead},
	} {
		if *b.dst, err = b.l.Histogram(); err != nil {
			return nil, nil, err
		}
	}
	m.ReadLowerBounds, m.TurnLowerBounds = r.Read.LowerBounds, r.Turn.LowerBounds
	for _, ts := range r.TurnSizes {
		if m.TurnBySize[ts.Attachments], err = ts.Histogram(); err != nil {
			return nil, nil, err
		}
	}
	for i, c := range r.Classes {
		cs := m.Classes[i]
		if cs.Outcomes, err = countsOf(c.Outcomes); err != nil {
			return nil, nil, err
		}
		if cs.Latency, err = c.Histogram(); err != nil {
			return nil, nil, err
		}
		cs.LatencyLowerBounds = c.LowerBounds
		if c.SlowReads != nil {
			if err := checkTraceIDs(c.SlowReads); err != nil {
				return nil, nil, fmt.Errorf("class %s: %w", c.Class, err)
			}
			cs.Slow = c.SlowReads.Sorted() // a copy: merging reorders it
		}
		cs.ByteCounts, cs.OK = bytesOf(c.WireBytes, c.ErrorWire, c.DiskBytes, c.Base64Bytes, c.Base64Padding)
		cs.Cache = stats.CacheHints{
			Hinted: c.Cache.Hinted, MinTTL: stats.MsDuration(c.Cache.MinTTLMs), MaxTTL: stats.MsDuration(c.Cache.MaxTTLMs),
			Public: c.Cache.Public, Private: c.Cache.Private, WouldNotSend: c.Cache.WouldNotSend,
		}
	}
	m.Cancel.Cancelled = r.Cancellation.Cancelled
	if r.Cancellation.LateAnswers != nil {
		m.Cancel.LateAnswers = *r.Cancellation.LateAnswers
	}
	if r.Cancellation.WastedBytes != nil {
		m.Cancel.WastedBytes = *r.Cancellation.WastedBytes
	}
	if r.Cancellation.Ignored != nil {
		m.Cancel.Ignored = *r.Cancellation.Ignored
	}
	if r.Cancellation.IgnoredBytes != nil {
		m.Cancel.IgnoredBytes = *r.Cancellation.IgnoredBytes
	}
	if r.Cancellation.AllowanceMs != nil {
		m.Cancel.Allowance = stats.MsDuration(*r.Cancellation.AllowanceMs)
	}
	m.Shape = r.Shape
	var pad int64
	for _, c := range r.Classes {
		pad += c.Base64Padding
	}
	m.ByteCounts, m.OK = bytesOf(r.Totals.WireBytes, r.Totals.ErrorWire, r.Totals.DiskBytes, r.Totals.Base64Bytes, pad)
	if m.Auth, err = authPhase(r.Auth); err != nil {
		return nil, nil, err
	}
	w := stats.NewRun(nil)
	w.Scheduled, w.Turns = r.Warmup.Scheduled, r.Warmup.Turns
	if w.Outcomes, err = countsOf(r.Warmup.Outcomes); err != nil {
		return nil, nil, err
	}
	if w.Read, err = r.Warmup.Read.Histogram(); err != nil {
		return nil, nil, err
	}
	w.ReadLowerBounds = r.Warmup.Read.LowerBounds
	return m, w, nil
}

// countsOf reads an outcomes map back; an unknown name is refused (it
// would be lost from the identity).
func countsOf(m map[string]int64) (stats.Counts, error) {
	var c stats.Counts
	for name, n := range m {
		o, ok := stats.ParseOutcome(name)
		if !ok {
			return c, fmt.Errorf("bad result: unknown outcome %q", name)
		}
		c[o] = n
	}
	return c, nil
}

// timelineRun places a result's timeline on the clock that starts at
// origin (the earliest shard's start): its seconds shift by its own start
// rounded to the nearest second (0 for shards started together with
// --start-at). Turns ended in a second are rebuilt from the in-flight
// counts (in flight before + started − in flight after).
func timelineRun(r *Result, origin time.Time) (*stats.Phase, error) {
	shift := int(math.Round(r.Started.Sub(origin).Seconds()))
	if shift+len(r.Timeline) > stats.TimelineCap {
		return nil, fmt.Errorf("timeline would pass %d seconds once placed %d s after the first shard", stats.TimelineCap, shift)
	}
	tl := make([]stats.SecondStats, shift, shift+len(r.Timeline))
	for i := range tl {
		tl[i].Second = i
	}
	var before int64
	for _, s := range r.Timeline {
		if s.HDR == "" && s.P50Ms > 0 {
			return nil, fmt.Errorf("timeline second %d has percentiles but no histogram (\"hdr\"): written by an older readbench, its timeline cannot be merged exactly", s.T)
		}
		achieved := int64(math.Round(s.Achieved))
		tl = append(tl, stats.SecondStats{
			Second: len(tl), Asked: int64(math.Round(s.Asked)), Achieved: achieved,
			Ended: before + achieved - s.InFlight, Reads: s.Reads, Errors: s.Errors,
			LagMax: stats.MsDuration(s.LagMaxMs), LatencyHDR: s.HDR,
		})
		before = s.InFlight
	}
	run := stats.NewRun(nil)
	run.Timeline = tl
	return run, nil
}

// bytesOf is a document's byte counts as a phase holds them: every read's
// and the ok answers' (the document's disk and base64 bytes are the ok
// answers'; what cut reads decoded before their cut is not in it).
func bytesOf(wire, errorWire, disk, b64, pad int64) (all, ok stats.ByteCounts) {
	ok = stats.ByteCounts{WireBytes: wire - errorWire, DiskBytes: disk, Base64Bytes: b64, Base64Padding: pad}
	all = ok
	all.WireBytes = wire
	return all, ok
}
