package driver

import (
	"context"
	"sync"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// A stream's life (docs/subscriptions.md, stream life): a 2026-07-28
// listen stream is not resumable, so when one ends without readbench
// closing it (the server ended it, or the connection dropped: a proxy's
// idle timeout looks the same as a server going away, so who cut it is
// not told apart) the listener listens again after a short backoff, as a
// host would: a reconnect, asked and acknowledged like any stream, its
// acknowledgement timed again. The changes made meanwhile are lost in the
// gap (stats.Subscription.Dropped). In the legacy era the client reopens
// a Streamable HTTP session's standalone GET stream itself, after the
// server's retry and with Last-Event-ID; its gaps are given to the
// accounting at the run's end, where a change made in one and never told
// is lost in the gap, and a replayed one notified (or a duplicate, when
// replayed twice).

// relistenBackoff is the wait before the first re-listen after a drop;
// each failed one doubles it, up to relistenTries tries.
const (
	relistenBackoff = 100 * time.Millisecond
	relistenTries   = 3
)

// ended is h's client.SubscribeSpec.OnEnd: a subscription that ended
// without readbench closing it is closed in the accounting then (what
// follows is lost in its gap), and in the 2026-07-28 era listened again
// (a legacy subscription ends only when its session's stream is gone for
// good: the HTTP+SSE or stdio session itself, or a standalone stream that
// could not be reopened). It runs on the goroutine that ended the
// subscription, so it only starts the re-listen.
func (h *heldSub) ended(e client.Ending) {
	if e.Reason == client.EndClosed {
		return
	}
	h.mu.Lock()
	if h.acct == nil { // acknowledged and ended before subscribe took it
		h.endedEarly = &e
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	h.acct.Dropped(e.At)
	if h.li.s.Modern() {
		h.li.l.relisten(h)
	}
}

// relisten listens again for h's listener after h dropped, unless the
// run is ending; the listeners' wait group owns the goroutine.
func (l *listeners) relisten(h *heldSub) {
	l.mu.Lock()
	if l.closing || l.relistenCtx == nil {
		l.mu.Unlock()
		return
	}
	l.wg.Add(1)
	l.mu.Unlock()
	go func() {
		defer l.wg.Done()
		ctx := l.relistenCtx
		wait := relistenBackoff
		for range relistenTries {
			sleepCtx(ctx, wait)
			if ctx.Err() != nil {
				return
			}
			l.reconnects.Add(1)
			l.streamsAsked.Add(1)
			if l.subscribe(ctx, h.li, h) {
				return
			}
			wait *= 2
		}
	}()
}

// stopRelisten ends the re-listens in flight.
func (l *listeners) stopRelisten() {
	if l.relistenEnd != nil {
		l.relistenEnd()
	}
}

// streamGaps gives each legacy subscription the gaps of its session's
// standalone stream (client.Session.StreamLife).
func (l *listeners) streamGaps(members []*listener, subs []*heldSub) {
	gaps := map[*listener][]client.StreamGap{}
	for _, li := range members {
		if !li.s.Modern() {
			if g := li.s.StreamLife().Gaps; len(g) > 0 {
				gaps[li] = g
			}
		}
	}
	for _, h := range subs {
		for _, g := range gaps[h.li] {
			h.acct.Gap(g.From, g.To)
		}
	}
}

// endAll ends subs in the accounting at end, counts how each had ended
// (still open: closed by readbench), and closes them.
func (l *listeners) endAll(ctx context.Context, out *stats.Listening, subs []*heldSub, end time.Time) {
	for _, h := range subs {
		h.acct.End(end)
	}
	for _, h := range subs {
		switch h.sub.End().Reason {
		case client.EndServer:
			out.Streams.Ended.Server++
		case client.EndRefused:
			out.Streams.Ended.Refused++
		case client.EndDropped:
			out.Streams.Ended.Dropped++
		default:
			out.Streams.Ended.Closed++
		}
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	var closing sync.WaitGroup
	for _, h := range subs {
		closing.Go(func() { _ = h.sub.Close(cctx) })
	}
	closing.Wait()
}

// streamLife records, once every subscription ended, each one's lifetime
// (its acknowledgement to its end), the keep-alives their streams and
// the sessions' standalone streams carried, and the reconnects.
func (l *listeners) streamLife(out *stats.Listening, members []*listener, subs []*heldSub) {
	for _, h := range subs {
		e := h.sub.End()
		if e.Reason == client.EndNone {
			continue
		}
		_, ack := h.sub.AckTimes()
		out.Lifetime.Record(max(e.At.Sub(ack), 0))
		out.Streams.KeepAlives += h.sub.KeepAlives()
	}
	out.Streams.Reconnects = l.reconnects.Load()
	for _, li := range members {
		life := li.s.StreamLife()
		out.Streams.KeepAlives += life.KeepAlives
		out.Streams.Reconnects += life.Reconnects
	}
}
