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
	if told, through := h.acct.NotifiedThrough(n.URI, n.At); told > 0 {
		h.li.reread(n.URI, through, n.At)
	}
}

// reread starts the re-read of uri, as of its change through, told of at
// at, unless re-reads are off or the run is ending.
func (li *listener) reread(uri string, through int, at time.Time) {
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
		li.rereadAt(l.ctx, uri, through, intended)
	}()
}

// rereadAt waits for intended and reads uri again, unless a cache the
// workload honours answers it (admit).
func (li *listener) rereadAt(ctx context.Context, uri string, through int, intended time.Time) {
	l, r := li.l, li.l.r
	sleepCtx(ctx, time.Until(intended))
	if ctx.Err() != nil {
		return
	}
	send, leads := li.admit(ctx, uri, through, intended)
	if !send {
		return
	}
	rec := r.recorder(intended.Before(l.mStart))
	rec.Schedule(1)
	l.rereads.Add(1)
	l.fresh.Reread(time.Now())
	ttl, scope, done := r.readAgain(ctx, li.live, uri, intended, l.class, rec)
	if ttl > 0 {
		li.ttl.store(uri, done, ttl)
	}
	l.settle(leads, scope)
}

// scopePublic and scopePrivate are the cacheScopes of an answer any
// cache may keep and serve to others, and of one only the requesting
// client's may.
const (
	scopePublic  = "public"
	scopePrivate = "private"
)

// leads are the cache entries a re-read leads (nil: none), settled with
// its answer's scope.
type leads struct{ own, shared *cachedVersion }

// settle settles the entries a re-read led with its answer's cacheScope
// and counts the re-reads sent meanwhile that they answer.
func (l *listeners) settle(t leads, scope string) {
	l.wouldScope.Add(l.cache.settle(t.own, scope == scopePublic || scope == scopePrivate))
	l.wouldScope.Add(l.cache.settle(t.shared, scope == scopePublic))
}

// admit decides whether the re-read of uri as of change through,
// intended at intended, is sent, and counts what the caches save
// (docs/subscriptions.md, re-reads and the cache hints). The listener's
// ttl comes first: while its last answer is fresh by ttlMs, the re-read
// is skipped (honour_ttl) or counted as one the ttl would save, and is
// left out of the scope's count, so no re-read is counted twice. Then
// the caches by cacheScope (rereadCache): the listener's own, then the
// shared one; a re-read they answer is skipped (honour_scope), or sent
// and counted as one they would have answered. send is false for a
// skipped re-read and when ctx ended; a sent re-read settles the entries
// it leads with its answer.
func (li *listener) admit(ctx context.Context, uri string, through int, intended time.Time) (send bool, t leads) {
	l := li.l
	if li.ttl.fresh(uri, intended) {
		if !l.spec.Reread.IgnoreTTL {
			l.skipped.Add(1)
			return false, leads{}
		}
		l.wouldSkip.Add(1)
		return true, leads{}
	}
	own, first := l.cache.join(docVersion{uri: uri, through: through, owner: li})
	if !first { // this listener re-reads a version it re-read: its own cache's
		return l.answeredBy(ctx, own), leads{}
	}
	shared, lead := l.cache.join(docVersion{uri: uri, through: through})
	if lead {
		return true, leads{own: own, shared: shared}
	}
	if send = l.answeredBy(ctx, shared); !send && ctx.Err() == nil {
		l.cache.settle(own, true) // the shared cache's public answer is the listener's now
		return false, leads{}
	}
	if !send { // the run ended: own's followers end too
		l.cache.settle(own, false)
		return false, leads{}
	}
	return true, leads{own: own}
}

// answeredBy handles a re-read that follows the leader of v's entry and
// reports whether it is sent: honouring the scope, it waits for the
// leader and is skipped when its answer answers it (or the run ended);
// not honouring it, it is sent, counted when the answer answers it.
func (l *listeners) answeredBy(ctx context.Context, v *cachedVersion) (send bool) {
	if !l.spec.Reread.HonourScope {
		if l.cache.follow(v) {
			l.wouldScope.Add(1)
		}
		return true
	}
	answers, ok := v.wait(ctx)
	if answers && ok {
		l.skippedScope.Add(1)
	}
	return ok && !answers
}

// readAgain reads uri whole on s as a read of class intended at intended
// and records it: doRead's way, without a turn, its deadline its read
// timeout alone. It returns the answer's cache hints, its ttlMs and its
// cacheScope ("" for none, or no answer), and when it ended.
func (r *runner) readAgain(ctx context.Context, s *live, uri string, intended time.Time, class int, rec *stats.Recorder) (ttl time.Duration, scope string, done time.Time) {
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
	return sample.TTL, sample.CacheScope, now
}
