package h1

import (
	"context"
	"time"
)

// A request's context and deadline end its waits through the
// connection's own deadline, which the runtime's poller keeps without a
// timer, goroutine or allocation of its own. The context is watched once
// per connection and context (context.AfterFunc, keyed by its Done
// channel), not once per request: a load generator's reads share their
// run's context, and a registration per read costs an allocation and a
// map insertion and deletion under the parent's lock. A Post's Deadline
// is set on the connection before its request is written; a connection a
// deadline or context ended is closed, never pooled again.

// watch makes the end of ctx end this connection's waits. It reports
// false when the connection cannot carry a request for ctx: the context
// it watched before has ended (its past deadline may be set on the
// connection at any moment), or ctx has.
func (c *conn) watch(ctx context.Context) bool {
	done := ctx.Done()
	if c.stopWatch != nil && done == c.watched {
		return !c.cancelled.Load()
	}
	if c.stopWatch != nil && !c.stopWatch() {
		return false
	}
	c.stopWatch, c.watched = nil, nil // stopped before it fired: cancelled is false
	if done == nil {
		return true // a context that never ends: nothing to watch
	}
	if c.onCancel == nil {
		c.onCancel = func() {
			c.cancelled.Store(true)
			c.nc.SetDeadline(aLongTimeAgo)
		}
	}
	c.watched, c.stopWatch = done, context.AfterFunc(ctx, c.onCancel)
	return ctx.Err() == nil
}

// setDeadline puts the deadline of the request about to be written on
// the connection (zero: none), unless it is there already.
func (c *conn) setDeadline(at time.Time) error {
	if at.Equal(c.deadline) {
		return nil
	}
	c.deadline = at
	return c.nc.SetDeadline(at)
}

// close closes the connection and stops watching its context.
func (c *conn) close() {
	if c.stopWatch != nil {
		c.stopWatch()
		c.stopWatch, c.watched = nil, nil
	}
	c.nc.Close()
}
