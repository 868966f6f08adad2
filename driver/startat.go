package driver

import (
	"context"
	"time"
)

// waitUntil blocks until the wall clock reaches at (a zero at does not
// wait) or ctx is cancelled; it reports whether at was reached. A timer,
// not a spin: the precision that matters is the schedule's, which the
// pacer's sleeper keeps from then on, measured from at itself.
func waitUntil(ctx context.Context, at time.Time) bool {
	if at.IsZero() {
		return true
	}
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
