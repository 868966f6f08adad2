package units

import (
	"strings"
	"testing"
	"time"
)

// durationCases are shared with FuzzParseDuration as its seed corpus: a
// duration is read as Go reads it, and refused with words that say what
// to write instead.
var durationCases = []struct {
	in   string
	want time.Duration
	err  string // "" when it parses
}{
	{"5s", 5 * time.Second, ""},
	{" 800ms ", 800 * time.Millisecond, ""},
	{"1m30s", 90 * time.Second, ""},
	{"0", 0, ""},
	{"-2s", -2 * time.Second, ""},
	{"5", 0, `duration "5" has no unit: write 5s, 5ms or 5m`},
	{"1.5", 0, `duration "1.5" has no unit: write 1.5s, 1.5ms or 1.5m`},
	{"30", 0, "has no unit"},
	{"5sec", 0, `duration "5sec": unknown unit "sec" (the units are ns, us, µs, ms, s, m and h`},
	{"2d", 0, `unknown unit "d"`},
	{"5 s", 0, `duration "5 s": write it without spaces, such as 5s`},
	{"9999999999h", 0, "is too large"},
	{"", 0, "is empty: write one such as 5s"},
	{"fast", 0, `duration "fast": want a duration such as 5s, 500ms or 1m30s`},
	{"1m30", 0, "want a duration such as"},
}

func TestParseDuration(t *testing.T) {
	for _, c := range durationCases {
		got, err := ParseDuration(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseDuration(%q) = %v, %v; want an error containing %q", c.in, got, err, c.err)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, c := range durationCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		want, goErr := time.ParseDuration(strings.TrimSpace(s))
		if (err == nil) != (goErr == nil) || d != want {
			t.Fatalf("ParseDuration(%q) = %v, %v; time.ParseDuration says %v, %v", s, d, err, want, goErr)
		}
		if err != nil && !strings.Contains(err.Error(), "duration") {
			t.Fatalf("ParseDuration(%q): %v does not say it wants a duration", s, err)
		}
	})
}

// TestDurationText: a Duration writes the text a person writes and reads
// it back to the same value; the empty text (a key older than the
// document) is zero, and a bad text is ParseDuration's error.
func TestDurationText(t *testing.T) {
	for _, d := range []time.Duration{0, 800 * time.Millisecond, 90 * time.Second, 5 * time.Second, 1500 * time.Microsecond, 36 * time.Hour} {
		b, err := Duration(d).MarshalText()
		if err != nil || string(b) != d.String() {
			t.Errorf("MarshalText(%v) = %q, %v; want %q", d, b, err, d.String())
		}
		var back Duration
		if err := back.UnmarshalText(b); err != nil || time.Duration(back) != d {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", b, back, err, d)
		}
	}
	got := Duration(time.Second)
	if err := got.UnmarshalText(nil); err != nil || got != 0 {
		t.Errorf("UnmarshalText of nothing = %v, %v; want 0", got, err)
	}
	if err := got.UnmarshalText([]byte("5")); err == nil || !strings.Contains(err.Error(), "has no unit") {
		t.Errorf("UnmarshalText(5) = %v; want ParseDuration's words", err)
	}
}
