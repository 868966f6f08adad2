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

// runTurn issues a turn's reads in parallel on one session, waits for
// them, and cancels the stragglers at the deadline, counted from the
// turn's intended start.
func (r *runner) runTurn(ctx context.Context, i uint64, intended time.Time, isWarm bool) {
	defer r.turns.Done()
	r.inFlight.Add(1)
	defer r.inFlight.Add(-1)
	r.started.Add(1)
	started := time.Now()
	rec := r.recorder(isWarm)
	s := r.sessions[i%uint64(len(r.sessions))]
	atts := r.plan.Turn(i)
	rec.Schedule(len(atts))

	tctx, cancel := ctx, context.CancelFunc(func() {})
	if d := r.w.Turn.Deadline; d > 0 {
		tctx, cancel = context.WithDeadlineCause(ctx, intended.Add(d), errDeadline)
	}
	defer cancel()
	outcomes := make([]stats.Outcome, len(atts))
	ends := make([]time.Time, len(atts))
	var wg sync.WaitGroup
	for k, a := range atts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcomes[k], ends[k] = r.doRead(tctx, s, intended, a, rec)
		}()
	}
	wg.Wait()

	t := stats.TurnSample{End: stats.TurnComplete, Intended: intended, Started: started, Ended: time.Now(), Reads: len(atts)}
	last := intended
	for k, o := range outcomes {
		if ends[k].After(last) {
			last = ends[k]
		}
		switch o {
		case stats.Cancelled:
			t.End = stats.TurnCut
		case stats.Transport, stats.Protocol, stats.Timeout:
			if t.End != stats.TurnCut {
				t.End = stats.TurnFailed
			}
		}
	}
	t.Latency = last.Sub(intended)
	if t.End == stats.TurnCut && r.w.Turn.Deadline > 0 {
		t.Latency = r.w.Turn.Deadline
	}
	rec.Turn(t)
}

// doRead performs one read and records it. It returns the outcome and
// when the read ended.
func (r *runner) doRead(tctx context.Context, s *client.Session, intended time.Time, att workload.Attachment, rec *stats.Recorder) (stats.Outcome, time.Time) {
	rctx, cancel := context.WithTimeoutCause(tctx, r.w.Turn.ReadTimeout, errReadTimeout)
	defer cancel()
	fresh := r.fresh.fresh(att.URI, time.Now())
	a, err := s.Read(rctx, att.URI)
	now := time.Now()
	sample := stats.ReadSample{Class: att.Class, Fresh: fresh}
	switch {
	case err == nil:
		r.cold.Read(a.Sent, a.Done)
		v := client.Classify(a.Body, att.URI, s.Modern())
		sample.Outcome = outcomeOf(v.Kind)
		sample.Answered = true
		sample.Latency = a.Done.Sub(intended)
		sample.Service = a.Done.Sub(a.Sent)
		if !a.FirstByte.IsZero() {
			sample.TTFB = a.FirstByte.Sub(a.Sent)
		}
		sample.WireBytes, sample.DiskBytes, sample.Base64Bytes = a.WireBytes, v.DiskBytes, v.Base64Bytes
		sample.Base64Padding = v.Padding
		sample.HasTTL, sample.TTL, sample.CacheScope = v.HasTTL, time.Duration(v.TTLMs)*time.Millisecond, v.CacheScope
		r.fresh.store(att.URI, a.Done, sample.TTL)
		if v.Kind == client.Unusable {
			r.logFailure(att.URI, "unusable answer: "+v.Detail)
		}
		if v.Shape != (client.Shape{}) {
			rec.Shape(stats.Shape(v.Shape))
		}
		now = a.Done
	case errors.Is(context.Cause(rctx), errReadTimeout):
		sample.Outcome = stats.Timeout
	case rctx.Err() != nil:
		sample.Outcome = stats.Cancelled // turn deadline, or the run was interrupted
		r.cancelled.Add(1)
	case errors.Is(err, client.ErrProtocol):
		sample.Outcome = stats.Protocol // e.g. 202 Accepted for a request
		r.logFailure(att.URI, err.Error())
	default:
		sample.Outcome = stats.Transport
		r.logFailure(att.URI, err.Error())
	}
	sample.Outcome = applyExpect(sample.Outcome, att.Expect)
	sample.End = now
	rec.Read(sample)
	r.reads.Add(1)
	if sample.Outcome.IsError() {
		r.errs.Add(1)
	}
	return sample.Outcome, now
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
