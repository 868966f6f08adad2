package contract

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
)

// Timing of the cancellation check. A host cancels stragglers at its turn
// deadline; the check cancels early (50 ms) in a read that takes much
// longer, then watches long enough for a server that ignored the cancel to
// have answered anyway.
const (
	cancelAfter   = 50 * time.Millisecond
	raceWindow    = 5 * time.Millisecond // an answer this close to the cancel may have been on the wire already
	cancelWatch   = time.Second
	maxWatch      = 10 * time.Second
	slowEnough    = 50 * time.Millisecond // a sampled read slower than this can be cancelled
	simCancelURI  = "sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=500ms"
	simCancelTime = 500 * time.Millisecond
)

// cancelTarget picks the read to cancel and how long it takes uncancelled
// (0 when unknown), or says why there is none.
func (c *checker) cancelTarget() (uri string, takes time.Duration, why string) {
	switch {
	case c.o.CancelURI != "":
		return c.o.CancelURI, 0, ""
	case c.sim:
		return simCancelURI, simCancelTime, ""
	case c.slowest.latency > slowEnough:
		return c.slowest.uri, c.slowest.latency, ""
	}
	return "", 0, fmt.Sprintf("no slow resource to cancel: no sampled read took more than %s (give --cancel-uri)", slowEnough)
}

// cancellation issues a slow read, cancels it the way the transport and
// era say, and watches for an answer that should not come.
func (c *checker) cancellation(ctx context.Context) {
	uri, takes, why := c.cancelTarget()
	if uri == "" {
		c.rep.add("cancellation", Skip, "", why)
		return
	}
	at, watch := cancelAfter, cancelWatch
	if takes > 0 {
		at = min(cancelAfter, takes/2)
		watch = min(max(cancelWatch, 2*takes), maxWatch)
	}
	req, err := c.s.NewRequest(protocol.MethodResourcesRead, uri, map[string]any{"uri": uri})
	if err != nil {
		c.rep.add("cancellation", Fail, uri, err.Error())
		return
	}
	if c.s.PerRequestStream() && c.s.Modern() {
		c.cancelByClosing(ctx, req, uri, at)
		return
	}
	c.cancelByNotification(ctx, req, uri, at, watch)
}

// cancelByClosing is the 2026-07-28 HTTP cancellation: the request's
// context ends, the transport closes the response stream, and a closed
// stream carries nothing more.
func (c *checker) cancelByClosing(ctx context.Context, req client.Request, uri string, at time.Duration) {
	cctx, cancel := context.WithTimeout(ctx, at)
	defer cancel()
	start := time.Now()
	a, err := c.s.Do(cctx, req)
	switch {
	case err == nil:
		c.rep.add("cancellation", Skip, uri, fmt.Sprintf("answered in %s, before the cancel at %s: nothing to cancel (give a slower --cancel-uri)",
			roundLatency(a.Done.Sub(start)), at))
	case cctx.Err() != nil && ctx.Err() == nil:
		c.rep.add("cancellation", Pass, uri, fmt.Sprintf("2026-07-28 over HTTP: cancelled by closing the response stream at %s; "+
			"nothing can come back on a closed stream, so this passes by construction", at))
	default:
		c.rep.add("cancellation", Fail, uri, err.Error())
	}
}

// lateProbe is what the cancelled call ended with.
type lateProbe struct {
	a   *client.Response
	err error
	at  time.Time
}

// cancelByNotification is the cancellation of stdio (both eras) and legacy
// HTTP: notifications/cancelled {requestId, reason}. The call keeps
// listening (the HTTP stream stays open) so that an answer the server
// sends anyway is seen and described, not merely counted.
func (c *checker) cancelByNotification(ctx context.Context, req client.Request, uri string, at, watch time.Duration) {
	wctx, stop := context.WithTimeout(ctx, at+watch)
	defer stop()
	done := make(chan lateProbe, 1)
	start := time.Now()
	go func() {
		a, err := c.s.Do(wctx, req)
		done <- lateProbe{a: a, err: err, at: time.Now()}
	}()
	timer := time.NewTimer(at)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			c.rep.add("cancellation", Fail, uri, r.err.Error())
			return
		}
		what := "answered"
		if m, err := protocol.Decode(r.a.Body); err == nil && m.Error != nil {
			what = "answered " + describeError(r.a.Body)
		}
		c.rep.add("cancellation", Skip, uri, fmt.Sprintf("%s in %s, before the cancel at %s: nothing to cancel (give a slower --cancel-uri)",
			what, roundLatency(r.at.Sub(start)), at))
		return
	case <-timer.C:
	}
	cancelled := time.Now()
	err := c.s.Cancel(wctx, req.ID, "readbench check: cancellation probe")
	r := <-done // the call ends by wctx at the latest
	if err != nil {
		c.rep.add("cancellation", Fail, uri, "could not send notifications/cancelled: "+err.Error())
		return
	}
	c.judgeLate(ctx, uri, r, cancelled, at, watch)
}

// judgeLate decides from what the cancelled call ended with. A result
// after the cancel is the server doing the work and sending it anyway; an
// error answer means it stopped (the specification says to send nothing,
// but an error costs a few bytes and no work).
func (c *checker) judgeLate(ctx context.Context, uri string, r lateProbe, cancelled time.Time, at, watch time.Duration) {
	how := fmt.Sprintf("notifications/cancelled at %s", at)
	var se *client.StatusError
	switch {
	case r.err == nil:
		after := roundLatency(r.at.Sub(cancelled))
		if m, err := protocol.Decode(r.a.Body); err == nil && m.Error != nil {
			c.rep.add("cancellation", Pass, uri, fmt.Sprintf("stopped: sent %s %s after %s (the specification says to send nothing)",
				describeError(r.a.Body), after, how))
			return
		}
		if after < raceWindow {
			c.rep.add("cancellation", Skip, uri, fmt.Sprintf("answered %s after %s: too close to the cancel to tell a race from a server "+
				"that ignores it (give a slower --cancel-uri)", after, how))
			return
		}
		detail := fmt.Sprintf("answered %s after %s (%d bytes): the server did the work and sent it anyway", after, how, r.a.WireBytes)
		if c.s.PerRequestStream() && c.s.SessionID() == "" {
			detail += "; it issued no Mcp-Session-Id, so the notification cannot name the request (a run also closes the stream, which such a server may honour)"
		}
		c.rep.add("cancellation", Fail, uri, detail)
	case errors.Is(r.err, context.DeadlineExceeded) && ctx.Err() == nil:
		c.rep.add("cancellation", Pass, uri, fmt.Sprintf("no answer within %s after %s", watch, how))
	case c.s.PerRequestStream() && errors.Is(r.err, client.ErrTransport) && !errors.As(r.err, &se) && ctx.Err() == nil:
		c.rep.add("cancellation", Pass, uri, "the server ended the response stream without an answer after "+how)
	default:
		c.rep.add("cancellation", Fail, uri, r.err.Error())
	}
}
