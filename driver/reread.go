package driver

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// Re-reads: a listener told that a document changed reads it again on its
// own session, as a host keeping its attachment fresh does, after a draw
// of listen.reread.jitter. They are recorded as reads of a class of
// their own (rereadClassName), in the phase their intended start falls
// in, with latency from that intended start (the notification's arrival
// plus the jitter), so they have outcomes, latency and a place in the
// accounting identity like any read, and a re-read the generator sends
// late carries its lag.

// rereadClassName is the re-reads' class name: "reread", unless the mix
// has a class of that name.
func rereadClassName(w *workload.Workload) string {
	name := "reread"
	for slices.ContainsFunc(w.Mix, func(c workload.Class) bool { return c.Name == name }) {
		name = "listen-" + name
	}
	return name
}

// on is the subscription's notification function, on the stream's reader:
// it counts the flags and hands the notification to the accounting (or
// keeps it until the acknowledgement is recorded). Cheap: a lock, a
// lookup, and for a change a goroutine for its re-read.
func (h *heldSub) on(n client.Notification) {
	l := h.li.l
	for f := uint16(n.Flags); f != 0; f &= f - 1 {
		if i := bits.TrailingZeros16(f); i < len(l.flags) {
			l.flags[i].Add(1)
		}
	}
	h.mu.Lock()
	if h.acct == nil {
		if len(h.early) < maxEarly {
			h.early = append(h.early, n)
		}
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	h.notified(n)
}

// notified matches an updated notification to the changes it tells of,
// and starts the re-read when it told of one.
func (h *heldSub) notified(n client.Notification) {
	if n.Method != protocol.NotifyResourceUpdated {
		return
	}
	if h.acct.Notified(n.URI, n.At) > 0 {
		h.li.reread(n.URI, n.At)
	}
}

// reread starts the re-read of uri told of at at, unless re-reads are off
// or the run is ending.
func (li *listener) reread(uri string, at time.Time) {
	l := li.l
	if l.class < 0 {
		return
	}
	intended := at
	if j := l.spec.Reread.Jitter; j != nil {
		intended = at.Add(time.Duration(j.Sample(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))))
	}
	l.mu.Lock()
	if l.closing {
		l.mu.Unlock()
		return
	}
	l.wg.Add(1)
	l.mu.Unlock()
	go func() {
		defer l.wg.Done()
		li.rereadAt(l.ctx, uri, intended)
	}()
}

// rereadAt waits for intended and reads uri again, unless the listener's
// last answer of it is still fresh by its ttlMs and the workload honours
// it.
func (li *listener) rereadAt(ctx context.Context, uri string, intended time.Time) {
	l, r := li.l, li.l.r
	sleepCtx(ctx, time.Until(intended))
	if ctx.Err() != nil {
		return
	}
	if li.ttl.fresh(uri, intended) {
		if !l.spec.Reread.IgnoreTTL {
			l.skipped.Add(1)
			return
		}
		l.wouldSkip.Add(1)
	}
	rec := r.recorder(intended.Before(l.mStart))
	rec.Schedule(1)
	l.rereads.Add(1)
	l.fresh.Reread(time.Now())
	if ttl, done := r.readAgain(ctx, li.live, uri, intended, l.class, rec); ttl > 0 {
		li.ttl.store(uri, done, ttl)
	}
}

// readAgain reads uri whole on s as a read of class intended at intended
// and records it: doRead's way, without a turn, its deadline its read
// timeout alone. It returns the answer's ttlMs and when it ended.
func (r *runner) readAgain(ctx context.Context, s *live, uri string, intended time.Time, class int, rec *stats.Recorder) (time.Duration, time.Time) {
	att := workload.Attachment{Class: class, URI: uri}
	sample := stats.ReadSample{Class: class, URI: uri, Intended: intended}
	send := time.Now()
	sample.Lag, sample.Sent = send.Sub(intended), true
	sample.Fresh = r.fresh.fresh(uri, send)
	a, err := s.conn.ReadDocument(r.lateContext(ctx, rec), uri, client.ReadSpec{
		MaxBytes: r.w.Turn.MaxAnswer, Deadline: send.Add(r.w.Turn.ReadTimeout), DeadlineCause: errReadTimeout,
	})
	now := a.Done
	if err != nil || now.IsZero() {
		now = time.Now()
	}
	sample.ByteCounts = a.ByteCounts
	facts := readFacts{sent: true, err: err}
	sample.Outcome = outcomeOf(a, facts)
	sample.Settled, sample.Unsettled = settledOf(a, facts)
	if err == nil {
		r.readResult(a, att)
		now = r.answered(&sample, a, att, intended, send, now, rec)
	} else {
		sample.LowerBound, sample.Latency = true, now.Sub(intended)
		r.abandoned.Add(1)
	}
	sample.End = now
	sample.Broke = sample.LowerBound
	r.record(rec, sample)
	return sample.TTL, now
}
