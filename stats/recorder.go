package stats

import (
	"sync"
	"time"
)

// ReadSample is one finished read as the driver saw it.
type ReadSample struct {
	Class   int     // index into the classes the Recorder was made with
	Outcome Outcome // exactly one per scheduled read
	// Answered is true when the server's answer arrived (ok or any JSON-RPC
	// error): only then are the latencies below recorded. Timeouts,
	// cancellations and transport failures are counted, not timed.
	Answered bool
	Latency  time.Duration // intended start (the turn's scheduled time) → last byte
	Service  time.Duration // actual send → last byte
	TTFB     time.Duration // actual send → first byte; 0 when unknown
	// Bytes of the answer: as received on the wire (body and framing),
	// decoded (text + blob) and the base64 characters of blobs.
	WireBytes, DiskBytes, Base64Bytes int64
	Base64Padding                     int64 // '=' characters closing the blobs
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
}

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
func (h *CacheHints) add(s ReadSample) {
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
	TurnFailed                  // a read failed (transport, protocol, timeout, dropped)
	numTurnEnds
)

var turnEndNames = [numTurnEnds]string{"complete", "cut", "failed"}

// String names the turn end as results do.
func (e TurnEnd) String() string { return turnEndNames[e] }

// TurnSample is one finished turn.
type TurnSample struct {
	Latency time.Duration // intended start → last read's completion or the deadline
	End     TurnEnd
	// Intended, Started and Ended place the turn on the timeline: asked in
	// the second of its intended start, achieved in that of its actual
	// start, in flight until it ended. Zero times keep it off the timeline.
	Intended, Started, Ended time.Time
	// Reads is the turn's number of attachments: turn latency is kept per
	// turn size too, since the slowest of 10 parallel reads is not the
	// slowest of 1.
	Reads int
}

// ClassInfo names a workload class for per-class figures.
type ClassInfo struct {
	Name, MIME string
}

// ClassStats are the figures of one class.
type ClassStats struct {
	ClassInfo
	Outcomes                          Counts
	Latency                           *Histogram // answered reads, from intended start
	WireBytes, DiskBytes, Base64Bytes int64
	Base64Padding                     int64
	Cache                             CacheHints
}

// Cancellation counts reads cancelled by a turn deadline and what the
// server did after: a late answer means it did not honour the cancel.
type Cancellation struct {
	Cancelled    int64
	LateAnswers  int64
	WastedBytes  int64
	CancelToLate *Histogram // time from the cancel to the late answer
}

// Shape counts findings of the response-shape checks (docs/measurement.md (shape)).
type Shape struct {
	Neither, Both, URIRewritten, MIMEMissing, MIMEMismatch, BadBase64, EmptyContents, MultiEntry int64
}

// Add adds o into s.
func (s *Shape) Add(o Shape) {
	s.Neither += o.Neither
	s.Both += o.Both
	s.URIRewritten += o.URIRewritten
	s.MIMEMissing += o.MIMEMissing
	s.MIMEMismatch += o.MIMEMismatch
	s.BadBase64 += o.BadBase64
	s.EmptyContents += o.EmptyContents
	s.MultiEntry += o.MultiEntry
}

// Run is everything one phase of a run (warmup or measured) recorded.
// It is plain data: saved by results, merged by merge.
type Run struct {
	Scheduled int64 // reads scheduled (dropped ones included)
	Turns     int64 // turns finished
	Outcomes  Counts
	TurnEnds  [numTurnEnds]int64
	Read      *Histogram // answered reads, intended start → last byte
	Service   *Histogram // answered reads, actual send → last byte
	TTFB      *Histogram // answered reads, actual send → first byte
	Turn      *Histogram
	// TurnBySize holds turn latency by number of attachments.
	TurnBySize map[int]*Histogram
	Classes    []*ClassStats
	Cancel     Cancellation
	Shape      Shape

	WireBytes, DiskBytes, Base64Bytes int64
	Base64Padding                     int64 // '=' characters closing the blobs

	// Timeline is this phase's share of the run's seconds (see
	// MergeTimelines); TimelineBeyond counts samples past TimelineCap.
	Timeline       []SecondStats
	TimelineBeyond int64
}

// TurnEndCount returns how many turns ended e.
func (r *Run) TurnEndCount(e TurnEnd) int64 { return r.TurnEnds[e] }

// NewRun returns an empty Run for the given classes.
func NewRun(classes []ClassInfo) *Run {
	r := &Run{
		Read: NewHistogram(), Service: NewHistogram(), TTFB: NewHistogram(), Turn: NewHistogram(),
		TurnBySize: map[int]*Histogram{},
		Cancel:     Cancellation{CancelToLate: NewHistogram()},
	}
	for _, c := range classes {
		r.Classes = append(r.Classes, &ClassStats{ClassInfo: c, Latency: NewHistogram()})
	}
	return r
}

// Recorder records samples from many goroutines into a Run. One mutex: at
// the rates one generator process reaches (tens of thousands of reads per
// second) it is far from the bottleneck, and it keeps merging trivial.
type Recorder struct {
	mu  sync.Mutex
	run *Run
	tl  timeline
}

// NewRecorder returns a Recorder for the given classes.
func NewRecorder(classes []ClassInfo) *Recorder {
	return &Recorder{run: NewRun(classes)}
}

// Schedule counts n reads as scheduled: call it before they can finish.
func (r *Recorder) Schedule(n int) {
	r.mu.Lock()
	r.run.Scheduled += int64(n)
	r.mu.Unlock()
}

// Read records one finished read.
func (r *Recorder) Read(s ReadSample) {
	r.mu.Lock()
	defer r.mu.Unlock()
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
	if s.Answered {
		run.Read.Record(s.Latency)
		run.Service.Record(s.Service)
		if s.TTFB > 0 {
			run.TTFB.Record(s.TTFB)
		}
		c.Latency.Record(s.Latency)
		c.Cache.add(s)
	}
	run.WireBytes += s.WireBytes
	run.DiskBytes += s.DiskBytes
	run.Base64Bytes += s.Base64Bytes
	run.Base64Padding += s.Base64Padding
	c.WireBytes += s.WireBytes
	c.DiskBytes += s.DiskBytes
	c.Base64Bytes += s.Base64Bytes
	c.Base64Padding += s.Base64Padding
	r.recordTimelineRead(s)
}

// Turn records one finished turn.
func (r *Recorder) Turn(t TurnSample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.run.Turns++
	r.run.TurnEnds[t.End]++
	r.run.Turn.Record(t.Latency)
	if t.Reads > 0 {
		h, ok := r.run.TurnBySize[t.Reads]
		if !ok {
			h = NewHistogram()
			r.run.TurnBySize[t.Reads] = h
		}
		h.Record(t.Latency)
	}
	r.recordTimelineTurn(t)
}

// ReadP99 is the read latency p99 so far, for a progress line.
func (r *Recorder) ReadP99() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.run.Read.Quantile(99)
}

// LateAnswer records an answer that arrived for a cancelled read.
func (r *Recorder) LateAnswer(wireBytes int64, afterCancel time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.run.Cancel.LateAnswers++
	r.run.Cancel.WastedBytes += wireBytes
	r.run.Cancel.CancelToLate.Record(afterCancel)
}

// Shape adds response-shape findings.
func (r *Recorder) Shape(s Shape) {
	r.mu.Lock()
	r.run.Shape.Add(s)
	r.mu.Unlock()
}

// Run returns the recorded data. Call it after every recording goroutine
// has finished; the Recorder must not be used afterwards.
func (r *Recorder) Run() *Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finishTimeline()
	return r.run
}
