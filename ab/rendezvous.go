package ab

import (
	"context"
	"sync"
	"time"
)

// startMargin is how far ahead of the last arrival the schedules start:
// time for every side's goroutine to be waiting on the same instant, so
// that none starts late because it was not yet scheduled.
const startMargin = 20 * time.Millisecond

// rendezvous starts the schedules of a round's sides at one instant: each
// side waits until all have arrived (their sessions open), and all get the
// same start, just after the last arrival. A side that ends without
// arriving (it could not connect) abandons it, and the others are told so
// instead of waiting for ever.
type rendezvous struct {
	mu     sync.Mutex
	left   int
	done   chan struct{}
	closed bool
	at     time.Time
	err    error
}

func newRendezvous(parties int) *rendezvous {
	return &rendezvous{left: parties, done: make(chan struct{})}
}

// wait arrives and waits for the others; it returns the instant every
// side's schedule starts.
func (r *rendezvous) wait(ctx context.Context) (time.Time, error) {
	r.mu.Lock()
	r.left--
	if r.left == 0 && !r.closed {
		r.at, r.closed = time.Now().Add(startMargin), true
		close(r.done)
	}
	r.mu.Unlock()
	select {
	case <-r.done:
		return r.at, r.err
	case <-ctx.Done():
		return time.Time{}, context.Cause(ctx)
	}
}

// abandon releases the others with err, unless every side has arrived.
func (r *rendezvous) abandon(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.err, r.closed = err, true
		close(r.done)
	}
}
