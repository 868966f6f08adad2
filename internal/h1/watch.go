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
// is set on the connection before its request is written.
//
// A context that ends while its request is under way closes the
// connection (HTTP/1.1 cannot abandon a response and keep the
// connection). One that ends after its response was read whole, while the
// connection sits in the pool (a turn's context, a call's timeout), costs
// the connection nothing: the next request takes back the past deadline
// it set and watches its own context. A real client's pool keeps a
// connection whatever became of the context of the request it last
// carried, and so does this one.

// watch makes the end of ctx end this connection's waits. It is called
// only on a connection no request is using (new, or taken from the pool),
// and reports false when ctx has ended.
func (c *conn) watch(ctx context.Context) bool {
	done := ctx.Done()
	if c.stopWatch != nil && done == c.watched {
		return !c.cancelled.Load()
	}
	c.unwatch()
	if done == nil {
		return true // a context that never ends: nothing to watch
	}
	if c.onCancel == nil {
		c.onCancel = func() {
			defer c.fired.Done()
			// cancelled first: a read the past deadline wakes must find
			// it set, or it reports an i/o timeout for the context's end.
			c.cancelled.Store(true)
			c.nc.SetDeadline(aLongTimeAgo)
		}
	}
	c.fired.Add(1) // Done by onCancel, or by unwatch or close when it will not run
	c.watched, c.stopWatch = done, context.AfterFunc(ctx, c.onCancel)
	return ctx.Err() == nil
}

// unwatch stops watching the context of the last request on an idle
// connection. If that context ended meanwhile, it waits for onCancel to
// have run and takes back the past deadline it set: the connection's
// last response was whole, so it can carry the next request.
func (c *conn) unwatch() {
	if c.stopWatch == nil {
		return
	}
	if c.stopWatch() {
		c.fired.Done() // onCancel will not run
	} else {
		c.fired.Wait() // it ran, or runs now: let it finish
	}
	c.stopWatch, c.watched = nil, nil
	if c.cancelled.Load() {
		c.cancelled.Store(false)
		c.deadline = aLongTimeAgo // what nc has now: the next setDeadline replaces it
	}
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

// close closes the connection, stops watching its context and counts why
// it ended (why: stats.go).
func (c *conn) close(why closeReason) {
	if c.stopWatch != nil {
		if c.stopWatch() {
			c.fired.Done()
		}
		c.stopWatch, c.watched = nil, nil
	}
	c.nc.Close()
	c.t.count.open.Add(-1)
	c.t.count.ended(why)
}
