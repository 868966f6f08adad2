package stats

// A read is recorded in about ten histograms (read, ok, service, ttfb,
// lag, its class's, its second's, its turn's ...), each a counts array of ~190 KB.
// Between two reads the rest of the generator (the network stack, the
// answer's scan) pushes those arrays out of the caches, so adding each
// value where it lands costs cache misses per histogram, per read: the
// most of what recording a read cost. A Recorder therefore writes a
// read's values into one small record of a batch (one line, written in
// turn) and adds the batch's values to the histograms when it fills, or
// before anything reads them: the batch meets each counts line it touches
// once, hot. Counts do not depend on the order values were added, so
// every figure and encoding is the one recording each value at once makes.

// batchLen is how many reads (and turns) a Recorder holds before adding
// their values: 28 KiB of reads, 8 KiB of turns. At one microsecond's
// resolution a histogram's values spread over tens of counts lines, so a
// batch is large enough to meet each of them many times.
const batchLen = 512

// readValues are the histogram values of one read (micros), and which
// histograms take them.
type readValues struct {
	latency, service, ttfb, lag, firstUsable int64
	class                                    int32
	second                                   int32 // of the timeline, whose histogram takes latency; -1: none
	in                                       readIn
}

// readIn says which histograms a read's values go to.
type readIn uint8

const (
	inRead        readIn = 1 << iota // Read and the class's Latency: sent and answered or cut
	inFirstRead                      // FirstRead: and the first of its session
	inReadOK                         // ReadOK: answered ok
	inService                        // Service: answered
	inTTFB                           // TTFB: answered with a first byte timed
	inLag                            // Lag: sent, or dropped late
	inFirstUsable                    // the class's FirstUsable: a first usable byte timed
)

// valuesOf is s's histogram values (see Recorder.Read for which go where).
func valuesOf(s *ReadSample) readValues {
	v := readValues{latency: micros(s.Latency), class: int32(s.Class), second: -1}
	if s.Answered || s.LowerBound {
		v.in |= inRead
		if s.FirstOnSession {
			v.in |= inFirstRead
		}
	}
	if s.Answered {
		v.in |= inService
		v.service = micros(s.Service)
		if s.Outcome == OK {
			v.in |= inReadOK
		}
		if s.TTFB > 0 {
			v.in |= inTTFB
			v.ttfb = micros(s.TTFB)
		}
	}
	if s.Lagged() {
		v.in |= inLag
		v.lag = micros(s.Lag)
	}
	if s.FirstUsable > 0 {
		v.in |= inFirstUsable
		v.firstUsable = micros(s.FirstUsable)
	}
	return v
}

// turnValues are the histogram values of one turn: its latency (micros)
// goes to Turn and, for a turn of reads, to TurnBySize.
type turnValues struct {
	latency int64
	reads   int
}

// batch is a Recorder's reads and turns whose values are not yet in its
// histograms. Guarded by the Recorder's mutex.
type batch struct {
	reads []readValues
	turns []turnValues
}

// hold keeps a read's values, adding the batch when it is full.
func (r *Recorder) hold(v readValues) {
	if held(&r.batch.reads, v) {
		r.flushReads()
	}
}

// holdTurn keeps a turn's values, adding the batch when it is full.
func (r *Recorder) holdTurn(v turnValues) {
	if held(&r.batch.turns, v) {
		r.flushTurns()
	}
}

// held appends v to a batch's buf (made at batchLen on its first value)
// and reports whether it is full.
func held[T any](buf *[]T, v T) bool {
	if *buf == nil {
		*buf = make([]T, 0, batchLen)
	}
	*buf = append(*buf, v)
	return len(*buf) == batchLen
}

// flush adds every value held to the histograms: call it before reading
// any of them, or closing a second of the timeline.
func (r *Recorder) flush() {
	r.flushReads()
	r.flushTurns()
}

func (r *Recorder) flushReads() {
	p := r.run
	for i := range r.batch.reads {
		v := &r.batch.reads[i]
		c := p.Classes[v.class]
		if v.in&inRead != 0 {
			p.Read.recordMicros(v.latency)
			c.Latency.recordMicros(v.latency)
		}
		if v.second >= 0 {
			r.tl.secs[v.second].Latency.recordMicros(v.latency)
		}
		if v.in&inFirstRead != 0 {
			p.FirstRead.recordMicros(v.latency)
		}
		if v.in&inReadOK != 0 {
			p.ReadOK.recordMicros(v.latency)
		}
		if v.in&inService != 0 {
			p.Service.recordMicros(v.service)
			if v.in&inReadOK != 0 {
				p.ServiceOK.recordMicros(v.service)
			}
		}
		if v.in&inTTFB != 0 {
			p.TTFB.recordMicros(v.ttfb)
		}
		if v.in&inLag != 0 {
			p.Lag.recordMicros(v.lag)
		}
		if v.in&inFirstUsable != 0 {
			c.FirstUsable.recordMicros(v.firstUsable)
		}
	}
	r.batch.reads = r.batch.reads[:0]
}

func (r *Recorder) flushTurns() {
	p := r.run
	for _, v := range r.batch.turns {
		p.Turn.recordMicros(v.latency)
		if v.reads > 0 {
			h, ok := p.TurnBySize[v.reads]
			if !ok {
				h = NewHistogram()
				p.TurnBySize[v.reads] = h
			}
			h.recordMicros(v.latency)
		}
	}
	r.batch.turns = r.batch.turns[:0]
}
