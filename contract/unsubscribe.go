package contract

import (
	"context"
	"fmt"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// stops checks the unsubscribe row: sub (to first) is closed — legacy
// resources/unsubscribe, or the 2026-07-28 listen cancelled — and a second
// subscription opened to second; then first is changed, and then second.
// The second document's notification marks the point by which the
// first's would have come (one server, changes made in that order); a
// notification of first by then, on the second subscription or on none
// (the session's unrouted), is a server that kept notifying after the
// unsubscribe. sub is closed whatever happens.
func (c *checker) stops(ctx context.Context, sub *client.Subscription, tool, first, second string) {
	cctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	err := sub.Close(cctx)
	cancel()
	switch {
	case err != nil:
		c.rep.add(rowSubStopped, results.CheckFail, first, "unsubscribe failed: "+err.Error())
		return
	case tool == "":
		c.rep.add(rowSubStopped, results.CheckSkip, first, "no change could be made to judge it: the server lists no tool named "+defaultTouch+" (--change-tool NAME)")
		return
	case second == "":
		c.rep.add(rowSubStopped, results.CheckSkip, first, "one document listed: a second is needed to mark when the first's notification would have come")
		return
	}
	h := newHeard()
	sctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	sub2, err := c.s.Subscribe(sctx, client.SubscribeSpec{URIs: []string{second}}, h.on)
	cancel()
	if err != nil {
		c.rep.add(rowSubStopped, results.CheckSkip, first, "could not subscribe to "+second+" to tell: "+err.Error())
		return
	}
	// Counted from the second subscription's acknowledgement on: what the
	// server sent before it read the unsubscribe (a notification's
	// companion, a duplicate) can reach the client after the unsubscribe
	// was sent, and on one ordered stream (stdio, a legacy session's) it
	// has arrived by the acknowledgement, which the server wrote later.
	before := c.s.Unrouted().NoSubscription
	defer func() {
		cctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
		_ = sub2.Close(cctx) // its verdicts are taken: a failure to close says nothing more
		cancel()
	}()
	if err := c.change(ctx, tool, first); err != nil {
		c.rep.add(rowSubStopped, results.CheckSkip, first, "the change tool "+tool+" failed: "+err.Error())
		return
	}
	if err := c.change(ctx, tool, second); err != nil {
		c.rep.add(rowSubStopped, results.CheckSkip, first, "the change tool "+tool+" failed: "+err.Error())
		return
	}
	marked := h.waitFor(ctx, c.o.Timeout, func(ns []client.Notification) bool { return updates(ns, "")-updates(ns, first) > 0 })
	leaked := int64(updates(h.all(), first)) + c.s.Unrouted().NoSubscription - before
	switch {
	case leaked > 0:
		c.rep.add(rowSubStopped, results.CheckFail, first, fmt.Sprintf("%d notifications after the unsubscribe (a change of %s was still told)", leaked, first))
	case !marked:
		c.rep.add(rowSubStopped, results.CheckSkip, first, fmt.Sprintf("no notification of %s came within %s: cannot tell when the first's would have", second, numfmt.Duration(c.o.Timeout)))
	default:
		c.rep.add(rowSubStopped, results.CheckPass, first, "a change after the unsubscribe was not told; one of "+second+", made after it, was")
	}
}
