package driver

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// The two clocks of a turn (docs/measurement.md, turns): the deadline runs
// from the turn's intended start, the read timeout from the moment each
// read is sent. A read the generator could not send before its turn's
// deadline passed is dropped — never sent, so never cancelled or timed —
// and a turn none of whose reads could be sent is a dropped turn.

// runTurn issues a turn's reads in parallel on one session, waits for
// them, and cancels the stragglers at the deadline, counted from the
// turn's intended start. The caller has counted the turn in flight.
func (r *runner) runTurn(ctx context.Context, i uint64, intended time.Time, isWarm bool) {
	defer r.turns.Done()
	defer r.inFlight.Add(-1)
	rec := r.recorder(isWarm)
	atts := r.plan.Turn(i)
	d := r.w.Turn.Deadline
	if d > 0 && !time.Now().Before(intended.Add(d)) {
		r.dropTurn(rec, intended, atts) // the generator got here after the deadline
		return
	}
	r.started.Add(1)
	started := time.Now()
	s := r.sessions[r.o.Segment.Local(i)%uint64(len(r.sessions))]
	rec.Schedule(len(atts))

	// A late answer to any read of the turn is recorded in its phase.
	tctx, cancel := client.WithLate(ctx, rec.LateAnswer), context.CancelFunc(func() {})
	if d > 0 {
		tctx, cancel = context.WithDeadlineCause(tctx, intended.Add(d), errDeadline)
	}
	defer cancel()
	outcomes := make([]stats.Outcome, len(atts))
	ends := make([]time.Time, len(atts))
	var wg sync.WaitGroup
	last := len(atts) - 1
	for k, a := range atts[:last] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcomes[k], ends[k] = r.doRead(tctx, s, intended, a, rec)
		}()
	}
	// The last read runs on the turn's own goroutine: one goroutine (and
	// its stack growth) less per turn, and none for a turn of one read.
	outcomes[last], ends[last] = r.doRead(tctx, s, intended, atts[last], rec)
	wg.Wait()
	rec.Turn(r.turnSample(intended, started, outcomes, ends))
}

// turnSample sums up a turn from its reads: cut when the deadline
// cancelled one, failed when one failed, dropped when none could be sent.
func (r *runner) turnSample(intended, started time.Time, outcomes []stats.Outcome, ends []time.Time) stats.TurnSample {
	t := stats.TurnSample{End: stats.TurnComplete, Intended: intended, Started: started, Ended: time.Now(), Reads: len(outcomes)}
	last, dropped := intended, 0
	for k, o := range outcomes {
		if ends[k].After(last) {
			last = ends[k]
		}
		switch o {
		case stats.Cancelled:
			t.End = stats.TurnCut
		case stats.Dropped:
			dropped++
			fallthrough
		case stats.Transport, stats.Protocol, stats.Timeout:
			if t.End != stats.TurnCut {
				t.End = stats.TurnFailed
			}
		}
	}
	t.Latency = last.Sub(intended)
	switch {
	case dropped == len(outcomes) && dropped > 0:
		t.End, t.Latency, t.LowerBound = stats.TurnDropped, r.turnLimit(), true
	case t.End == stats.TurnCut && r.w.Turn.Deadline > 0:
		t.Latency, t.LowerBound = r.w.Turn.Deadline, true
	}
	return t
}

// turnLimit is where a turn that did not finish is recorded: at the
// deadline, or without one at the read timeout; a lower bound either way.
func (r *runner) turnLimit() time.Duration {
	if d := r.w.Turn.Deadline; d > 0 {
		return d
	}
	return r.w.Turn.ReadTimeout
}

// dropTurn records a turn that never started: its reads are scheduled and
// dropped, and the turn counts as a dropped (failed) turn in every turn
// figure, at its limit — never left out, which would compute the turn tail
// and the advice on the turns that happened to run.
func (r *runner) dropTurn(rec *stats.Recorder, intended time.Time, atts []workload.Attachment) {
	rec.Schedule(len(atts))
	for _, a := range atts {
		rec.Read(stats.ReadSample{Class: a.Class, Outcome: stats.Dropped, End: intended})
	}
	rec.Turn(stats.TurnSample{End: stats.TurnDropped, Latency: r.turnLimit(), LowerBound: true, Intended: intended, Reads: len(atts)})
	r.reads.Add(int64(len(atts)))
	r.errs.Add(int64(len(atts)))
}

