// Package clock sleeps precisely without burning a core.
//
// On the virtual machines load tests run on, a Go timer fires a few
// hundred microseconds late (measured here: 330 µs at the median, over
// 700 µs at p90; on Linux the runtime waits for timers in epoll, whose
// timeout is whole milliseconds, so a 100 µs timer fires after about
// 1 ms). A load generator would add that to every latency it reports, and
// a simulated server to every delay it simulates; spinning the last
// millisecond hides it but, at 1,000 waits a second, steals a whole core
// from the server being measured. The driver's scheduler and the
// simulated server both wait here, so that trade is made once.
package clock

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of the phases.
const (
	// Chunk is the longest single OS sleep: it bounds how late a stop
	// channel is noticed in that phase. It is longer than the usual lead,
	// so that a wait usually makes one OS sleep: each wake costs tens of
	// microseconds of CPU on a virtual machine, and the runtime hands the
	// sleeping goroutine's P to another thread and back.
	Chunk = 2 * time.Millisecond
	// MaxSpin bounds the spin at the end of a wait: what the OS sleep's
	// lateness leaves to do, never more.
	MaxSpin = 100 * time.Microsecond
	// MinLead and MaxLead bound how long before the deadline the timer
	// phase ends; in between, the lead is the timer lateness seen lately
	// (its p90) plus LeadMargin.
	MinLead    = time.Millisecond
	MaxLead    = 5 * time.Millisecond
	LeadMargin = 250 * time.Microsecond
	// DefaultPrecise is the number of concurrent precise waiters of a
	// Sleeper whose Precise is 0.
	DefaultPrecise = 8
)

// Sleeper waits precisely and learns the lateness of this machine's
// timers as it goes, so keep one per stream of waits (a run's scheduler,
// a server) rather than one per wait. A wait has three phases:
//
//  1. a Go timer, cancellable by channels, until the timer's learned
//     lateness (plus a margin) before the deadline;
//  2. the OS's own sleep (nanosleep: tens of microseconds of slack, not a
//     millisecond), usually once, checking the channels after it, until
//     the sleep's learned lateness before the deadline (at most Precise
//     waiters at a time; the others finish on the timer);
//  3. a spin of what is left, bounded by MaxSpin.
//
// Each phase learns from the waits before it, so the wait lands just
// after the deadline, never before, and the spin is a few microseconds
// instead of a millisecond. BenchmarkSleepUntil measures the trade: a
// wait every millisecond lands about 20 µs late at the median for about
// 30 µs more CPU than a bare timer, where the spin cost a millisecond.
// It is safe for concurrent use. The zero value is ready.
type Sleeper struct {
	// Precise is how many waiters may be past the timer phase at once,
	// each holding an OS thread in a sleep for about a millisecond
	// (0: DefaultPrecise). Others finish on the timer alone, a few hundred
	// microseconds late: a thousand simultaneous waits cost a thousand
	// timers, not a thousand threads.
	Precise int32

	inPrecise atomic.Int32
	mu        sync.Mutex
	timerLate window // lateness of the timer phase
	sleepLate window // lateness of one OS sleep
}

// SleepUntil returns true at t, or just after it (at once if t has
// passed), or false as soon as stop or also is closed. Either may be nil
// (never closed): callers pass a context's Done channel and, say, a
// server's crash channel.
func (s *Sleeper) SleepUntil(t time.Time, stop, also <-chan struct{}) bool {
	lead, early := s.estimates()
	if d := time.Until(t) - lead; d > 0 {
		target := time.Now().Add(d)
		if !timerUntil(target, stop, also) {
			return false
		}
		s.learn(&s.timerLate, time.Since(target))
	}
	limit := s.Precise
	if limit <= 0 {
		limit = DefaultPrecise
	}
	if s.inPrecise.Add(1) > limit {
		s.inPrecise.Add(-1)
		return timerUntil(t, stop, also)
	}
	defer s.inPrecise.Add(-1)
	for {
		if stopped(stop, also) {
			return false
		}
		left := time.Until(t)
		if left <= 0 {
			return true
		}
		if left <= early {
			return spinUntil(t, stop, also)
		}
		d := min(left-early, Chunk)
		from := time.Now()
		osSleep(d)
		s.learn(&s.sleepLate, time.Since(from)-d)
	}
}

// SleepUntil is a Sleeper's SleepUntil for a single wait: it cannot
// learn from earlier waits, so its OS sleep is not corrected (tens of
// microseconds late) and nothing is spun.
func SleepUntil(t time.Time, stop, also <-chan struct{}) bool {
	var s Sleeper
	return s.SleepUntil(t, stop, also)
}

// Lateness reports what the Sleeper has learned from the last Window
// waits: the timer phase's lateness (its p90) and the OS sleep's (its
// lower quartile), each 0 before any wait.
func (s *Sleeper) Lateness() (timer, sleep time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.timerLate.quantile(0.9), s.sleepLate.quantile(0.25)
}

// estimates are how early the timer phase ends (lead) and how much of the
// deadline is left to the spin (early).
//
// The lead covers nine timer wakes in ten, plus a margin: a timer that
// fires past the deadline makes the wait late, while each OS sleep costs
// a little CPU, so the lead is not the worst lateness ever seen. The OS
// sleep is aimed at its lower quartile of lateness before the deadline: a
// quarter of the sleeps land early and spin a few microseconds, three
// quarters land a few microseconds late and spin nothing.
func (s *Sleeper) estimates() (lead, early time.Duration) {
	timer, sleep := s.Lateness()
	lead = min(max(timer+LeadMargin, MinLead), MaxLead)
	early = min(max(sleep, 0), MaxSpin)
	return lead, early
}

func (s *Sleeper) learn(w *window, late time.Duration) {
	s.mu.Lock()
	w.add(late)
	s.mu.Unlock()
}

// timerUntil waits for t on a Go timer alone.
func timerUntil(t time.Time, stop, also <-chan struct{}) bool {
	d := time.Until(t)
	if d <= 0 {
		return !stopped(stop, also)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-stop:
		return false
	case <-also:
		return false
	case <-timer.C:
		return true
	}
}

// spinUntil yields the processor until t: the last few microseconds of a
// wait, which no sleep can hit.
func spinUntil(t time.Time, stop, also <-chan struct{}) bool {
	for time.Now().Before(t) {
		if stopped(stop, also) {
			return false
		}
		runtime.Gosched()
	}
	return true
}

func stopped(stop, also <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	case <-also:
		return true
	default:
		return false
	}
}
