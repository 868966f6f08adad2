package main

import (
	"strings"
	"testing"
)

// TestValueWithoutUnit: a duration flag given a bare number is told what
// is wrong and how to write it (the flag package said only "parse
// error"), by every command and on the workload's own keys; a bare rate
// is turns per second and a bare size bytes, so both are accepted, and a
// bad one of either says what a rate or a size is.
func TestValueWithoutUnit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--duration", "5"}, `--duration: duration "5" has no unit: write 5s, 5ms or 5m (see 'readbench run --help')`},
		{[]string{"run", "-d", "5"}, `readbench: -d: duration "5" has no unit: write 5s, 5ms or 5m`},
		{[]string{"run", "--duration=1.5"}, `--duration: duration "1.5" has no unit: write 1.5s, 1.5ms or 1.5m`},
		{[]string{"run", "--handshake-timeout", "30sec"}, `--handshake-timeout: duration "30sec": unknown unit "sec"`},
		{[]string{"capacity", "--step-duration", "2"}, `--step-duration: duration "2" has no unit: write 2s, 2ms or 2m (see 'readbench capacity --help')`},
		{[]string{"check", "--timeout", "10"}, `--timeout: duration "10" has no unit`},
		{[]string{"run", "--start-at", "+5"}, `"+5": duration "5" has no unit: write 5s, 5ms or 5m`},
		{[]string{"run", "--rate", "fast"}, `bad rate "fast": want a number (a rate is turns per period, such as 50/s`},
		{[]string{"run", "--max-answer", "5kb"}, `bad size "5kb": unit "kb" is ambiguous`},
	}
	for _, c := range cases {
		_, stderr, code := readbench(t, dir, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit %d and %q", strings.Join(c.args, " "), code, stderr, exitUsage, c.want)
		}
	}
	wl := writeWorkload(t, dir, "load: {rate: 50, duration: 5}\nmix: [{class: a, mime: text/plain, size: 100}]\n")
	_, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
	if code != exitUsage || !strings.Contains(stderr, `:1:28: load.duration: duration "5" has no unit: write 5s, 5ms or 5m`) ||
		strings.Contains(stderr, "load.rate") || strings.Contains(stderr, "mix[0].size") {
		t.Errorf("a workload's bare duration (rate 50 and size 100 are fine): exit %d, stderr:\n%s", code, stderr)
	}
}
