//go:build !linux

package clock

import "time"

// osSleep sleeps d. Outside Linux the runtime's timers are not rounded to
// milliseconds, so time.Sleep is the precise sleep.
func osSleep(d time.Duration) { time.Sleep(d) }
