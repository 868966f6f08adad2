package driver

import (
	"context"
	"sync"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// The two clocks of a turn (docs/measurement.md, turns): the deadline runs
// from the turn's intended start, the read timeout from the moment each
// read is sent. A read the generator could not send before its turn's
// deadline passed is dropped — never sent, so never cancelled or timed —
// and a turn none of whose reads could be sent is a dropped turn.
//
// Both are a read's own deadline (client.ReadSpec.Deadline), whichever
// comes first, with its cause: no context per turn. Over plain http that
// deadline is the connection's, at no cost per read; and a turn's end
// costs its connections nothing (a context per turn, ended as the turn
// ended, would also end the idle connections that watched it).

// runTurn issues a turn's reads in parallel on one session, waits for
// them, and cancels the stragglers at the deadline, counted from the
// turn's intended start. The caller has counted the turn in flight.
func (r *runner) runTurn(ctx context.Context, i uint64, intended time.Time, isWarm bool) {
	defer r.turns.Done()
	defer r.inFlight.Add(-1)
	rec := r.recorder(isWarm)
	var one [1]workload.Attachment // a turn of one read: its attachment on the stack
	atts := r.turnReads(one[:0], i)
	if now := time.Now(); r.pastDeadline(intended, now) {
		r.dropTurn(rec, i, intended, now, atts) // the generator got here after the deadline
		return
	}
	rec.Schedule(len(atts))
	sl := r.slotOf(i)
	s := r.acquire(ctx, sl, rec) // with churn, may wait for a new session (churn.go)
	defer r.release(sl, s)
	r.started.Add(1)
	started := time.Now()

	// A late answer to any read of the turn is recorded in its phase.
	tctx := r.lateContext(ctx, rec)
	trace := r.tracing.turnTrace() // one trace a turn, a span a read (traces.go)
	at := turnAt{turn: i, session: r.slotIndex(i), intended: intended}
	if len(atts) == 1 {
		// A turn of one read: on the turn's goroutine, its outcome and
		// end on the stack (the slices below escape to the goroutines).
		o, end := r.doRead(tctx, s, at, trace, atts[0], rec)
		rec.Turn(r.turnSample(intended, started, []stats.Outcome{o}, []time.Time{end}))
		return
	}
	outcomes := make([]stats.Outcome, len(atts))
	ends := make([]time.Time, len(atts))
	var wg sync.WaitGroup
	last := len(atts) - 1
	for k, a := range atts[:last] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcomes[k], ends[k] = r.doRead(tctx, s, at, trace, a, rec)
		}()
	}
	// The last read runs on the turn's own goroutine: one goroutine (and
	// its stack growth) less per turn, and none for a turn of one read.
	outcomes[last], ends[last] = r.doRead(tctx, s, at, trace, atts[last], rec)
	wg.Wait()
	rec.Turn(r.turnSample(intended, started, outcomes, ends))
}

// turnAt is which turn a read belongs to: its index in the schedule, its
// session slot and its intended start, what each of its samples carries.
type turnAt struct {
	turn     uint64
	session  int
	intended time.Time
}

// pastDeadline reports whether a turn intended at intended is past its
// deadline at now (never without a deadline).
func (r *runner) pastDeadline(intended, now time.Time) bool {
	d := r.w.Turn.Deadline
	return d > 0 && !now.Before(intended.Add(d))
}

// readDeadline is when a read sent at send ends, and why: its timeout,
// or its turn's deadline when that comes first.
func (r *runner) readDeadline(intended, send time.Time) (time.Time, error) {
	at := send.Add(r.w.Turn.ReadTimeout)
	if d := r.w.Turn.Deadline; d > 0 && intended.Add(d).Before(at) {
		return intended.Add(d), errDeadline
	}
	return at, errReadTimeout
}

// lateCtx is a run context with late answers recorded in a recorder.
type lateCtx struct {
	parent context.Context
	rec    *stats.Recorder
	ctx    context.Context
}

