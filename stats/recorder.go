package stats

import (
	"sync"
	"time"
)

// ClassInfo names a workload class for per-class figures.
type ClassInfo struct {
	Name, MIME string
}

// ClassStats are the figures of one class.
type ClassStats struct {
	ClassInfo
	Outcomes           Counts
	Latency            *Histogram // reads sent, from intended start (see Run.Read)
	LatencyLowerBounds int64      // of those, cut reads recorded at the cut
	// ByteCounts is every read's (the wire's real cost), OK the ok
	// answers' alone: the documents, what inflation is computed over, so
	// that error answers (all envelope, no document) cannot inflate it.
	ByteCounts
	OK    ByteCounts
	Cache CacheHints

	// Chunk is the latency of each part of the class's ranged fetches;
	// FirstUsable, intended start → first usable byte of its ok reads
	// (see ReadSample).
	Chunk, FirstUsable *Histogram
	// Slow is the class's slowest reads and those that broke a bound,
	// by name (slowreads.go).
	Slow SlowReads
}

// Cancellation counts reads cancelled by a turn deadline and what the
// server did after: a late answer came after the cancel (its bytes
// wasted; it may have crossed the cancel on the wire); of those, Ignored
// came so long after the cancel reached the server (beyond the round-trip
// allowance) that the server had time to act on it and did not.
type Cancellation struct {
	Cancelled    int64
	LateAnswers  int64
	WastedBytes  int64
	CancelToLate *Histogram // time from the cancel to the late answer
	Ignored      int64
	IgnoredBytes int64
	Allowance    time.Duration // the largest round-trip allowance a late answer was judged with
	// Allowances is the round-trip allowance of each late answer: each is
	// judged with its own cancel's ping, so they spread with the load.
	Allowances *Histogram
}

// Phase is everything one phase of a run (warmup or measured) recorded.
// It is plain data: saved by results, merged by merge.
type Phase struct {
	Scheduled int64 // reads scheduled (dropped ones included)
	Turns     int64 // turns finished or dropped
	Outcomes  Counts
	TurnEnds  [numTurnEnds]int64
	// Read is every read that was sent, from its intended start: answers
	// of any kind at their last byte, and reads cut by the deadline or the
	// timeout at the moment they were cut (ReadLowerBounds of them, lower
	// bounds). ReadOK is ok answers only: the tail to size a timeout on.
	Read            *Histogram
	ReadLowerBounds int64
	ReadOK          *Histogram
	Service         *Histogram // answered reads, actual send → last byte
	ServiceOK       *Histogram // of those, the ok answers: a timeout sized on service time is sized on documents
	TTFB            *Histogram // answered reads, actual send → first byte
	// Chunk is every part of every ranged fetch, its send → last byte: a
	// ranged read's own latency is the whole fetch (Read).
	Chunk *Histogram
	// Lag is the scheduling lag of every read sent (intended start → the
	// moment the generator handed it to the transport) and of every read
	// dropped because the generator got to it past its turn's deadline
	// (intended start → that moment).
	Lag  *Histogram
	Turn *Histogram
	// Handshake is how long opening each session took, its connect start
	// to its handshake's end (the initial sessions and, with churn, each
	// replacement); FirstRead is the latency of the first read sent on
	// each session, also in Read (sessions.go).
	Handshake, FirstRead *Histogram
	// TurnLowerBounds counts turns recorded at a limit (cut or dropped).
	TurnLowerBounds int64
	// TurnBySize holds turn latency by number of attachments.
	TurnBySize map[int]*Histogram
	Classes    []*ClassStats
	Cancel     Cancellation
	Shape      Shape

	// ByteCounts is every read's, OK the ok answers' (see ClassStats).
	ByteCounts
	OK ByteCounts

	// Timeline is this phase's share of the run's seconds (see
	// MergeTimelines); TimelineBeyond counts samples past TimelineCap.
	Timeline       []SecondStats
	TimelineBeyond int64

	// Auth is authorization as a cost, nil when the run had no tokens
	// (Recorder.EnableAuth).
	Auth *Auth

	// MisusedMethodNotFound counts the reads answered -32601 (Method not
	// found) worded as a missing resource by a server that implements
	// resources/read (settle.go): counted in Outcomes as not_found or
	// expected_error, and here as the server's misuse of the code.
	MisusedMethodNotFound int64
}

// TurnEndCount returns how many turns ended e.
func (r *Phase) TurnEndCount(e TurnEnd) int64 { return r.TurnEnds[e] }

// NewRun returns an empty Run for the given classes.
func NewRun(classes []ClassInfo) *Phase {
	r := &Phase{
		Read: NewHistogram(), ReadOK: NewHistogram(), Service: NewHistogram(), ServiceOK: NewHistogram(), TTFB: NewHistogram(),
		Lag: NewHistogram(), Turn: NewHistogram(), Chunk: NewHistogram(),
		Handshake: NewHistogram(), FirstRead: NewHistogram(),
		TurnBySize: map[int]*Histogram{},
		Cancel:     Cancellation{CancelToLate: NewHistogram(), Allowances: NewHistogram()},
	}
	for _, c := range classes {
		r.Classes = append(r.Classes, &ClassStats{ClassInfo: c, Latency: NewHistogram(), Chunk: NewHistogram(), FirstUsable: NewHistogram()})
	}
	return r
}

