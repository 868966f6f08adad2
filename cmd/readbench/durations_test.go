package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// unrounded matches a duration as Go prints it unrounded: more than three
// decimals ("30.130908ms", "1.234567s"), a fraction after minutes
// ("1m2.345678s"), or the zero fields of time.Duration.String ("5m0s",
// "1h0m0s"). Every duration readbench writes for people goes through
// numfmt.Duration, which writes none of these.
var unrounded = regexp.MustCompile(`\b\d+\.\d{4,}(ns|µs|us|ms|s)\b|\b\d+m\d+\.\d+s\b|\b\d+h\d+m\d+(\.\d+)?s\b|\b\d+m0s\b`)

// TestNoUnroundedDurations runs the binary as a user would (a short run,
// check over stdio and over HTTP with a cancel URI whose time sets when
// the cancel is sent, a connect that fails on its handshake timeout) and
// scans everything it prints for a duration printed unrounded.
func TestNoUnroundedDurations(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	for _, c := range []struct {
		name  string
		args  []string
		codes []int // exits that are the command's normal answer here
		want  string
	}{
		{"run", []string{"run", "-d", "1s", "--rate", "10/s", "--out", "r.json"}, []int{0}, "healthy"},
		{"check-stdio", []string{"check", "--sample", "2"}, []int{0}, "cancellation"},
		// The cancel is sent at half the read's measured time: 20.5ms and
		// some microseconds, printed as it was measured before.
		{"check-http", []string{"check", "--target", url, "--sample", "1", "--cancel-uri", "sim:///slow?delay=40ms"}, []int{0}, "cancellation"},
		// A limit typed with more digits than it needs is said rounded.
		{"connect-fails", []string{"run", "-d", "1s", "--target", "stdio:sleep 30", "--handshake-timeout", "1234567us", "--out", "r.json"}, []int{1}, "handshake timeout of 1.23s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := readbench(t, t.TempDir(), c.args...)
			all := stdout + "\n" + stderr
			if !slices.Contains(c.codes, code) || !strings.Contains(all, c.want) {
				t.Fatalf("exit %d, want %v and %q in the output:\n%s\n%s", code, c.codes, c.want, stdout, stderr)
			}
			if m := unrounded.FindAllString(all, -1); len(m) > 0 {
				t.Errorf("unrounded durations %q in:\n%s\n%s", m, stdout, stderr)
			}
		})
	}
}

// TestUnroundedPattern: the scan's pattern sees Go's raw forms and passes
// the one format.
func TestUnroundedPattern(t *testing.T) {
	for _, s := range []string{"at 30.130908ms;", "of 1.234567s (", "1m2.345678s", "after 5m0s", "1h0m0s", "12.3456µs"} {
		if !unrounded.MatchString(s) {
			t.Errorf("%q not seen", s)
		}
	}
	for _, s := range []string{"25.4ms", "1.2s", "3m05s", "30s", "1h02m", "800ms", "sim:///x?size=1.23456", "p99.75"} {
		if unrounded.MatchString(s) {
			t.Errorf("%q taken for unrounded", s)
		}
	}
}
