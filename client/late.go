package client

import (
	"time"

	"github.com/readbench/readbench/protocol"
)

// Late is an answer that arrived for a request given up on: its bytes
// were wasted, and, when the cancel had been on the server's side for
// longer than the round-trip allowance before its first byte came, the
// server ignored a cancel it had time to act on (Ignored). An answer that
// starts sooner crossed the cancel on the wire: wasted, not a verdict
// against the server.
type Late struct {
	WireBytes   int64
	AfterCancel time.Duration // from the give-up to the answer's end
	// Ignored says the answer's first byte came more than Allowance after
	// the cancel was on the server's side of the transport.
	Ignored   bool
	Allowance time.Duration // the round-trip allowance it was judged with
}

// LateFunc receives each answer that arrived after its request was given
// up on. The load driver counts them (answers after the cancel, wasted
// bytes, time from the cancel, and apart those that ignored it).
type LateFunc func(Late)

// The round-trip allowance: an answer whose first byte comes within this
// of the cancel reaching the server was on its way before the server could
// act on it. The same rule for `readbench run` and `readbench check`.
const (
	AllowanceRTTs  = 4                     // the allowance is this many round trips ...
	AllowanceFloor = 25 * time.Millisecond // ... and at least this
)

// CancelAllowance is the round-trip allowance for a connection whose
// round trip is rtt (0 when unknown: the floor alone).
func CancelAllowance(rtt time.Duration) time.Duration {
	return max(AllowanceRTTs*rtt, AllowanceFloor)
}

// sawRoundTrip notes how long an answer took from its request's send to
// its first byte: the fastest so far is the connection's round trip (an
// upper bound of it: the fastest answer still includes some work), which
// the allowance is built on. An overestimate makes fewer answers count as
// ignored, never more. The connection's first answer is not one: it
// includes the connection's start (a child's spawn, a TCP connect).
func (c *calls) sawRoundTrip(sent, first time.Time) {
	d := int64(first.Sub(sent))
	if d <= 0 {
		d = 1
	}
	for {
		cur := c.fastest.Load()
		if cur != 0 && cur <= d {
			return
		}
		if c.fastest.CompareAndSwap(cur, d) {
			return
		}
	}
}

// allowance is the round-trip allowance on this connection now: on the
// slowest round trip of the probes that followed cancels (measured as the
// server was reading cancels, under the run's load; the slowest counts, as
// in `readbench check`), else the fastest answer.
func (c *calls) allowance() time.Duration {
	if s := c.slowest.Load(); s > 0 {
		return CancelAllowance(time.Duration(s))
	}
	return CancelAllowance(time.Duration(c.fastest.Load()))
}

// probe is a ping that followed a cancel: which, and when it was made.
type probe struct {
	id   int64
	sent time.Time
}

// cancelOnServer notes that the cancel of id is on the server's side of
// the transport since at (its notification was written to stdin, or its
// POST accepted); the judgement of a late answer runs from there. A tomb
// already taken (its answer came first) is left alone.
func (c *calls) cancelOnServer(id int64, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if tb, ok := c.tombs.Get(id); ok {
		tb.onServer = at
		c.tombs.Put(id, tb)
	}
}

// probeAfter makes the ping that follows the cancel of id down the same
// path (the stdio pipe, the next POST once the cancel's was acknowledged):
// a server reads its input in order, so by the time it answers the ping it
// has read the cancel. A late answer that starts before the ping's answer
// was written before the server could know; one that starts after it
// ignored a cancel the server had read. This orders the events without
// trusting clocks, which a busy machine skews by tens of milliseconds on
// either side. Probes have negative ids, which readbench's own requests
// never use.
func (c *calls) probeAfter(id int64) (Request, bool) {
	c.mu.Lock()
	c.probeN++
	pid := -c.probeN
	tb, ok := c.tombs.Get(id)
	if ok {
		tb.probed = true
		c.tombs.Put(id, tb)
		c.probes.Put(pid, probe{id: id, sent: time.Now()})
	}
	c.mu.Unlock()
	if !ok {
		return Request{}, false // the answer came already: nothing to order
	}
	body, err := protocol.AppendRequest(nil, protocol.IntID(pid), protocol.MethodPing, nil)
	if err != nil {
		return Request{}, false
	}
	return Request{ID: pid, method: protocol.MethodPing, body: body}, true
}

// probeBack notes that the answer to probe pid started at first.
func (c *calls) probeBack(pid int64, first time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.probes.Take(pid)
	if !ok {
		return
	}
	if d := int64(first.Sub(p.sent)); d > c.slowest.Load() {
		c.slowest.Store(d) // under mu: no other writer
	}
	if tb, ok := c.tombs.Get(p.id); ok {
		tb.probeBack = first
		c.tombs.Put(p.id, tb)
	}
}

// judge describes a late answer of wire bytes to the request tb
// remembers, whose first byte came at first and whole at now. With a probe
// sent after the cancel, the order decides (see probeAfter): ignored when
// the answer started after the probe's answer, and by more than the
// allowance after the cancel reached the server. Without one, the clock
// alone: ignored when it started more than the allowance after the cancel
// reached the server.
func (c *calls) judge(tb tomb, wire int64, first, now time.Time) Late {
	l := Late{WireBytes: wire, AfterCancel: now.Sub(tb.at), Allowance: c.allowance()}
	if first.IsZero() {
		first = now
	}
	late := !tb.onServer.IsZero() && first.Sub(tb.onServer) > l.Allowance
	if tb.probed {
		late = late && !tb.probeBack.IsZero() && first.After(tb.probeBack)
	}
	l.Ignored = late
	return l
}
