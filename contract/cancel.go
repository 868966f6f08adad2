package contract

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
)

// Timing of the cancellation check. A host cancels stragglers at its turn
// deadline; the check cancels early (50 ms, or a quarter of the read's
// known time to first byte when that is sooner) in a read that takes much
// longer, then watches long enough for a server that ignored the cancel to
// have answered anyway. Only what the server could know is judged: the
// cancel is sent once the request is on the server's side of the
// transport, and an answer whose first byte comes within the round-trip
// allowance of the moment the server had the cancel (over stdio: read it
// off its stdin), or before it, was on its way before the server could
// act on it.
const (
	cancelAfter   = 50 * time.Millisecond
	rttFactor     = 4                     // the allowance is this many round trips ...
	rttFloor      = 25 * time.Millisecond // ... and at least this
	rttProbes     = 3                     // small reads timed for the round trip; the slowest counts
	cancelWatch   = time.Second
	maxWatch      = 10 * time.Second
	simCancelURI  = "sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=500ms" // simSlowURI(simCancelTime)
	simCancelTime = 500 * time.Millisecond
)

// simSlowURI is a simulated read whose first byte comes after d.
func simSlowURI(d time.Duration) string {
	return fmt.Sprintf("sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=%dms", d.Milliseconds())
}

// cancelTarget picks the read to cancel and how long its first byte takes
// uncancelled (0 when unknown), or says why there is none. A --cancel-uri
// is read once uncancelled first: without its time the watch would be a
// fixed second, and a server that ignores the cancel but answers later
// than that would pass.
func (c *checker) cancelTarget(ctx context.Context) (uri string, takes time.Duration, why string) {
	switch {
	case c.o.CancelURI != "":
		takes, err := c.timeUncancelled(ctx, c.o.CancelURI)
		if err != nil {
			return "", 0, fmt.Sprintf("could not time --cancel-uri %s uncancelled: %v", c.o.CancelURI, err)
		}
		return c.o.CancelURI, takes, ""
	case c.sim:
		return simCancelURI, simCancelTime, ""
	case c.slowest.uri != "":
		return c.slowest.uri, c.slowest.latency, ""
	}
	return "", 0, "could not find a read slow enough to cancel: no sampled read answered (give --cancel-uri)"
}

// cancelProbe is when the probe cancels and how it judges what follows.
type cancelProbe struct {
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
		uri, takes, why := c.cancelTarget(ctx)
		if uri == "" {
			c.rep.add("cancellation", results.CheckSkip, c.o.CancelURI, why)
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
		c.rep.add("cancellation", results.CheckNA, "", "the server issued no Mcp-Session-Id (stateless Streamable HTTP): "+
			"notifications/cancelled cannot name a request of a session that does not exist, so there is no cancel to honour "+
			"(a load run also closes the request's stream)")
		return
	}
	p, why := c.planCancel(ctx)
	if why != "" {
		c.rep.add("cancellation", results.CheckSkip, p.uri, why)
		return
	}
	c.cancelByNotification(ctx, p)
}

// planCancel picks the read, measures the round trip and says when to
// cancel; why says why no probe can tell anything.
func (c *checker) planCancel(ctx context.Context) (cancelProbe, string) {
	uri, takes, why := c.cancelTarget(ctx)
	if uri == "" {
		return cancelProbe{uri: c.o.CancelURI}, why
	}
	p := cancelProbe{uri: uri, at: cancelAfter, watch: cancelWatch}
	p.rtt = c.roundTrip(ctx)
	p.allowance = max(rttFactor*p.rtt, rttFloor)
	if uri == simCancelURI {
		// A sim: URI says how slow it is: on a machine whose round trip
		// leaves the usual one too little room, ask for a slower read
		// rather than give up, so identical checks give one verdict.
		if need := min(cancelAfter, takes/4) + 4*p.allowance; need > takes {
			takes = need.Truncate(100*time.Millisecond) + 100*time.Millisecond
			p.uri = simSlowURI(takes)
		}
	}
	if takes > 0 {
		p.at = min(cancelAfter, takes/4)
		// Long enough to see the answer of a server that ignores the cancel.
		p.watch = max(min(max(cancelWatch, 2*takes), maxWatch), takes+2*p.allowance)
		if takes-p.at <= 2*p.allowance {
			return p, fmt.Sprintf("could not find a read slow enough to cancel: the slowest sampled read's first byte came after %s, "+
				"too soon after a cancel at %s to tell a server that ignores it (round-trip allowance %s); give a slower --cancel-uri",
				numfmt.Duration(takes), numfmt.Duration(p.at), numfmt.Duration(p.allowance))
		}
	}
	return p, ""
}

