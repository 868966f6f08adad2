package ab

import (
	"sync"
	"time"

	"github.com/readbench/readbench/stats"
)

// Samples are one side's measured reads and turns of one round, as its run
// records them (a stats.Observer of its measured phase): where each fell
// in the schedule and what it measured, so that the round can be cut into
// windows of the schedule both sides ran at the same instants
// (windows.go). A read costs 40 bytes here; a round of 5 s at 10,000
// reads/s is 2 MB a side, dropped once the round is reduced to windows.
type Samples struct {
	mu      sync.Mutex
	start   time.Time
	classes []string
	reads   []readRec
	turns   []turnRec
}

// readRec is one read: its intended start from the schedule's start, its
// latencies in ms and which of them it has (the histograms it went to).
type readRec struct {
	at                     time.Duration
	latency, service, ttfb float32
	class                  int32
	outcome                stats.Outcome
	in                     uint8
}

// What a read measured (readRec.in), as the result's blocks take it
// (docs/measurement.md): read latency for a read answered or cut, ok for
// an ok answer, service for any answer, ttfb when its first byte was timed.
const (
	inRead uint8 = 1 << iota
	inOK
	inService
	inTTFB
)

// turnRec is one turn: its intended start and latency (ms).
type turnRec struct {
	at      time.Duration
	latency float32
}

// SetClasses names the classes, in the order of stats.ReadSample.Class.
func (s *Samples) SetClasses(classes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.classes = classes
}

// Start sets the instant the schedule started.
func (s *Samples) Start(at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.start = at
}

// ObserveRead keeps a read of the measured phase (stats.Observer). A read
// with no end (never placed on the timeline) has no intended start to
// place it by, and is left out.
func (s *Samples) ObserveRead(r stats.ReadSample) {
	if r.End.IsZero() {
		return
	}
	rec := readRec{latency: ms(r.Latency), class: int32(r.Class), outcome: r.Outcome}
	if r.Answered || r.LowerBound {
		rec.in |= inRead
	}
	if r.Answered {
		rec.in |= inService
		rec.service = ms(r.Service)
		if r.Outcome == stats.OK {
			rec.in |= inOK
		}
		if r.TTFB > 0 {
			rec.in |= inTTFB
			rec.ttfb = ms(r.TTFB)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.at = r.End.Add(-r.Latency).Sub(s.start)
	s.reads = append(s.reads, rec)
}

// ObserveTurn keeps a turn of the measured phase (stats.Observer).
func (s *Samples) ObserveTurn(t stats.TurnSample) {
	if t.Intended.IsZero() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turnRec{at: t.Intended.Sub(s.start), latency: ms(t.Latency)})
}

// ms is d in milliseconds.
func ms(d time.Duration) float32 { return float32(float64(d) / float64(time.Millisecond)) }

// Observe is the driver's Options.Observe for this side's run: next's
// observers (the run's live metrics; nil: none), with the round's Samples
// told every read and turn of the measured phase too, its classes named as
// the run names them (stats.Ready). It exists so that a command hands the
// driver ab's windows as a value, never composing stats observers itself.
func (r SideRun) Observe(next func(stats.Ready) (warmup, measured stats.Observer)) func(stats.Ready) (warmup, measured stats.Observer) {
	return func(rd stats.Ready) (warmup, measured stats.Observer) {
		names := make([]string, len(rd.Classes))
		for i, cl := range rd.Classes {
			names[i] = cl.Name
		}
		r.Samples.SetClasses(names)
		if next != nil {
			warmup, measured = next(rd)
		}
		return warmup, stats.Tee(measured, r.Samples)
	}
}
