package clock

import (
	"testing"
	"time"
)

// Lateness is measured by BenchmarkSleepUntil and scripts/compare.sh, not
// asserted on a shared machine: these tests check what must always hold.

func TestNeverEarly(t *testing.T) {
	// The deadline is a lower bound, for a single wait, for a Sleeper
	// learning over a stream of waits (so its OS sleeps aim early and the
	// spin takes over), and for a surplus waiter trusting the timer alone.
	gaps := []time.Duration{0, 100 * time.Microsecond, 700 * time.Microsecond, 2 * time.Millisecond, 10 * time.Millisecond}
	check := func(name string, wait func(time.Time) bool) {
		for _, d := range gaps {
			at := time.Now().Add(d)
			if !wait(at) {
				t.Fatalf("%s: returned false without a stop", name)
			}
			if now := time.Now(); now.Before(at) {
				t.Errorf("%s: woke %v early from a %v wait", name, at.Sub(now), d)
			}
		}
	}
	check("SleepUntil", func(at time.Time) bool { return SleepUntil(at, nil, nil) })
	var s Sleeper
	for range 3 {
		check("Sleeper", func(at time.Time) bool { return s.SleepUntil(at, nil, nil) })
	}
	if timer, sleep := s.Lateness(); timer < 0 || sleep < 0 {
		t.Errorf("learned a negative lateness: timer %v, sleep %v", timer, sleep)
	}
	full := Sleeper{Precise: 1}
	full.inPrecise.Store(1) // the one precise slot is taken
	check("surplus waiter", func(at time.Time) bool { return full.SleepUntil(at, nil, nil) })
	if n := full.inPrecise.Load(); n != 1 {
		t.Errorf("precise waiter count leaked: %d", n)
	}
	// A past deadline returns at once.
	if !s.SleepUntil(time.Now().Add(-time.Second), nil, nil) {
		t.Error("past deadline")
	}
}

func TestStop(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	// In the timer phase (an hour), in the OS-sleep phase (within the
	// lead), with either channel, and in the spin.
	for _, d := range []time.Duration{time.Hour, MinLead / 2, 0} {
		var s Sleeper
		at := time.Now().Add(d)
		if d == 0 {
			at = time.Now().Add(time.Hour)
			if spinUntil(at, closed, nil) || spinUntil(at, nil, closed) {
				t.Error("a closed channel did not stop the spin")
			}
			continue
		}
		if s.SleepUntil(at, closed, nil) || s.SleepUntil(at, nil, closed) {
			t.Errorf("a closed channel did not stop a %v sleep", d)
		}
		if SleepUntil(at, closed, nil) {
			t.Errorf("a closed channel did not stop a single %v sleep", d)
		}
	}
	// A channel closed during the wait ends it long before its deadline.
	stop := make(chan struct{})
	go func() {
		time.Sleep(5 * time.Millisecond)
		close(stop)
	}()
	var s Sleeper
	start := time.Now()
	if s.SleepUntil(start.Add(time.Hour), stop, nil) {
		t.Error("an hour's sleep returned true")
	}
	if waited := time.Since(start); waited > time.Minute {
		t.Errorf("stop noticed after %v", waited)
	}
}

func TestEstimatesBounded(t *testing.T) {
	var s Sleeper
	if lead, early := s.estimates(); lead != MinLead || early != 0 {
		t.Errorf("before any wait: lead %v, early %v; want %v, 0", lead, early, MinLead)
	}
	// A stalled machine cannot make the spin long or the lead unbounded.
	for range Window {
		s.learn(&s.timerLate, time.Hour)
		s.learn(&s.sleepLate, time.Hour)
	}
	if lead, early := s.estimates(); lead != MaxLead || early != MaxSpin {
		t.Errorf("after huge lateness: lead %v, early %v; want %v, %v", lead, early, MaxLead, MaxSpin)
	}
	// A clock that went backwards cannot make the spin negative.
	for range Window {
		s.learn(&s.sleepLate, -time.Second)
	}
	if _, early := s.estimates(); early != 0 {
		t.Errorf("after negative lateness: early %v", early)
	}
}

func TestWindow(t *testing.T) {
	var w window
	if w.quantile(0.5) != 0 {
		t.Error("empty window")
	}
	for i := 1; i <= 4; i++ {
		w.add(time.Duration(i))
	}
	if got := w.quantile(1); got != 4 {
		t.Errorf("max of 1..4 = %v", got)
	}
	if got := w.quantile(0); got != 1 {
		t.Errorf("min of 1..4 = %v", got)
	}
	// Only the last Window values count.
	for i := range Window {
		w.add(time.Duration(100 + i))
	}
	if got := w.quantile(0); got != 100 {
		t.Errorf("oldest values kept: min %v", got)
	}
}
