package client

import (
	"context"
	"errors"
	"os"
	"time"
)

// A read's deadline (ReadSpec.Deadline) ends it as a context deadline
// would: the same cancellation on the wire (a closed stream; a legacy
// server's notifications/cancelled, the cause its reason), the same
// error (errors.Is the cause and context.DeadlineExceeded). A whole read
// over plain http puts it on its connection (h1.Post's Deadline), which
// costs no timer, context or allocation per read; every other way of
// reading runs under a context with that deadline (withinDeadline).

// deadlineError is the error of a read its deadline ended, as the
// context of that deadline would say it: errors.Is its cause and
// context.DeadlineExceeded.
type deadlineError struct{ cause error }

func (e *deadlineError) Error() string   { return e.cause.Error() }
func (e *deadlineError) Unwrap() []error { return []error{e.cause, context.DeadlineExceeded} }

// deadlineCause is what a read past deadline says: the cause given, or
// context.DeadlineExceeded.
func deadlineCause(cause error) error {
	if cause == nil {
		return context.DeadlineExceeded
	}
	return cause
}

// withinDeadline runs read under ctx with the deadline at (none when
// zero) and cause: the way of the readers and transports that cannot
// put a deadline on their connection. A read its deadline ended returns
// a deadlineError.
func withinDeadline[T any](ctx context.Context, at time.Time, cause error, read func(context.Context) (T, error)) (T, error) {
	if at.IsZero() {
		return read(ctx)
	}
	cause = deadlineCause(cause)
	rctx, cancel := context.WithDeadlineCause(ctx, at, cause)
	defer cancel()
	v, err := read(rctx)
	if err != nil && ctx.Err() == nil && rctx.Err() != nil {
		err = &deadlineError{cause}
	}
	return v, err
}

// pastDeadline reports whether err is the end of a read by its deadline
// on the connection: the connection's deadline error, at or after the
// deadline (a dial's own timeout is not it).
func (s *readSpec) pastDeadline(err error) bool {
	return s != nil && !s.deadline.IsZero() && errors.Is(err, os.ErrDeadlineExceeded) && !time.Now().Before(s.deadline)
}
