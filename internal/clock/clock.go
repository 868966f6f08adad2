// Package clock sleeps precisely. On the virtual machines load tests run
// on, a timer fires a few hundred microseconds late (measured here: 330 µs
// at the median, over 700 µs at p90), which a load generator would add to
// every latency it reports and a simulated server to every delay it
// simulates. SleepUntil sleeps with a timer until shortly before the
// deadline and spins the rest.
package clock

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Spin is how much of a wait is spun rather than slept: more than a
// timer's usual lateness, so the timer wakes early and the spin lands on
// time. It bounds the CPU a precise wait costs (5% of a core at 50 waits
// a second).
const Spin = time.Millisecond

// SleepUntil returns true at t (at once if t has passed), or false as soon
// as stop or also is closed. Either may be nil (never closed): callers pass
// a context's Done channel and, say, a server's crash channel.
func SleepUntil(t time.Time, stop, also <-chan struct{}) bool {
	return sleepUntil(t, stop, also, true)
}

// Sleeper is SleepUntil for many concurrent waiters: at most Spinners of
// them spin at a time and the others trust the timer alone, so that a
// thousand simultaneous waits cost a thousand timers, not a thousand
// spinning goroutines. The zero value lets one waiter spin.
type Sleeper struct {
	Spinners int32
	spinning atomic.Int32
}

// SleepUntil is the package's SleepUntil, spinning only when a spinner
// slot is free.
func (s *Sleeper) SleepUntil(t time.Time, stop, also <-chan struct{}) bool {
	limit := max(s.Spinners, 1)
	if s.spinning.Add(1) > limit {
		s.spinning.Add(-1)
		return sleepUntil(t, stop, also, false)
	}
	defer s.spinning.Add(-1)
	return sleepUntil(t, stop, also, true)
}

func sleepUntil(t time.Time, stop, also <-chan struct{}, spin bool) bool {
	d := time.Until(t)
	if spin {
		d -= Spin
	}
	if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-stop:
			return false
		case <-also:
			return false
		case <-timer.C:
		}
	}
	for time.Now().Before(t) {
		select {
		case <-stop:
			return false
		case <-also:
			return false
		default:
		}
		runtime.Gosched()
	}
	return true
}
