package client

import (
	"slices"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// LateFunc receives each answer that arrived after its request was given
// up on. The load driver counts them (answers after the cancel, wasted
// bytes, time from the cancel, and apart those that ignored it).
type LateFunc func(stats.LateSample)

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

// fallbackAllowance is the round-trip allowance for a late answer that
// has no probe answer of its own to be judged with: on the median of the
// connection's recent probe round trips (robust: one probe held up by a
// busy moment does not move it), else the fastest answer. Called with mu
// held.
func (c *calls) fallbackAllowance() time.Duration {
	if m := c.probeRTTs.median(); m > 0 {
		return CancelAllowance(m)
	}
	return CancelAllowance(time.Duration(c.fastest.Load()))
}

// rttWindow keeps the most recent probe round trips of a connection, for
// their median: a fixed array, no allocation per probe.
type rttWindow struct {
	d    [31]time.Duration
	n    int // how many are held (at most len(d))
	next int // where the next one goes
}

func (w *rttWindow) add(d time.Duration) {
	w.d[w.next] = d
	w.next = (w.next + 1) % len(w.d)
	w.n = min(w.n+1, len(w.d))
}

// median is the median of the held round trips (the upper one of an even
// count: an overestimate makes fewer answers count as ignored); 0 when none.
func (w *rttWindow) median() time.Duration {
	if w.n == 0 {
		return 0
	}
	s := make([]time.Duration, w.n)
	copy(s, w.d[:w.n])
	slices.Sort(s)
	return s[w.n/2]
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

// probeBack notes that the answer to probe pid started at first. back
// is false when pid was no probe awaiting its answer; sent then says
// whether pid was sent (its answer came already: this one is a second).
func (c *calls) probeBack(pid int64, first time.Time) (sent, back bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.probes.Take(pid)
	if !ok {
		return -pid <= c.probeN, false
	}
	rtt := max(first.Sub(p.sent), 1)
	c.probeRTTs.add(rtt)
	if tb, ok := c.tombs.Get(p.id); ok {
		tb.probeBack, tb.probeRTT = first, rtt
		c.tombs.Put(p.id, tb)
	}
	return true, true
}

// judge describes a late answer of wire bytes to the request tb
// remembers, whose first byte came at first and whole at now. With a probe
// sent after the cancel, the order decides (see probeAfter): ignored when
// the answer started after the probe's answer, and by more than the
// allowance after the cancel reached the server. That allowance is built
// on that probe's own round trip — the ping that followed this very
// cancel, measured at the moment the server was reading it — never on
// another cancel's: one probe held up by a busy moment (a Node server's
// event loop blocked for 400 ms) widens the allowance of the answers it
// judges, not of every late answer on the connection. Without a probe
// answer, the clock alone, with the connection's median probe round trip
// (see fallbackAllowance): ignored when the answer started more than the
// allowance after the cancel reached the server; a probe sent but not yet
// answered means the server may not have read the cancel: not ignored.
func (c *calls) judge(tb tomb, wire int64, first, now time.Time) stats.LateSample {
	l := stats.LateSample{WireBytes: wire, AfterCancel: now.Sub(tb.at)}
	if tb.probed && !tb.probeBack.IsZero() {
		l.Allowance = CancelAllowance(tb.probeRTT)
	} else {
		c.mu.Lock()
		l.Allowance = c.fallbackAllowance()
		c.mu.Unlock()
	}
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
