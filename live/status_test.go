package live

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// TestStatus: the lines Status writes for a run's progress, one a
// second from the driver: one at each multiple of the interval, one as
// the drain begins (only for a run longer than the interval), none when
// the interval is 0, and never a control character.
func TestStatus(t *testing.T) {
	second := func(s int, draining bool) stats.Progress {
		return stats.Progress{Elapsed: time.Duration(s) * time.Second, Total: 25 * time.Second,
			Turns: int64(10 * s), Reads: int64(40 * s), Draining: draining}
	}
	run := func(seconds int) []stats.Progress {
		var ps []stats.Progress
		for s := 1; s <= seconds; s++ {
			ps = append(ps, second(s, false))
		}
		return append(ps, second(seconds, true), second(seconds+1, true))
	}
	for _, tc := range []struct {
		name    string
		every   time.Duration
		seconds int
		want    []string // the clocks of the lines, in order
	}{
		{"every 10s of a 25s run", 10 * time.Second, 25, []string{"10s/25s", "20s/25s", "draining 25s/25s"}},
		{"every 1s", time.Second, 3, []string{"1s/25s", "2s/25s", "3s/25s", "draining 25s/25s"}},
		{"a run shorter than the interval", 10 * time.Second, 5, nil},
		{"0 writes nothing", 0, 25, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			f := Status(&b, 0, tc.every)
			for _, p := range run(tc.seconds) {
				f(p)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if b.Len() == 0 {
				lines = nil
			}
			if len(lines) != len(tc.want) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tc.want), b.String())
			}
			for i, l := range lines {
				if !strings.HasPrefix(l, "readbench: "+tc.want[i]+"  turns ") {
					t.Errorf("line %d = %q, want it to start with the clock %q", i, l, tc.want[i])
				}
				for _, r := range l {
					if r < ' ' || r == 0x7f {
						t.Errorf("line %d holds the control character %q: %q", i, r, l)
					}
				}
			}
		})
	}
}
