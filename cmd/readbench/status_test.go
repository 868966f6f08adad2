package main

import (
	"strings"
	"testing"
)

// TestStatusLinesWhenNotATerminal: the binary's stderr is a pipe (as in
// CI), so no progress line is drawn; a status line is written instead at
// each --status-every of a run longer than it, whole lines without a
// control character, and none with -q or --status-every 0. Before, such a
// run was silent on stderr until it ended.
func TestStatusLinesWhenNotATerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		min  int // status lines at least (a busy machine may send a second's progress late, never fewer ticks)
		max  int
	}{
		{"every 1s of a 3s run", []string{"--status-every", "1s"}, 2, 5},
		{"quiet", []string{"--status-every", "1s", "-q"}, 0, 0},
		{"0 turns it off", []string{"--status-every", "0"}, 0, 0},
		{"the default 10s, longer than the run", nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := append([]string{"run", "--rate", "5/s", "--duration", "3s", "--warmup", "0s", "--out", "r.json"}, tc.args...)
			_, stderr, code := readbench(t, dir, args...)
			if code != 0 && code != 1 { // 1: a busy machine may call the run overloaded
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			n := 0
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "readbench: ") && strings.Contains(l, "  turns ") && strings.Contains(l, "  p99 ") {
					n++
				}
			}
			if n < tc.min || n > tc.max {
				t.Errorf("%d status lines, want %d to %d:\n%s", n, tc.min, tc.max, stderr)
			}
			for _, r := range stderr {
				if r != '\n' && (r < ' ' || r == 0x7f) {
					t.Fatalf("stderr holds the control character %q:\n%q", r, stderr)
				}
			}
		})
	}
}