// Recorder records one phase of a run (warmup or measured) from many
// goroutines, and ends in a Phase (Recorder.Phase). One mutex: at
// the rates one generator process reaches (tens of thousands of reads per
// second) it is far from the bottleneck, and it keeps merging trivial.
type Recorder struct {
	mu     sync.Mutex
	run    *Phase
	tl     timeline
	closed bool // Phase was called: what still arrives (late answers) is not this run's
	obs    Observer
	// batch holds the histogram values of the last reads and turns, added
	// to run's histograms when it fills and before anything reads them.
	batch batch
	pend  unsettled // reads whose outcome the run's end decides (settle.go)
}

// NewRecorder returns a Recorder for the given classes.
func NewRecorder(classes []ClassInfo) *Recorder {
	return &Recorder{run: NewRun(classes)}
}

// Schedule counts n reads as scheduled: call it before they can finish.
func (r *Recorder) Schedule(n int) {
	r.mu.Lock()
	if !r.closed {
		r.run.Scheduled += int64(n)
	}
	r.mu.Unlock()
}

// Read records one finished read.
func (r *Recorder) Read(s ReadSample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	run := r.run
	run.Outcomes[s.Outcome]++
	if s.Outcome == Cancelled {
		run.Cancel.Cancelled++
	}
	c := run.Classes[s.Class]
	c.Outcomes[s.Outcome]++
	if s.Fresh {
		c.Cache.WouldNotSend++
	}
	c.Slow.keep(&s)
	v := valuesOf(&s) // the read's histogram values, added in a batch (batch.go)
	if (s.Answered || s.LowerBound || s.NoToken) && run.Auth != nil {
		run.Auth.read(s)
	}
	if s.LowerBound {
		run.ReadLowerBounds++
		c.LatencyLowerBounds++
	}
	if s.Answered {
		c.Cache.add(&s)
	}
	for _, d := range s.Chunks {
		run.Chunk.Record(d)
		c.Chunk.Record(d)
	}
	run.ByteCounts.Add(s.ByteCounts)
	c.ByteCounts.Add(s.ByteCounts)
	if s.Outcome == OK {
		run.OK.Add(s.ByteCounts)
		c.OK.Add(s.ByteCounts)
	}
	second := r.recordTimelineRead(&s, &v)
	if s.Unsettled && s.Outcome == MethodNotFound {
		r.pend.add(s.Class, second, s.Settled)
	}
	r.hold(v)
	if r.obs != nil {
		r.obs.ObserveRead(s)
	}
}

// Turn records one finished or dropped turn.
func (r *Recorder) Turn(t TurnSample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.run.Turns++
	r.run.TurnEnds[t.End]++
	if t.LowerBound {
		r.run.TurnLowerBounds++
	}
	r.holdTurn(turnValues{latency: micros(t.Latency), reads: t.Reads})
	r.recordTimelineTurn(t)
	if r.obs != nil {
		r.obs.ObserveTurn(t)
	}
}

// ReadP99 is the read latency p99 so far, for a progress line.
func (r *Recorder) ReadP99() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flush()
	return r.run.Read.Quantile(99)
}

// LateAnswer records an answer that arrived for a cancelled read. The
// driver hands each read's recorder to its cancellation, so the answer is
// charged to the phase of its read; once Run has been called it is no
// longer this run's and is ignored.
func (r *Recorder) LateAnswer(wireBytes int64, afterCancel time.Duration) {
	r.Late(LateSample{WireBytes: wireBytes, AfterCancel: afterCancel})
}

// Late records a late answer with its judgement (see LateAnswer).
func (r *Recorder) Late(s LateSample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	c := &r.run.Cancel
	c.LateAnswers++
	c.WastedBytes += s.WireBytes
	c.CancelToLate.Record(s.AfterCancel)
	c.Allowance = max(c.Allowance, s.Allowance)
	if s.Allowance > 0 { // 0: judged with no allowance known (none in the client)
		c.Allowances.Record(s.Allowance)
	}
	if s.Ignored {
		c.Ignored++
		c.IgnoredBytes += s.WireBytes
	}
}

// Shape adds response-shape findings.
func (r *Recorder) Shape(s Shape) {
	r.mu.Lock()
	if !r.closed {
		r.run.Shape.Add(s)
	}
	r.mu.Unlock()
}

// Phase closes the Recorder and returns the recorded data. Call it after
// every read and turn has finished; what is recorded afterwards (a late
// answer still arriving while sessions close) is ignored, so the returned
// Phase never changes under its reader. Calling it again returns the same
// Phase.
func (r *Recorder) Phase() *Phase {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		r.flush()
		r.settle()
		r.finishTimeline()
	}
	return r.run
}