// timeUncancelled reads uri once, uncancelled, and returns when its
// answer started (see answerStart), counted from the send.
func (c *checker) timeUncancelled(ctx context.Context, uri string) (time.Duration, error) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	a, err := c.s.ReadDocument(rctx, uri, client.ReadSpec{})
	switch {
	case err != nil:
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return 0, fmt.Errorf("no answer within the --timeout of %s (a longer --timeout lets the check time it)", numfmt.Duration(c.o.Timeout))
		}
		return 0, err
	case !a.Answered: // no answer: the exchange failed, in its own words
		return 0, errors.New(a.Detail)
	}
	at, _ := c.answerStart(a.FirstByte, a.Done)
	return at.Sub(a.Sent), nil
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
		a, err := c.s.ReadDocument(rctx, uri, client.ReadSpec{})
		d := time.Since(start)
		cancel()
		if err != nil || !a.Answered {
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
		c.rep.add("cancellation", results.CheckFail, uri, err.Error())
		return
	}
	cctx, cancel := context.WithTimeout(ctx, at)
	defer cancel()
	start := time.Now()
	a, err := c.s.Do(cctx, req)
	switch {
	case err == nil:
		c.rep.add("cancellation", results.CheckSkip, uri, fmt.Sprintf("could not find a read slow enough to cancel: answered in %s, before the cancel at %s (give a slower --cancel-uri)",
			numfmt.Duration(a.Done.Sub(start)), numfmt.Duration(at)))
	case cctx.Err() != nil && ctx.Err() == nil:
		c.rep.add("cancellation", results.CheckPass, uri, fmt.Sprintf("2026-07-28 over HTTP: cancelled by closing the response stream at %s; "+
			"nothing can come back on a closed stream, so this passes by construction", numfmt.Duration(at)))
	default:
		c.rep.add("cancellation", results.CheckFail, uri, err.Error())
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
func (c *checker) cancelByNotification(ctx context.Context, p cancelProbe) {
	req, err := c.s.NewRequest(protocol.MethodResourcesRead, p.uri, map[string]any{"uri": p.uri})
	if err != nil {
		c.rep.add("cancellation", results.CheckFail, p.uri, err.Error())
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
	m := cancelMoments{sending: time.Now()}
	err = c.s.Cancel(wctx, req.ID, "readbench check: cancellation probe")
	m.sent = time.Now() // the notification is in the server's transport
	if err != nil {
		stop()
		<-done
		c.rep.add("cancellation", results.CheckFail, p.uri, "could not send notifications/cancelled: "+err.Error())
		return
	}
	// In a stdio server's stdin pipe the cancel is not yet in the server:
	// a server busy with the answer reads it when that is written. Watch
	// for the moment it has read it, where the transport can tell.
	dctx, endDrain := context.WithCancel(wctx)
	defer endDrain()
	drained := make(chan cancelRead, 1)
	go func() {
		at, err := c.s.Delivered(dctx)
		drained <- cancelRead{at: at, err: err}
	}()
	watch := time.NewTimer(p.watch - time.Since(m.sent))
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
	endDrain()
	m.setRead(<-drained)
	c.judgeLate(ctx, p, r, m)
}

// cancelRead is what the wait for the server to read the cancel ended
// with.
type cancelRead struct {
	at  time.Time
	err error
}

// cancelMoments are the moments of the cancel that the judgement starts
// from: what the server could know, and when.
type cancelMoments struct {
	sending, sent time.Time // around the write of notifications/cancelled
	// read: when the server had read it (stdio: its stdin pipe drained).
	// Zero either where the transport cannot tell (readKnown false: the
	// cancel counts as the server's once sent) or when it was still
	// unread as the probe ended.
	read      time.Time
	readKnown bool
}

// setRead records how the wait for the server to read the cancel ended.
func (m *cancelMoments) setRead(d cancelRead) {
	switch {
	case d.err == nil:
		m.read, m.readKnown = d.at, true
	case errors.Is(d.err, context.Canceled) || errors.Is(d.err, context.DeadlineExceeded):
		m.readKnown = true // ended by the probe with bytes still unread
	}
}

// onServer is when the server had the cancel in hand, and whether it ever
// had: false for a cancel still unread in its stdin when the probe ended.
func (m cancelMoments) onServer() (time.Time, bool) {
	switch {
	case !m.readKnown:
		return m.sent, true
	case m.read.IsZero():
		return time.Time{}, false
	}
	return m.read, true
}

// readAfter says, where it is known, how long after it was sent the
// server read the cancel, for the verdict's detail.
func (m cancelMoments) readAfter() string {
	switch at, had := m.onServer(); {
	case !m.readKnown:
		return ""
	case !had:
		return " (still unread in the server's stdin)"
	default:
		return fmt.Sprintf(" (read off the server's stdin %s after it was sent)", numfmt.Duration(at.Sub(m.sent)))
	}
}

// answeredFirst is an answer that came before the cancel could be sent.
func (c *checker) answeredFirst(p cancelProbe, r lateProbe, start time.Time) {
	if r.err != nil {
		c.rep.add("cancellation", results.CheckFail, p.uri, r.err.Error())
		return
	}
	what := "answered"
	if m, err := protocol.Decode(r.a.Body); err == nil && m.Error != nil {
		what = "answered " + describeError(r.a.Body)
	}
	c.rep.add("cancellation", results.CheckSkip, p.uri, fmt.Sprintf("could not find a read slow enough to cancel: %s in %s, before the cancel at %s could be sent (give a slower --cancel-uri)",
		what, numfmt.Duration(r.at.Sub(start)), numfmt.Duration(p.at)))
}

// judgeLate decides from what the cancelled call ended with, on what the
// server could know: the first byte of an answer against the moment the
// server had the cancel (over stdio, when it read it off its stdin; else
// when it was sent). A result starting more than the round-trip
// allowance after that ignored it; one starting sooner, or while the
// cancel was still unread, crossed it (bytes wasted, not a failure). An
// error answer means it stopped (the specification says to send nothing,
// but an error costs a few bytes and no work). No answer passes only when
// the server had the cancel: a server that read nothing all the watch
// long proved nothing.
func (c *checker) judgeLate(ctx context.Context, p cancelProbe, r lateProbe, m cancelMoments) {
	how := fmt.Sprintf("notifications/cancelled at %s%s", numfmt.Duration(p.at), m.readAfter())
	allowance := fmt.Sprintf("the round-trip allowance %s (%d× the slowest of %d small reads, %s, at least %s)",
		numfmt.Duration(p.allowance), rttFactor, rttProbes, numfmt.Duration(p.rtt), numfmt.Duration(rttFloor))
	had, hadIt := m.onServer()
	var se *client.StatusError
	switch {
	case r.err == nil:
		if msg, err := protocol.Decode(r.a.Body); err == nil && msg.Error != nil {
			c.rep.add("cancellation", results.CheckPass, p.uri, fmt.Sprintf("stopped: sent %s %s after %s (the specification says to send nothing)",
				describeError(r.a.Body), numfmt.Duration(r.at.Sub(m.sent)), how))
			return
		}
		first, which := r.a.FirstByte, "first byte"
		if at, known := c.answerStart(r.a.FirstByte, r.a.Done); !known {
			first, which = at, "end (the transport cannot tell its first byte)"
		}
		// What the delay is counted from: the cancel on the server's side.
		sent := "notifications/cancelled at " + numfmt.Duration(p.at)
		reached, crossed := sent+" reached the server", sent
		if m.readKnown && hadIt {
			reached = fmt.Sprintf("the server read %s off its stdin (%s after it was sent)", sent, numfmt.Duration(had.Sub(m.sent)))
			crossed = reached
		}
		switch after := first.Sub(had); {
		case first.Before(m.sending):
			c.rep.add("cancellation", results.CheckSkip, p.uri, fmt.Sprintf("could not find a read slow enough to cancel: the answer's %s came %s before %s was sent (give a slower --cancel-uri)",
				which, numfmt.Duration(m.sending.Sub(first)), sent))
		case !hadIt || first.Before(had):
			read := "it was still unread in the server's stdin when the answer ended"
			if hadIt {
				read = fmt.Sprintf("the server read it off its stdin only %s after it was sent", numfmt.Duration(had.Sub(m.sent)))
			}
			c.rep.add("cancellation", results.CheckSkip, p.uri, fmt.Sprintf("answered after the cancel: the answer's %s came %s after %s was sent, and %s, "+
				"so the answer was on its way before the server read the cancel (%d bytes wasted; not a failure, and no proof either: give a slower --cancel-uri, or one whose server is not busy all the while)",
				which, numfmt.Duration(max(first.Sub(m.sent), 0)), sent, read, r.a.WireBytes))
		case after > p.allowance:
			c.rep.add("cancellation", results.CheckFail, p.uri, fmt.Sprintf("ignored the cancel: the answer's %s came %s after %s, beyond %s; %d bytes: the server did the work and sent it anyway",
				which, numfmt.Duration(after), reached, allowance, r.a.WireBytes))
		default:
			c.rep.add("cancellation", results.CheckSkip, p.uri, fmt.Sprintf("answered after the cancel: the answer's %s came %s after %s, within %s, so it was on its way before the server could act on the cancel (%d bytes wasted; not a failure, and no proof either: give a slower --cancel-uri)",
				which, numfmt.Duration(max(after, 0)), crossed, allowance, r.a.WireBytes))
		}
	case errors.Is(r.err, context.DeadlineExceeded) && ctx.Err() == nil && !hadIt:
		c.rep.add("cancellation", results.CheckSkip, p.uri, fmt.Sprintf("could not tell: no answer within %s after notifications/cancelled at %s, but the server had not read it off its stdin by then "+
			"(busy all the while: an answer to come cannot be judged; give a --cancel-uri whose server is not busy all the while)", numfmt.Duration(p.watch), numfmt.Duration(p.at)))
	case errors.Is(r.err, context.DeadlineExceeded) && ctx.Err() == nil:
		c.rep.add("cancellation", results.CheckPass, p.uri, fmt.Sprintf("no answer within %s after %s", numfmt.Duration(p.watch), how))
	case c.s.PerRequestStream() && errors.Is(r.err, client.ErrTransport) && !errors.As(r.err, &se) && ctx.Err() == nil:
		c.rep.add("cancellation", results.CheckPass, p.uri, "the server ended the response stream without an answer after "+how)
	default:
		c.rep.add("cancellation", results.CheckFail, p.uri, r.err.Error())
	}
}
