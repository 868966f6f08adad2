package clock

import (
	"syscall"
	"time"
)

// osSleep sleeps d with nanosleep, whose slack is tens of microseconds,
// not the millisecond of a Go timer.
func osSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	_ = syscall.Nanosleep(&ts, nil) // EINTR only shortens it: the caller re-checks the time
}
