package servercost

import (
	"sync"
	"sync/atomic"
	"time"
)

// ColdStart is how a stdio server starts: spawn to its first message of
// any kind, the handshake (both the slowest over the sessions: they start
// together and the run waits for all), and the first read, actual send to
// last byte, to be set against the steady-state median service time.
type ColdStart struct {
	SpawnToFirstAnswer, Handshake, FirstRead time.Duration
}

// ColdStartRecorder collects a run's cold start. Its methods are safe for
// concurrent use and do nothing on a nil recorder, so the hooks can be
// called unconditionally.
//
// The first read is the first read *sent* that got an answer, not the
// first to finish: with reads going out together the quickest answer
// would hide a slow cold one. Reads sent after the best so far skip the
// lock, so the hook costs an atomic load per read after the first burst.
type ColdStartRecorder struct {
	epoch    time.Time
	bestSent atomic.Int64 // ns after epoch of the earliest answered read's send; 0: none

	mu       sync.Mutex
	cs       ColdStart
	sessions int
}

// NewColdStartRecorder starts the clock reads are placed against.
func NewColdStartRecorder() *ColdStartRecorder {
	return &ColdStartRecorder{epoch: time.Now()}
}

// Session records the start of one server process readbench spawned, once
// its session's handshake has succeeded: spawn to its first message, and
// the handshake. Only a spawned process has a cold start to measure.
func (c *ColdStartRecorder) Session(spawnToFirstMessage, handshake time.Duration) {
	if c == nil {
		return
	}
	first := spawnToFirstMessage
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions++
	c.cs.SpawnToFirstAnswer = max(c.cs.SpawnToFirstAnswer, first)
	c.cs.Handshake = max(c.cs.Handshake, handshake)
}

// Read is the hook for every answered resources/read: sent and done are
// the answer's actual send and last byte.
func (c *ColdStartRecorder) Read(sent, done time.Time) {
	if c == nil {
		return
	}
	at := max(int64(sent.Sub(c.epoch)), 1)
	if b := c.bestSent.Load(); b != 0 && at >= b {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.bestSent.Load(); b == 0 || at < b {
		c.bestSent.Store(at)
		c.cs.FirstRead = done.Sub(sent)
	}
}

// Result returns the cold start, and whether any stdio session was seen.
func (c *ColdStartRecorder) Result() (ColdStart, bool) {
	if c == nil {
		return ColdStart{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cs, c.sessions > 0
}
