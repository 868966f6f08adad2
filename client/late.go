package client

import (
	"time"
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
// ignored, never more.
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

// allowance is the round-trip allowance on this connection now.
func (c *calls) allowance() time.Duration {
	return CancelAllowance(time.Duration(c.fastest.Load()))
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

// judge describes a late answer of wire bytes to the request tb
// remembers, whose first byte came at first and whole at now.
func (c *calls) judge(tb tomb, wire int64, first, now time.Time) Late {
	l := Late{WireBytes: wire, AfterCancel: now.Sub(tb.at), Allowance: c.allowance()}
	if first.IsZero() {
		first = now
	}
	l.Ignored = !tb.onServer.IsZero() && first.Sub(tb.onServer) > l.Allowance
	return l
}
