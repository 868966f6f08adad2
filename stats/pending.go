package stats

import hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

// A read is recorded in about ten histograms (read, ok, service, ttfb,
// lag, its class, its second, its turn ...), each a counts array of
// ~190 KB. Between two reads the network stack and the answer's scan
// have pushed those arrays' lines out of the caches, so adding a value
// where it lands costs a cache miss or more, per histogram, per read.
// A Recorder's histograms therefore keep the values recorded in a small
// buffer of their own (one line written in turn, in cache) and add them
// in a batch when it fills, or before anything reads the histogram: the
// batch meets each counts line it touches once, hot. Counts do not
// depend on the order values were added, so every figure and every
// encoding is the one recording each value at once makes.

// pendingCap is how many values a Recorder's histogram holds before it
// adds them (1 KiB each: a Recorder's dozen histograms buffer ~12 KiB).
const pendingCap = 128

// buffered makes h keep recorded values in a buffer until it is read
// (see above), and returns it.
func (h *Histogram) buffered() *Histogram {
	if cap(h.pending) == 0 {
		h.pending = make([]int64, 0, pendingCap)
	}
	return h
}

// flush adds the values h holds.
func (h *Histogram) flush() {
	for _, us := range h.pending {
		_ = h.h.RecordValue(us) // cannot fail: micros clamped the value into range
	}
	h.pending = h.pending[:0]
}

// settle adds the values h holds, if any, and returns the histogram
// every reading method reads. A settled histogram is not written to by
// reading it: a Phase a Recorder returned may be read from any number of
// goroutines (Recorder.Phase settles all of it).
func (h *Histogram) settle() *hdrhistogram.Histogram {
	if len(h.pending) > 0 {
		h.flush()
	}
	return h.h
}

// buffered makes the histograms a Recorder records each read in keep
// their values until read (Histogram.buffered), and returns p.
func (p *Phase) buffered() *Phase {
	for _, h := range []*Histogram{p.Read, p.ReadOK, p.Service, p.TTFB, p.Chunk, p.Lag, p.Turn, p.FirstRead} {
		h.buffered()
	}
	for _, c := range p.Classes {
		c.Latency.buffered()
		c.Chunk.buffered()
		c.FirstUsable.buffered()
	}
	return p
}

// settle adds every value p's histograms hold (Histogram.settle), so
// that reading p writes nothing.
func (p *Phase) settle() {
	for _, h := range []*Histogram{p.Read, p.ReadOK, p.Service, p.TTFB, p.Chunk, p.Lag, p.Turn,
		p.Handshake, p.FirstRead, p.Cancel.CancelToLate} {
		h.settle()
	}
	for _, h := range p.TurnBySize {
		h.settle()
	}
	for _, c := range p.Classes {
		c.Latency.settle()
		c.Chunk.settle()
		c.FirstUsable.settle()
	}
	for i := range p.Timeline {
		if h := p.Timeline[i].Latency; h != nil {
			h.settle()
		}
	}
	if a := p.Auth; a != nil {
		a.Tokens.Latency.settle()
		a.FreshToken.settle()
		a.LaterToken.settle()
	}
}