// lateContext is ctx with late answers recorded in rec (client.WithLate):
// made once for each phase of the run, which every turn of it shares,
// not once per turn.
func (r *runner) lateContext(ctx context.Context, rec *stats.Recorder) context.Context {
	if lc := r.late.Load(); lc != nil && lc.parent == ctx && lc.rec == rec {
		return lc.ctx
	}
	lc := &lateCtx{parent: ctx, rec: rec, ctx: client.WithLate(ctx, rec.Late)}
	r.late.Store(lc)
	return lc.ctx
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
		case stats.Transport, stats.Protocol, stats.Timeout, stats.Unauthorized:
			if t.End != stats.TurnCut {
				t.End = stats.TurnFailed
			}
		}
	}
	t.Latency = last.Sub(intended)
	switch {
	case dropped == len(outcomes) && dropped > 0:
		t.End, t.Latency, t.LowerBound = stats.TurnDropped, r.w.Turn.Limit(), true
	case t.End == stats.TurnCut && r.w.Turn.Deadline > 0:
		t.Latency, t.LowerBound = r.w.Turn.Deadline, true
	}
	return t
}

// dropTurn records a turn that never started: its reads are scheduled and
// dropped, and the turn counts as a dropped (failed) turn in every turn
// figure, at its limit — never left out, which would compute the turn tail
// and the advice on the turns that happened to run. A turn dropped at now
// because its deadline had passed (now is zero for one dropped at
// max_in_flight, on time) was that late: its reads carry the lateness as
// their scheduling lag (docs/measurement.md, scheduling lag).
func (r *runner) dropTurn(rec *stats.Recorder, i uint64, intended, now time.Time, atts []workload.Attachment) {
	rec.Schedule(len(atts))
	var lag time.Duration
	if !now.IsZero() {
		lag = now.Sub(intended)
	}
	for _, a := range atts {
		rec.Read(stats.ReadSample{Class: a.Class, Outcome: outcomeOf(nil, readFacts{expect: a.Expect}), End: intended, Lag: lag,
			URI: a.URI, Intended: intended, Turn: i, Session: r.slotIndex(i)})
	}
	rec.Turn(stats.TurnSample{End: stats.TurnDropped, Latency: r.w.Turn.Limit(), LowerBound: true, Intended: intended, Reads: len(atts)})
	r.reads.Add(int64(len(atts)))
	r.errs.Add(int64(len(atts)))
}

// doRead performs one read and records it: the one place a read's
// answer becomes a sample, however the document is read (the client chose
// the way at connect time), its outcome decided once from the answer and
// the run's facts (outcomeOf). It returns the outcome and when the read
// ended.
func (r *runner) doRead(tctx context.Context, s *live, at turnAt, trace protocol.TraceID, att workload.Attachment, rec *stats.Recorder) (stats.Outcome, time.Time) {
	intended := at.intended
	sample := stats.ReadSample{Class: att.Class, URI: att.URI, Intended: intended, Turn: at.turn, Session: at.session}
	send := time.Now()
	sample.Lag = send.Sub(intended)
	if r.pastDeadline(intended, send) {
		// The deadline passed before this read could be sent: dropped,
		// and that late.
		sample.Outcome, sample.End = outcomeOf(nil, readFacts{expect: att.Expect}), send
		return r.record(rec, sample)
	}
	sample.Sent, sample.Trace = true, trace
	sample.FirstOnSession = s.claimFirst()
	sample.Fresh = r.fresh.fresh(att.URI, send)
	digest := r.wantDigest(att.URI)
	deadline, cause := r.readDeadline(intended, send)
	tp := readTrace(trace)
	sample.Span = tp.Span
	a, err := s.conn.ReadDocument(tctx, att.URI, client.ReadSpec{
		Chunk: r.chunkOf(att), MaxBytes: r.w.Turn.MaxAnswer, Digest: digest,
		Deadline: deadline, DeadlineCause: cause, Trace: tp,
	})
	now := a.Done // an answer's end is what answered returns: no clock read for it
	if err != nil || now.IsZero() {
		now = time.Now()
	}
	// What arrived counts, also of a read cut before its end.
	sample.ByteCounts, sample.Chunks = a.ByteCounts, a.Parts
	sample.Unreached = a.Unreached // its trace context reached no one
	facts := readFacts{sent: true, err: err, expect: att.Expect}
	sample.Outcome = outcomeOf(a, facts)
	sample.Settled, sample.Unsettled = settledOf(a, facts)
	r.told(att.URI, sample.Outcome, a, err)
	if err == nil {
		r.readResult(a, att)
		now = r.answered(&sample, a, att, intended, send, now, rec)
		if digest {
			r.digests.store(att.URI, a)
		}
	} else {
		// Its timeout, its turn's deadline or the run's end cut it: a lower
		// bound, at the cut.
		sample.LowerBound, sample.Latency = true, now.Sub(intended)
		r.abandoned.Add(1)
	}
	sample.End = now
	sample.Broke = r.tracing.broke(att.Class, sample.LowerBound, sample.Latency)
	return r.record(rec, sample)
}

