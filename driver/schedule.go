package driver

import (
	"errors"
	"fmt"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// Schedule is an explicit open-loop schedule (readbench replay): the
// turns a run sends, each at its own offset from the run's start, on its
// own session, with its own reads, instead of the ones the workload's
// pacer and plan would draw. Everything else is any run's: latency from
// each turn's intended start, its lag, the deadline and timeout, drops at
// max_in_flight, the result.
type Schedule struct {
	// Turns in order of At.
	Turns []ScheduledTurn
	// Digest asks every read for its digest (client.ReadSpec.Digest),
	// not only the first of each URI: what Told is given then carries one.
	Digest bool
	// Told, when set, is told of every read sent once its outcome is
	// decided, with the client's answer (nil when the read ended without
	// one: cut, timed out). Called from the run's goroutines, at the same
	// time for reads in flight together.
	Told func(uri string, outcome stats.Outcome, a *client.Answer)
}

// ScheduledTurn is one turn of a Schedule.
type ScheduledTurn struct {
	At time.Duration // from the run's start
	// Session picks the session the turn is sent on: Session modulo the
	// sessions that connected.
	Session int
	// Reads are the turn's attachments (their classes index the
	// workload's mix).
	Reads []workload.Attachment
}

// check refuses a schedule the runner cannot keep.
func (s *Schedule) check(w *workload.Workload, seg workload.Segment) error {
	switch {
	case seg.N > 1:
		return errors.New("driver: an explicit schedule is not sharded (--segment)")
	case w.Load.Model == workload.ModelClosed:
		return errors.New("driver: an explicit schedule is an open-model run")
	}
	var prev time.Duration
	for i, t := range s.Turns {
		if t.At < prev || len(t.Reads) == 0 || t.Session < 0 {
			return fmt.Errorf("driver: schedule turn %d: turns go in order of time, each with a read and a session", i)
		}
		prev = t.At
		for _, a := range t.Reads {
			if a.Class < 0 || a.Class >= len(w.Mix) {
				return fmt.Errorf("driver: schedule turn %d: class %d is not in the mix", i, a.Class)
			}
		}
	}
	return nil
}

// schedulePacer keeps an explicit schedule's times.
type schedulePacer struct {
	turns []ScheduledTurn
	k     int
}

func (p *schedulePacer) next() (time.Duration, bool) {
	if p.k >= len(p.turns) {
		return 0, false
	}
	p.k++
	return p.turns[p.k-1].At, true
}

// turnReads appends turn i's attachments to dst: the schedule's, else
// the plan's.
func (r *runner) turnReads(dst []workload.Attachment, i uint64) []workload.Attachment {
	if s := r.o.Schedule; s != nil {
		return append(dst, s.Turns[i].Reads...)
	}
	return r.plan.AppendTurn(dst, i)
}

// slotOf is the session slot turn i is sent on.
func (r *runner) slotOf(i uint64) *slot { return r.slots[r.slotIndex(i)] }

// slotIndex is the index of turn i's session slot, which its reads'
// samples carry (stats.ReadSample.Session).
func (r *runner) slotIndex(i uint64) int {
	if s := r.o.Schedule; s != nil {
		return int(uint64(s.Turns[i].Session) % uint64(len(r.slots)))
	}
	return int(r.o.Segment.Local(i) % uint64(len(r.slots)))
}

// wantDigest says whether a read of uri asks for a digest.
func (r *runner) wantDigest(uri string) bool {
	want := r.digests.want(uri) // first: it counts the URI
	return want || (r.o.Schedule != nil && r.o.Schedule.Digest)
}

// told tells the schedule of a read sent (see Schedule.Told).
func (r *runner) told(uri string, o stats.Outcome, a *client.Answer, err error) {
	if s := r.o.Schedule; s != nil && s.Told != nil {
		if err != nil {
			a = nil
		}
		s.Told(uri, o, a)
	}
}

// scheduleRate is the rate a schedule asks for: its turns over the
// run's length (the turns are all in it), else over its span.
func scheduleRate(s *Schedule, length time.Duration) float64 {
	if len(s.Turns) == 0 {
		return 0
	}
	if length <= 0 {
		length = s.Turns[len(s.Turns)-1].At - s.Turns[0].At
	}
	if length <= 0 {
		return 0
	}
	return float64(len(s.Turns)) / length.Seconds()
}

// scheduleTurns is the explicit schedule's turns (nil: none).
func (r *runner) scheduleTurns() []ScheduledTurn {
	if r.o.Schedule == nil {
		return nil
	}
	return r.o.Schedule.Turns
}

// askedRate is the rate the run asks for: the schedule's, else the
// load's, shared among the shards.
func (r *runner) askedRate() float64 {
	if r.o.Schedule != nil {
		return scheduleRate(r.o.Schedule, r.w.Load.Length())
	}
	return askedRate(r.w.Load) / float64(max(r.o.Segment.N, 1))
}
