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
// deadline; the check cancels early (50 ms, or a quarter of the read's
// known time to first byte when that is sooner) in a read that takes much
// longer, then watches long enough for a server that ignored the cancel to
// have answered anyway. Only what the server could know is judged: the
// cancel is sent once the request is on the server's side of the
// transport, and an answer whose first byte comes within the round-trip
// allowance of the cancel was on its way before the server could act on
// it.
const (
	cancelAfter   = 50 * time.Millisecond
	rttFactor     = 4                     // the allowance is this many round trips ...
	rttFloor      = 25 * time.Millisecond // ... and at least this
	rttProbes     = 3                     // small reads timed for the round trip; the slowest counts
	cancelWatch   = time.Second
	maxWatch      = 10 * time.Second
	simCancelURI  = "sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=500ms"
	simCancelTime = 500 * time.Millisecond
)

// cancelTarget picks the read to cancel and how long its first byte takes
// uncancelled (0 when unknown), or says why there is none.
func (c *checker) cancelTarget() (uri string, takes time.Duration, why string) {
	switch {
	case c.o.CancelURI != "":
		return c.o.CancelURI, 0, ""
	case c.sim:
		return simCancelURI, simCancelTime, ""
	case c.slowest.uri != "":
		return c.slowest.uri, c.slowest.latency, ""
	}
	return "", 0, "could not find a read slow enough to cancel: no sampled read answered (give --cancel-uri)"
}

// cancelPlan is when the probe cancels and how it judges what follows.
type cancelPlan struct {
	uri       string
	at        time.Duration // after the send, once the request is on the server's side
	watch     time.Duration // after the cancel, for an answer that should not come
	allowance time.Duration // an answer starting within this of the cancel crossed it
	rtt       time.Duration // the measured round trip behind allowance
}

// cancellation issues a slow read, cancels it the way the transport and
// era say, and watches for an answer that should not come.
func (c *checker) cancellation(ctx context.Context) {
	if c.s.PerRequestStream() && c.s.Modern() {
		uri, takes, why := c.cancelTarget()
		if uri == "" {
			c.rep.add("cancellation", Skip, "", why)
			return
		}
		at := cancelAfter
		if takes > 0 {
			at = min(cancelAfter, takes/2)
		}
		c.cancelByClosing(ctx, uri, at)
		return
	}
	if c.s.PerRequestStream() && c.s.SessionID() == "" {
		c.rep.add("cancellation", NotApplicable, "", "the server issued no Mcp-Session-Id (stateless Streamable HTTP): "+
			"notifications/cancelled cannot name a request of a session that does not exist, so there is no cancel to honour "+
			"(a load run also closes the request's stream)")
		return
	}
	p, why := c.planCancel(ctx)
	if why != "" {
		c.rep.add("cancellation", Skip, p.uri, why)
		return
	}
	c.cancelByNotification(ctx, p)
}

// planCancel picks the read, measures the round trip and says when to
// cancel; why says why no probe can tell anything.
func (c *checker) planCancel(ctx context.Context) (cancelPlan, string) {
	uri, takes, why := c.cancelTarget()
	if uri == "" {
		return cancelPlan{}, why
	}
	p := cancelPlan{uri: uri, at: cancelAfter, watch: cancelWatch}
	p.rtt = c.roundTrip(ctx)
	p.allowance = max(rttFactor*p.rtt, rttFloor)
	if takes > 0 {
		p.at = min(cancelAfter, takes/4)
		p.watch = min(max(cancelWatch, 2*takes), maxWatch)
		if takes-p.at <= 2*p.allowance {
			return p, fmt.Sprintf("could not find a read slow enough to cancel: the slowest sampled read's first byte came after %s, "+
				"too soon after a cancel at %s to tell a server that ignores it (round-trip allowance %s); give a slower --cancel-uri",
				roundLatency(takes), roundLatency(p.at), roundLatency(p.allowance))
		}
	}
	return p, ""
}

// roundTrip times a few small reads on the session (a URI that cannot
// exist: an error answer, no work) and returns the slowest, 0 when none
// answered: the allowance then is the floor alone.
func (c *checker) roundTrip(ctx context.Context) time.Duration {
	uri := c.notFoundURI()
	var worst time.Duration
	for range rttProbes {
		rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
		start := time.Now()
		_, err := c.s.Read(rctx, uri)
		d := time.Since(start)
		cancel()
		if err != nil {
			break
		}
		worst = max(worst, d)
	}
	return worst
}

