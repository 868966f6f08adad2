package clock

import (
	"testing"
	"time"
)

func TestSleepUntil(t *testing.T) {
	// Never early: the deadline is a lower bound (lateness is measured by
	// scripts/overhead.sh, not asserted on a shared machine).
	for _, d := range []time.Duration{0, 100 * time.Microsecond, 2 * time.Millisecond, 10 * time.Millisecond} {
		at := time.Now().Add(d)
		if !SleepUntil(at, nil, nil) {
			t.Fatal("returned false without a stop")
		}
		if now := time.Now(); now.Before(at) {
			t.Errorf("woke %v early", at.Sub(now))
		}
	}
	// A Sleeper whose spinner slot is taken still never wakes early.
	var sl Sleeper
	sl.spinning.Store(1)
	at := time.Now().Add(3 * time.Millisecond)
	if !sl.SleepUntil(at, nil, nil) || time.Now().Before(at) {
		t.Error("a non-spinning wait woke early")
	}
	if sl.spinning.Load() != 1 {
		t.Errorf("spinner count leaked: %d", sl.spinning.Load())
	}
	// A past deadline returns at once.
	if !SleepUntil(time.Now().Add(-time.Second), nil, nil) {
		t.Error("past deadline")
	}
	// Either channel stops it, in the timer phase and in the spin phase.
	for _, d := range []time.Duration{time.Hour, Spin / 2} {
		stop := make(chan struct{})
		close(stop)
		if SleepUntil(time.Now().Add(d), stop, nil) || SleepUntil(time.Now().Add(d), nil, stop) {
			t.Errorf("a closed channel did not stop a %v sleep", d)
		}
	}
}
