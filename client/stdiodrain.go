package client

import (
	"context"
	"errors"
	"time"
)

// When did the server read it? A message written to a stdio child's stdin
// is in the pipe, not yet in the server: a single-threaded server busy
// with an answer reads its stdin only when it is done, so a cancel can
// sit unread while the answer it asks to stop is written. Where the
// kernel says how many bytes of the pipe are unread (Linux: FIONREAD,
// stdiodrain_linux.go), Delivered polls it until the pipe is empty: the
// moment the server had everything readbench wrote, the cancel included.

// Polling bounds: the first polls come quickly (a server that is reading
// empties the pipe at once), later ones back off so that a wait of
// seconds costs a few thousand cheap system calls.
const (
	drainPollFirst = 100 * time.Microsecond
	drainPollMax   = time.Millisecond
)

// ErrDeliveryUnknown is Delivered's answer where the transport cannot
// tell when the server read what was written (HTTP, or stdio where the
// kernel does not count a pipe's unread bytes): the caller must take the
// moment its write completed instead.
var ErrDeliveryUnknown = errors.New("the transport cannot tell when the server read a message")

// Delivered waits until the server has read every byte written to it so
// far and returns when it saw that (within about a millisecond of it).
// Called after Cancel, it is the moment the server had the cancel in
// hand, which is what a judgement of whether it honoured the cancel must
// start from. It returns ErrDeliveryUnknown where that cannot be known,
// and ctx's error when ctx ends with bytes still unread.
func (s *Session) Delivered(ctx context.Context) (time.Time, error) {
	st, ok := s.t.(*stdioTransport)
	if !ok {
		return time.Time{}, ErrDeliveryUnknown
	}
	return st.delivered(ctx)
}

// delivered polls the unread bytes of the child's stdin until there are
// none or ctx ends.
func (t *stdioTransport) delivered(ctx context.Context) (time.Time, error) {
	wait := drainPollFirst
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		n, err := unreadBytes(t.stdin)
		switch {
		case err != nil:
			return time.Time{}, err
		case n == 0:
			return time.Now(), nil
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-t.failed:
			return time.Time{}, t.deadErr // what is unread never will be
		case <-timer.C:
		}
		wait = min(2*wait, drainPollMax)
	}
}
