package numfmt

import (
	"math"
	"regexp"
	"testing"
	"time"
)

// TestDuration: three significant digits under a minute, whole seconds
// from a minute on, trailing zeros dropped, every unit's boundary rounded
// into the next unit rather than printed as "1000ms".
func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{1, "1ns"},
		{750, "750ns"},
		{999, "999ns"},
		{time.Microsecond, "1µs"},
		{1234 * time.Nanosecond, "1.23µs"},
		{512 * time.Microsecond, "512µs"},
		{999_600 * time.Nanosecond, "1ms"},
		{25_369_591 * time.Nanosecond, "25.4ms"},
		{6_342_397 * time.Nanosecond, "6.34ms"},
		{800 * time.Millisecond, "800ms"},
		{999_700 * time.Microsecond, "1s"},
		{1200 * time.Millisecond, "1.2s"},
		{1_234_567_890, "1.23s"},
		{2500 * time.Millisecond, "2.5s"},
		{30 * time.Second, "30s"},
		{59_940 * time.Millisecond, "59.9s"},
		{59_960 * time.Millisecond, "1m"},
		{time.Minute, "1m"},
		{62_345_678_000, "1m02s"},
		{90 * time.Second, "1m30s"},
		{3*time.Minute + 5*time.Second, "3m05s"},
		{3*time.Minute + 4600*time.Millisecond, "3m05s"},
		{time.Hour, "1h"},
		{time.Hour + 2*time.Minute, "1h02m"},
		{time.Hour + 5*time.Second, "1h00m05s"},
		{26*time.Hour + 30*time.Minute + 15*time.Second, "26h30m15s"},
		{-25_369_591 * time.Nanosecond, "-25.4ms"},
		{-90 * time.Second, "-1m30s"},
	} {
		if got := Duration(c.d); got != c.want {
			t.Errorf("Duration(%d) = %q, want %q", int64(c.d), got, c.want)
		}
	}
}

// TestDurationNeverUnrounded: across every magnitude a run can meet, the
// text has at most three significant digits and none of Go's raw forms.
func TestDurationNeverUnrounded(t *testing.T) {
	bad := regexp.MustCompile(`\d\.\d{3,}|\d{4,}(ns|µs|ms)|\dm\d+\.\d|\dh\d+m\d+\.\d|\d{2}\.\d{2,}|\d\.\d{2}s.*m`)
	for d := time.Duration(1); d < 100*time.Hour; d = d*37/23 + 1 {
		got := Duration(d)
		if bad.MatchString(got) {
			t.Errorf("Duration(%d) = %q: unrounded", int64(d), got)
		}
	}
	for _, d := range []time.Duration{math.MaxInt64, math.MinInt64} {
		if got := Duration(d); got == "" || bad.MatchString(got) {
			t.Errorf("Duration(%d) = %q", int64(d), got)
		}
	}
}
