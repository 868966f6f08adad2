package numfmt

import (
	"math"
	"testing"
)

func TestFormats(t *testing.T) {
	ms := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {-1, "0"}, {0.001, "1.00µs"}, {0.512, "512µs"}, {0.9995, "1.00ms"},
		{12.345, "12.3ms"}, {20.015, "20.0ms"}, {99.96, "100ms"}, {999.6, "1.00s"},
		{1834, "1.83s"}, {3_600_000, "3600s"},
	}
	for _, c := range ms {
		if got := Ms(c.in); got != c.want {
			t.Errorf("Ms(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	counts := map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"}
	for in, want := range counts {
		if got := Count(in); got != want {
			t.Errorf("Count(%d) = %q, want %q", in, got, want)
		}
	}
	byteCases := map[int64]string{
		0: "0 B", 999: "999 B", 1000: "1.00 kB", 1834208: "1.83 MB", 2445612: "2.45 MB",
		999_999: "1.00 MB", 160_000_000: "160 MB", 5e18: "5000 PB",
	}
	for in, want := range byteCases {
		if got := Bytes(in); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", in, got, want)
		}
	}
	pct := []struct {
		part, whole int64
		want        string
	}{
		{0, 0, "-"}, {0, 10, "0%"}, {998, 1000, "99.8%"}, {1, 400, "0.25%"}, {1, 100000, "<0.01%"}, {1, 1, "100.0%"},
	}
	for _, c := range pct {
		if got := Percent(c.part, c.whole); got != c.want {
			t.Errorf("Percent(%d, %d) = %q, want %q", c.part, c.whole, got, c.want)
		}
	}
	shares := []struct {
		in   float64
		want string
	}{
		{0, "0%"}, {0.998, "99.8%"}, {0.0025, "0.25%"}, {0.0625, "6.2%"}, {5.0 / 105, "4.8%"}, {1e-5, "<0.01%"},
	}
	for _, c := range shares {
		if got := Share(c.in); got != c.want {
			t.Errorf("Share(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	quantiles := map[float64]string{0.99: "99", 0.9975: "99.75", 0.96059601: "96.06", 0.5: "50"}
	for in, want := range quantiles {
		if got := Percentile(in); got != want {
			t.Errorf("Percentile(%v) = %q, want %q", in, got, want)
		}
	}
	if got := Ratio(4.0 / 3); got != "1.333×" {
		t.Errorf("Ratio = %q", got)
	}
	if got := Ratio(0); got != "-" {
		t.Errorf("no decoded bytes: %q", got)
	}
	if got := Rate(49.96, "turns"); got != "50.0 turns/s" {
		t.Errorf("Rate = %q", got)
	}
}

// TestOpt: a figure with nothing under it prints None in every format,
// never a zero; a measured zero still prints as one.
func TestOpt(t *testing.T) {
	zero, four, nan := 0.0, 4.0, math.NaN()
	for _, c := range []struct {
		name string
		got  string
		want string
	}{
		{"nil ratio", Times(nil), "-"},
		{"ratio", Times(&four), "4.00×"},
		{"measured zero", Times(&zero), "0.00×"},
		{"NaN", Times(&nan), "-"},
		{"nil per 1000", Opt(nil, Fixed(1, " ms")), "-"},
		{"per 1000", Opt(&four, Fixed(1, " ms")), "4.0 ms"},
		{"nil in Ms", Opt(nil, Ms), "-"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestValue(t *testing.T) {
	for _, c := range []struct {
		unit string
		v    float64
		want string
	}{{"ms", 812.5, "813ms"}, {"ms", 0, "0ms"}, {"ms", -2, "-2.00ms"}, {"%", 0.25, "0.25%"}, {"/s", 45, "45.0/s"}, {"x", 1.3333, "1.333×"}, {"MiB", 512, "512 MiB"},
		{"count", 3, "3"}, {"count", -2, "-2"}, {"count", 1.5, "1.50"}} {
		if got := Value(c.unit, c.v); got != c.want {
			t.Errorf("Value(%q, %v) = %q, want %q", c.unit, c.v, got, c.want)
		}
	}
}
