package live

import (
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// TestProgressLine: the warmup is said ("warmup 1s/2s"), the measured
// time counts from its end against --duration ("3s/5s"), and the p99 is
// in the reports' one number format (41.7ms, never 41.72ms or 41.7ms
// beside 46.24ms).
func TestProgressLine(t *testing.T) {
	const warmup = 2 * time.Second
	for _, c := range []struct {
		name string
		p    stats.Progress
		want string
	}{
		{"warmup", stats.Progress{Elapsed: 1500 * time.Millisecond, Total: 7 * time.Second, Warmup: true, Turns: 15, Reads: 60},
			"warmup 1s/2s  turns 15 (10.0/s)  reads 60  in flight 0  p99 -  errors 0"},
		{"measured", stats.Progress{Elapsed: 5200 * time.Millisecond, Total: 7 * time.Second, Turns: 52, Reads: 1208, InFlight: 3,
			P99: 41723 * time.Microsecond, Errors: 1},
			"3s/5s  turns 52 (10.0/s)  reads 1,208  in flight 3  p99 41.7ms  errors 1"},
		{"draining", stats.Progress{Elapsed: 7600 * time.Millisecond, Total: 7 * time.Second, Draining: true, Turns: 70, Reads: 280, InFlight: 2},
			"draining 5s/5s  turns 70 (10.0/s)  reads 280  in flight 2  p99 -  errors 0"},
		{"no warmup", stats.Progress{Elapsed: 1 * time.Second, Total: 5 * time.Second, Turns: 10, P99: 46240 * time.Microsecond},
			"1s/5s  turns 10 (10.0/s)  reads 0  in flight 0  p99 46.2ms  errors 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := warmup
			if c.name == "no warmup" {
				w = 0
			}
			if got := ProgressLine(c.p, w); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