// cancelByClosing is the 2026-07-28 HTTP cancellation: the request's
// context ends, the transport closes the response stream, and a closed
// stream carries nothing more.
func (c *checker) cancelByClosing(ctx context.Context, uri string, at time.Duration) {
	req, err := c.s.NewRequest(protocol.MethodResourcesRead, uri, map[string]any{"uri": uri})
	if err != nil {
		c.rep.add("cancellation", Fail, uri, err.Error())
		return
	}
	cctx, cancel := context.WithTimeout(ctx, at)
	defer cancel()
	start := time.Now()
	a, err := c.s.Do(cctx, req)
	switch {
	case err == nil:
		c.rep.add("cancellation", Skip, uri, fmt.Sprintf("could not find a read slow enough to cancel: answered in %s, before the cancel at %s (give a slower --cancel-uri)",
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
// HTTP: notifications/cancelled {requestId, reason}, sent once the request
// is on the server's side and p.at has passed. The call keeps listening
// (the HTTP stream stays open) so that an answer the server sends anyway
// is seen and described, not merely counted.
func (c *checker) cancelByNotification(ctx context.Context, p cancelPlan) {
	req, err := c.s.NewRequest(protocol.MethodResourcesRead, p.uri, map[string]any{"uri": p.uri})
	if err != nil {
		c.rep.add("cancellation", Fail, p.uri, err.Error())
		return
	}
	accepted := make(chan time.Time, 1)
	req = req.OnAccepted(func(at time.Time) { accepted <- at })
	wctx, stop := context.WithTimeout(ctx, p.at+p.watch+c.o.Timeout)
	defer stop()
	done := make(chan lateProbe, 1)
	start := time.Now()
	go func() {
		a, err := c.s.Do(wctx, req)
		done <- lateProbe{a: a, err: err, at: time.Now()}
	}()
	timer := time.NewTimer(p.at)
	defer timer.Stop()
	for onServer, due := false, false; !onServer || !due; {
		select {
		case r := <-done:
			c.answeredFirst(p, r, start)
			return
		case <-accepted:
			onServer = true
		case <-timer.C:
			due = true
		}
	}
	cancelling := time.Now()
	err = c.s.Cancel(wctx, req.ID, "readbench check: cancellation probe")
	cancelled := time.Now() // the notification is on the server's side
	if err != nil {
		stop()
		<-done
		c.rep.add("cancellation", Fail, p.uri, "could not send notifications/cancelled: "+err.Error())
		return
	}
	watch := time.NewTimer(p.watch - time.Since(cancelled))
	defer watch.Stop()
	var r lateProbe
	select {
	case r = <-done:
	case <-watch.C:
		stop()
		if r = <-done; r.err != nil {
			r.err = context.DeadlineExceeded // the watch ended, not the session
		}
	}
	c.judgeLate(ctx, p, r, cancelling, cancelled)
}

// answeredFirst is an answer that came before the cancel could be sent.
func (c *checker) answeredFirst(p cancelPlan, r lateProbe, start time.Time) {
	if r.err != nil {
		c.rep.add("cancellation", Fail, p.uri, r.err.Error())
		return
	}
	what := "answered"
	if m, err := protocol.Decode(r.a.Body); err == nil && m.Error != nil {
		what = "answered " + describeError(r.a.Body)
	}
	c.rep.add("cancellation", Skip, p.uri, fmt.Sprintf("could not find a read slow enough to cancel: %s in %s, before the cancel at %s could be sent (give a slower --cancel-uri)",
		what, roundLatency(r.at.Sub(start)), p.at))
}

// judgeLate decides from what the cancelled call ended with, on what the
// server could know: the first byte of an answer against the moment the
// cancel was on its side. A result starting more than the round-trip
// allowance after the cancel ignored it; one starting sooner crossed it on
// the wire (bytes wasted, not a failure). An error answer means it
// stopped (the specification says to send nothing, but an error costs a
// few bytes and no work).
func (c *checker) judgeLate(ctx context.Context, p cancelPlan, r lateProbe, cancelling, cancelled time.Time) {
	how := fmt.Sprintf("notifications/cancelled at %s", p.at)
	allowance := fmt.Sprintf("the round-trip allowance %s (%d× the slowest of %d small reads, %s, at least %s)",
		roundLatency(p.allowance), rttFactor, rttProbes, roundLatency(p.rtt), rttFloor)
	var se *client.StatusError
	switch {
	case r.err == nil:
		if m, err := protocol.Decode(r.a.Body); err == nil && m.Error != nil {
			c.rep.add("cancellation", Pass, p.uri, fmt.Sprintf("stopped: sent %s %s after %s (the specification says to send nothing)",
				describeError(r.a.Body), roundLatency(r.at.Sub(cancelled)), how))
			return
		}
		first, which := r.a.FirstByte, "first byte"
		if at, known := c.answerStart(r.a.FirstByte, r.a.Done); !known {
			first, which = at, "end (the transport cannot tell its first byte)"
		}
		switch after := first.Sub(cancelled); {
		case first.Before(cancelling):
			c.rep.add("cancellation", Skip, p.uri, fmt.Sprintf("could not find a read slow enough to cancel: the answer's %s came %s before %s was sent (give a slower --cancel-uri)",
				which, roundLatency(cancelling.Sub(first)), how))
		case after > p.allowance:
			c.rep.add("cancellation", Fail, p.uri, fmt.Sprintf("ignored the cancel: the answer's %s came %s after %s reached the server, beyond %s; %d bytes: the server did the work and sent it anyway",
				which, roundLatency(after), how, allowance, r.a.WireBytes))
		default:
			c.rep.add("cancellation", Skip, p.uri, fmt.Sprintf("answered after the cancel: the answer's %s came %s after %s, within %s, so it was on its way before the server could act on the cancel (%d bytes wasted; not a failure, and no proof either: give a slower --cancel-uri)",
				which, roundLatency(max(after, 0)), how, allowance, r.a.WireBytes))
		}
	case errors.Is(r.err, context.DeadlineExceeded) && ctx.Err() == nil:
		c.rep.add("cancellation", Pass, p.uri, fmt.Sprintf("no answer within %s after %s", p.watch, how))
	case c.s.PerRequestStream() && errors.Is(r.err, client.ErrTransport) && !errors.As(r.err, &se) && ctx.Err() == nil:
		c.rep.add("cancellation", Pass, p.uri, "the server ended the response stream without an answer after "+how)
	default:
		c.rep.add("cancellation", Fail, p.uri, r.err.Error())
	}
}
