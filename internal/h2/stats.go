package h2

import (
	"sync/atomic"

	"github.com/readbench/readbench/internal/conns"
)

// counters are a Pool's Stats as they are kept: by RoundTrip, by the
// pool as connections come and go, and by each connection's frameConn as
// frames cross it.
type counters struct {
	opened, requests, reused, open, peak, server, client atomic.Int64
	inFlight, peakStreams, waited                        atomic.Int64
	streams, refused, resetsSent, resetsReceived         atomic.Int64
	goAwaySent, goAwayReceived                           atomic.Int64
	maxStreams                                           atomic.Uint32 // smallest seen, 0: none
}

// Stats is what the pool's connections did so far.
func (p *Pool) Stats() conns.Stats {
	c := &p.count
	return conns.Stats{
		Opened: c.opened.Load(), Requests: c.requests.Load(), Reused: c.reused.Load(), Peak: c.peak.Load(),
		ClosedByServer: c.server.Load(), ClosedByClient: c.client.Load(),
		HTTP2: &conns.HTTP2{
			Streams: c.streams.Load(), PeakStreams: c.peakStreams.Load(), MaxConcurrentStreams: c.maxStreams.Load(),
			Waited: c.waited.Load(), Refused: c.refused.Load(),
			GoAwayByClient: c.goAwaySent.Load(), GoAwayByServer: c.goAwayReceived.Load(),
			ResetsByClient: c.resetsSent.Load(), ResetsByServer: c.resetsReceived.Load(),
		},
	}
}

// dialled counts a new connection.
func (c *counters) dialled() {
	c.opened.Add(1)
	raise(&c.peak, c.open.Add(1))
}

// started and done count a stream in flight.
func (c *counters) started() { raise(&c.peakStreams, c.inFlight.Add(1)) }
func (c *counters) done()    { c.inFlight.Add(-1) }

// sawMaxStreams keeps the smallest limit a server advertised.
func (c *counters) sawMaxStreams(v uint32) {
	for {
		old := c.maxStreams.Load()
		if (old != 0 && old <= v) || c.maxStreams.CompareAndSwap(old, v) {
			return
		}
	}
}

// raise makes peak at least n.
func raise(peak *atomic.Int64, n int64) {
	for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
	}
}
