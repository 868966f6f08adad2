package stats

import "time"

// The samples the driver gives a Recorder: a read, a turn, a late answer.

// ReadSample is one finished read as the driver saw it.
type ReadSample struct {
	Class   int     // index into the classes the Recorder was made with
	Outcome Outcome // exactly one per scheduled read
	// Answered is true when the server's answer arrived (ok or any JSON-RPC
	// error): then Latency, Service and TTFB are the answer's.
	Answered bool
	// LowerBound is true for a read that was sent and cut before its
	// answer came (the turn deadline or the read timeout): Latency is the
	// moment it was cut, a lower bound of the true latency, recorded so
	// that a tail past the deadline can never look like a fast tail.
	LowerBound bool
	Latency    time.Duration // intended start (the turn's scheduled time) → last byte, or the cut
	Service    time.Duration // actual send → last byte
	TTFB       time.Duration // actual send → first byte; 0 when unknown
	// Sent is true when the read was handed to the transport (every
	// outcome but dropped); Lag is then the scheduling lag, from the
	// intended start to that moment: the generator's own delay. A read
	// dropped because its turn's deadline passed before the generator got
	// to it has a Lag too (how late it was then, at least the deadline):
	// the generator's lateness, which the lag figures must not leave out.
	Sent bool
	Lag  time.Duration
	// Bytes of the answer (see ByteCounts).
	ByteCounts
	// Cache hints the answer carried (2026-07-28 ttlMs and cacheScope):
	// HasTTL is false when the answer gave no freshness.
	HasTTL     bool
	TTL        time.Duration
	CacheScope string
	// Fresh is true when an earlier answer for the same URI was still
	// fresh (within its TTL) when this read was sent: a host honouring the
	// hints would not have sent it.
	Fresh bool
	// End is when the read finished (answer, error or drop): the second of
	// the timeline it counts in. Zero keeps it off the timeline.
	End time.Time
	// Chunks holds, for a document fetched in parts (a ranged class), each
	// part's latency from its own send to its last byte; Latency stays the
	// whole fetch. Empty for a plain read.
	Chunks []time.Duration
	// FirstUsable is intended start → the first byte the reader could
	// use: the end of a whole MCP answer (base64 in JSON is usable once
	// the message is whole), of the first chunk of a ranged fetch, the
	// first body byte of a plain HTTP document. 0 when none arrived.
	FirstUsable time.Duration
	// FreshToken is true when the read was the first of its session on its
	// bearer token (a target with tokens; see Auth).
	FreshToken bool
	// NoToken is true for an unauthorized read never sent: no token could
	// be had for it.
	NoToken bool
	// FirstOnSession is true for the first read sent on its session: it is
	// recorded in FirstRead too (what a new host's first read costs).
	FirstOnSession bool
	// Unsettled marks a method_not_found read the run decides at its end
	// (settle.go): a -32601 answer worded as a missing resource
	// (client.Answer.WordedMissing). It counts as Outcome (method_not_found)
	// unless Recorder.Settle says the server implements the method: then
	// as Settled (not_found, or expected_error when its class expects
	// that).
	Unsettled bool
	Settled   Outcome
	// URI is what was read, Trace the W3C trace id it carried and Span
	// its own span id, the traceparent's parent id (zero: none); Broke is
	// set by the driver when the read broke a bound: cut by its timeout
	// or its turn's deadline, or slower than the run's latency bound.
	// Unreached says the read failed before its request reached the
	// server (client.Answer.Unreached): its trace context was received by
	// no one. The class keeps the slowest reads and those that broke a
	// bound by name (slowreads.go).
	URI       string
	Trace     [16]byte
	Span      [8]byte
	Broke     bool
	Unreached bool
	Intended  time.Time // its turn's intended start
	// Turn is the index of the read's turn in the run's schedule (the
	// warmup's first), and Session the session slot of this process it
	// was read on (0-based; with churn, the slot's sessions follow each
	// other): what a per-read export names a read by (package readlog).
	Turn    uint64
	Session int
}

// Lagged reports whether the read's Lag counts in the lag figures: a read
// sent, or one dropped late (see Lag).
func (s *ReadSample) Lagged() bool { return s.Sent || s.Lag > 0 }

// CacheHints summarise the freshness hints of a class's answers: how many
// carried one, their range, and their scope, so a host knows what it may
// keep and for how long.
type CacheHints struct {
	Hinted          int64         // answers with a TTL
	MinTTL, MaxTTL  time.Duration // over hinted answers
	Public, Private int64         // answers by cacheScope
	WouldNotSend    int64         // reads sent while an earlier answer was fresh
}

// add counts one answer's hints.
func (h *CacheHints) add(s *ReadSample) {
	switch s.CacheScope {
	case "public":
		h.Public++
	case "private":
		h.Private++
	}
	if !s.HasTTL {
		return
	}
	if h.Hinted == 0 || s.TTL < h.MinTTL {
		h.MinTTL = s.TTL
	}
	if s.TTL > h.MaxTTL {
		h.MaxTTL = s.TTL
	}
	h.Hinted++
}

// TurnEnd is how a turn ended.
type TurnEnd int

// Turn ends.
const (
	TurnComplete TurnEnd = iota // every read answered before the deadline
	TurnCut                     // the deadline cancelled at least one read
	TurnFailed                  // a read failed (transport, protocol, timeout)
	// TurnDropped: the turn never started (max_in_flight was reached, or
	// its deadline passed before the generator got to it). It is a failed
	// turn in every turn figure: its latency is recorded at the deadline
	// (or the read timeout without one) as a lower bound.
	TurnDropped
	numTurnEnds
)

var turnEndNames = [numTurnEnds]string{"complete", "cut", "failed", "dropped"}

// String names the turn end as results do.
func (e TurnEnd) String() string { return turnEndNames[e] }

// TurnSample is one finished (or dropped) turn.
type TurnSample struct {
	Latency time.Duration // intended start → last read's completion or the deadline
	End     TurnEnd
	// LowerBound marks a Latency recorded at a limit (a cut or dropped
	// turn): the true latency is at least this.
	LowerBound bool
	// Intended, Started and Ended place the turn on the timeline: asked in
	// the second of its intended start, achieved in that of its actual
	// start, in flight until it ended. A zero time leaves that count out
	// (a dropped turn has an intended start only).
	Intended, Started, Ended time.Time
	// Reads is the turn's number of attachments: turn latency is kept per
	// turn size too, since the slowest of 10 parallel reads is not the
	// slowest of 1.
	Reads int
}

// LateSample is an answer that arrived for a request given up on (the
// client judges it, the recorder counts it): its bytes were wasted, and,
// when the cancel had been on the server's side for longer than the
// round-trip allowance before its first byte came, the server ignored a
// cancel it had time to act on (Ignored). An answer that starts sooner
// crossed the cancel on the wire: wasted, not a verdict against the
// server.
type LateSample struct {
	WireBytes   int64
	AfterCancel time.Duration // from the give-up to the answer's end
	// Ignored says the answer's first byte came more than Allowance after
	// the cancel was on the server's side of the transport.
	Ignored   bool
	Allowance time.Duration // the round-trip allowance it was judged with
}
