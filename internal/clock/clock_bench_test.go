//go:build linux

package clock

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkSleepUntil paces waits the way the scheduler does — deadlines
// a fixed gap apart, each measured from the previous deadline, not from
// the wake — and reports how late each wait returned (overshoot-p50-µs,
// -p99-µs, -max-µs) and the process's CPU per wait (cpu-µs/op, user +
// system, from the scheduler). Reported, never asserted: a shared machine's numbers move.
//
//   - timer: a Go timer alone (what a Sleeper's surplus waiters get);
//   - spin: a timer until 1 ms before, then a spin (the old clock);
//   - sleeper: a Sleeper (timer, OS sleep in chunks, bounded spin).
//
// ns/op is the gap plus the overshoot; cpu-µs/op is the figure to watch.
func BenchmarkSleepUntil(b *testing.B) {
	waits := map[string]func(*Sleeper, time.Time) bool{
		"timer":   func(_ *Sleeper, t time.Time) bool { return timerUntil(t, nil, nil) },
		"spin":    func(_ *Sleeper, t time.Time) bool { return spinWait(t) },
		"sleeper": func(s *Sleeper, t time.Time) bool { return s.SleepUntil(t, nil, nil) },
	}
	for _, gap := range []time.Duration{time.Millisecond, 20 * time.Millisecond} {
		for _, name := range []string{"timer", "spin", "sleeper"} {
			b.Run(name+"/gap="+gap.String(), func(b *testing.B) {
				wait := waits[name]
				var s Sleeper
				late := make([]time.Duration, 0, 1024)
				cpu0 := cpuTime()
				at := time.Now()
				for b.Loop() {
					at = at.Add(gap)
					if now := time.Now(); at.Before(now) {
						at = now // a wait that overran its gap does not start the next one late
					}
					wait(&s, at)
					late = append(late, time.Since(at))
				}
				cpu := cpuTime() - cpu0
				reportOvershoot(b, late)
				b.ReportMetric(float64(cpu.Microseconds())/float64(len(late)), "cpu-µs/op")
			})
		}
	}
}

// spinWait is the clock this package replaced: a timer until a
// millisecond before t, then a spin, for the benchmark to compare.
func spinWait(t time.Time) bool {
	if !timerUntil(t.Add(-time.Millisecond), nil, nil) {
		return false
	}
	for time.Now().Before(t) {
		runtime.Gosched()
	}
	return true
}

func reportOvershoot(b *testing.B, late []time.Duration) {
	if len(late) == 0 {
		return
	}
	slices.Sort(late)
	at := func(q float64) float64 {
		return float64(late[int(q*float64(len(late)-1))]) / float64(time.Microsecond)
	}
	b.ReportMetric(at(0.5), "overshoot-p50-µs")
	b.ReportMetric(at(0.99), "overshoot-p99-µs")
	b.ReportMetric(at(1), "overshoot-max-µs")
}

// cpuTime is the CPU time of this process's threads so far, in
// nanoseconds from the scheduler's own accounting (/proc/self/task/*/
// schedstat): getrusage counts in clock ticks, too coarse for a wait that
// costs microseconds. Threads that have exited are not counted; the Go
// runtime keeps its threads.
func cpuTime() time.Duration {
	stats, _ := filepath.Glob("/proc/self/task/*/schedstat")
	var total time.Duration
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if ns, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64); err == nil {
			total += time.Duration(ns)
		}
	}
	return total
}