// doRead performs one read and records it. It returns the outcome and
// when the read ended.
func (r *runner) doRead(tctx context.Context, s *client.Session, intended time.Time, att workload.Attachment, rec *stats.Recorder) (stats.Outcome, time.Time) {
	sample := stats.ReadSample{Class: att.Class}
	send := time.Now()
	if tctx.Err() != nil && errors.Is(context.Cause(tctx), errDeadline) {
		// The deadline passed before this read could be sent.
		sample.Outcome, sample.End = stats.Dropped, send
		return r.record(rec, sample, att)
	}
	rctx, cancel := context.WithTimeoutCause(tctx, r.w.Turn.ReadTimeout, errReadTimeout)
	defer cancel()
	sample.Sent, sample.Lag = true, send.Sub(intended)
	sample.Fresh = r.fresh.fresh(att.URI, send)
	if s.Documents() != nil || r.chunkOf(att) > 0 {
		return r.readDocument(rctx, s, intended, att, sample, rec) // ranged.go
	}
	var opts []client.ReadOption
	digest := r.digests.want(att.URI)
	if digest {
		opts = append(opts, client.WithDigest())
	}
	a, err := s.Read(rctx, att.URI, opts...)
	now := time.Now()
	switch {
	case err == nil:
		r.cold.Read(a.Sent, a.Done)
		r.answered(&sample, a, att, intended, s.Modern(), rec)
		if digest {
			r.digests.store(att.URI, a.Verdict)
		}
		now = a.Done
	case errors.Is(context.Cause(rctx), errReadTimeout):
		sample.Outcome, sample.LowerBound, sample.Latency = stats.Timeout, true, now.Sub(intended)
		r.abandoned.Add(1)
	case rctx.Err() != nil:
		sample.Outcome = stats.Cancelled // turn deadline, or the run was interrupted
		sample.LowerBound, sample.Latency = true, now.Sub(intended)
		r.abandoned.Add(1)
	case errors.Is(err, client.ErrProtocol):
		sample.Outcome = stats.Protocol // e.g. 202 Accepted for a request
		r.logFailure(att.URI, err.Error())
	default:
		sample.Outcome = stats.Transport
		r.logFailure(att.URI, err.Error())
	}
	sample.End = now
	return r.record(rec, sample, att)
}

// answered fills sample from an answer: its kind, latencies, bytes, shape
// findings and cache hints.
func (r *runner) answered(sample *stats.ReadSample, a *client.Answer, att workload.Attachment, intended time.Time, modern bool, rec *stats.Recorder) {
	v := a.Verdict
	sample.Outcome = outcomeOf(v.Kind)
	sample.Answered = true
	sample.Latency = a.Done.Sub(intended)
	if sample.Outcome == stats.OK {
		sample.FirstUsable = sample.Latency // a JSON answer is usable once whole
	}
	sample.Service = a.Done.Sub(a.Sent)
	if !a.FirstByte.IsZero() {
		sample.TTFB = a.FirstByte.Sub(a.Sent)
	}
	sample.WireBytes, sample.DiskBytes, sample.Base64Bytes = a.WireBytes, v.DiskBytes, v.Base64Bytes
	sample.Base64Padding = v.Padding
	sample.HasTTL, sample.TTL, sample.CacheScope = v.HasTTL, time.Duration(v.TTLMs)*time.Millisecond, v.CacheScope
	r.fresh.store(att.URI, a.Done, sample.TTL)
	switch {
	case v.Kind == client.Unusable:
		r.logFailure(att.URI, "unusable answer: "+v.Detail)
	case (v.Kind == client.Internal || v.Kind == client.RPCError) && applyExpect(sample.Outcome, att.Expect).IsError():
		// The server's own words say why (a message cap, a crash in its
		// handler): what a size sweep reports as the cause.
		r.logFailure(att.URI, v.Detail)
	}
	if v.Shape != (client.Shape{}) {
		rec.Shape(stats.Shape(v.Shape))
	}
}

// record applies the class's expectation, records the read and counts it
// for the progress line.
func (r *runner) record(rec *stats.Recorder, sample stats.ReadSample, att workload.Attachment) (stats.Outcome, time.Time) {
	sample.Outcome = applyExpect(sample.Outcome, att.Expect)
	rec.Read(sample)
	r.reads.Add(1)
	if sample.Outcome.IsError() {
		r.errs.Add(1)
	}
	return sample.Outcome, sample.End
}

// startProgress calls Options.Progress once a second until the returned
// stop function is called; stop waits for the goroutine to end.
func (r *runner) startProgress(ctx context.Context, start time.Time) (stop func()) {
	if r.o.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				el := now.Sub(start)
				r.o.Progress(Progress{
					Elapsed: el, Total: r.w.Load.Warmup + r.w.Load.Length(), Warmup: el < r.w.Load.Warmup,
					Turns: r.started.Load(), Reads: r.reads.Load(), Errors: r.errs.Load(), InFlight: r.inFlight.Load(),
					P99: r.measured.ReadP99(),
				})
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