// answered fills sample, whose outcome is decided (outcomeOf), from a
// read that ended without its context ending: its latencies, shape
// findings and cache hints, and logs why it failed. send and now are the read's send and end as the
// run saw them, for a read that failed before a part was sent. It returns
// when the read ended.
func (r *runner) answered(sample *stats.ReadSample, a *client.Answer, att workload.Attachment, intended, send, now time.Time, rec *stats.Recorder) time.Time {
	if a.Sent.IsZero() {
		a.Sent = send
	}
	if a.Done.IsZero() {
		a.Done = now
	}
	sample.Answered, sample.FreshToken, sample.NoToken = a.Answered, a.FreshToken, a.NoToken
	sample.Latency, sample.Service = a.Done.Sub(intended), a.Done.Sub(a.Sent)
	if !a.FirstByte.IsZero() {
		sample.TTFB = a.FirstByte.Sub(a.Sent)
	}
	if a.Outcome == stats.OK && !a.FirstUsable.IsZero() {
		sample.FirstUsable = a.FirstUsable.Sub(intended)
	}
	sample.HasTTL, sample.TTL, sample.CacheScope = a.HasTTL, time.Duration(a.TTLMs)*time.Millisecond, a.CacheScope
	if a.Answered {
		r.cold.Read(a.Sent, a.Done)
		r.fresh.store(att.URI, a.Done, sample.TTL)
	}
	r.authLost.read(a.Outcome == stats.Unauthorized, a.NoToken, a.Done, a.Detail)
	switch {
	case a.Outcome == stats.Protocol || a.Outcome == stats.Transport || a.Outcome == stats.Unauthorized:
		r.logFailure(att.URI, a.Detail)
	case a.WordedMissing && r.o.Logf != nil:
		r.misused.Do(func() {
			r.o.Logf("the server answered a read with -32601 Method not found worded as a missing resource (%s): "+
				"if it answers any read with a result, such reads count as not_found (the server misuses the code), else as method_not_found", a.Detail)
		})
	case a.Outcome == stats.MethodNotFound && r.o.Logf != nil:
		// One fact about the server, not about any read: said once.
		r.noMethod.Do(func() {
			r.o.Logf("the server does not implement the method readbench reads with (%s): every such read is method_not_found", a.Detail)
		})
	case (a.Outcome == stats.Internal || a.Outcome == stats.RPCError) && sample.Outcome.IsError():
		// The server's own words say why (a message cap, a crash in its
		// handler): what a size sweep reports as the cause.
		r.logFailure(att.URI, a.Detail)
	}
	if a.Shape != (stats.Shape{}) {
		rec.Shape(a.Shape)
	}
	return a.Done
}

// record records the read, its outcome decided (outcomeOf), and counts
// it for the progress line.
func (r *runner) record(rec *stats.Recorder, sample stats.ReadSample) (stats.Outcome, time.Time) {
	rec.Read(sample)
	r.reads.Add(1)
	if sample.Outcome.IsError() {
		r.errs.Add(1)
	}
	return sample.Outcome, sample.End
}

// readResult notes a read answered with a result by resources/read (a
// whole read over MCP: ok or input_required): the server implements the
// method, so its -32601 answers worded as a missing resource are its
// misuse of the code, settled at the run's end (Recorder.Settle).
func (r *runner) readResult(a *client.Answer, att workload.Attachment) {
	if (a.Outcome == stats.OK || a.Outcome == stats.InputRequired) && r.chunkOf(att) == 0 && !r.implemented.Load() {
		r.implemented.Store(true)
	}
}
