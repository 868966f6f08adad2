package clock

import (
	"slices"
	"time"
)

// Window is how many recent latenesses a Sleeper learns from: enough for
// a quartile, few enough to follow a machine whose load changes.
const Window = 32

// window holds the last Window latenesses. Not safe for concurrent use:
// the Sleeper locks.
type window struct {
	v [Window]time.Duration
	n int // values written so far (the next goes to v[n%Window])
}

func (w *window) add(d time.Duration) {
	w.v[w.n%Window] = d
	w.n++
}

// quantile is the value at quantile q in [0, 1] of the values held (the
// largest at 1), or 0 when there are none.
func (w *window) quantile(q float64) time.Duration {
	k := min(w.n, Window)
	if k == 0 {
		return 0
	}
	var buf [Window]time.Duration
	vals := buf[:k]
	copy(vals, w.v[:k])
	slices.Sort(vals)
	return vals[int(q*float64(k-1))]
}
