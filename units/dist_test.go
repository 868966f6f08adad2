package units

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// distCase is a distribution as written, what it parses to, its
// canonical String() and the error it gives ("" for none).
type distCase struct {
	in   string
	want Dist
	str  string // canonical String(); "" = error
	err  string
}

// sizeDistCases are shared with the fuzz targets as seeds.
var sizeDistCases = []distCase{
	{"1834208", Dist{DistFixed, 1834208, 0, UnitBytes}, "1834208", ""},
	{"8KiB", Dist{DistFixed, 8192, 0, UnitBytes}, "8KiB", ""},
	{"fixed(8KiB)", Dist{DistFixed, 8192, 0, UnitBytes}, "8KiB", ""},
	{"0", Dist{DistFixed, 0, 0, UnitBytes}, "0", ""},
	{"lognormal(8KiB, 200KiB)", Dist{DistLognormal, 8192, 204800, UnitBytes}, "lognormal(8KiB,200KiB)", ""},
	{" lognormal ( 8KiB ,200KiB ) ", Dist{DistLognormal, 8192, 204800, UnitBytes}, "lognormal(8KiB,200KiB)", ""},
	{"lognormal(1000,1000)", Dist{DistLognormal, 1000, 1000, UnitBytes}, "lognormal(1000,1000)", ""},
	{"uniform(1KiB,4KiB)", Dist{DistUniform, 1024, 4096, UnitBytes}, "uniform(1KiB,4KiB)", ""},
	{"uniform(0,1.5KB)", Dist{DistUniform, 0, 1500, UnitBytes}, "uniform(0,1500)", ""},
	{"lognormal(200KiB, 8KiB)", Dist{}, "", "p99 (8KiB) is below the median (200KiB)"},
	{"lognormal(0, 8KiB)", Dist{}, "", "median of a lognormal must be more than 0"},
	{"uniform(4KiB,1KiB)", Dist{}, "", "min (4KiB) is above the max (1KiB)"},
	{"lognormal(8KiB)", Dist{}, "", "lognormal takes 2 argument(s) (median, p99), got 1"},
	{"uniform(1,2,3)", Dist{}, "", "uniform takes 2 argument(s) (min, max), got 3"},
	{"fixed()", Dist{}, "", "bad size"},
	{"lognorm(8KiB,200KiB)", Dist{}, "", `unknown function "lognorm" (did you mean "lognormal"?)`},
	{"normal(8KiB,200KiB)", Dist{}, "", `unknown function "normal" (did you mean "lognormal"?)`},
	{"pareto(1,2)", Dist{}, "", `unknown function "pareto" (want one of: fixed, lognormal, uniform)`},
	{"lognormal(8KiB,200KiB", Dist{}, "", "unbalanced"},
	{"lognormal(8KiB,(200KiB))", Dist{}, "", "unbalanced"},
	{"8KiB)", Dist{}, "", "unbalanced"},
	{"lognormal(8kb,200KiB)", Dist{}, "", "ambiguous"},
	{"uniform(-1,5)", Dist{}, "", "negative"},
	{"16PiB", Dist{}, "", "unknown unit"},
	{"16384TiB", Dist{}, "", "too large"},
	{"12ms", Dist{}, "", "unknown unit"},
}

// durDistCases are shared with FuzzParseDurationDist as its seed corpus.
var durDistCases = []distCase{
	{"20ms", Dist{DistFixed, 20e6, 0, UnitDuration}, "20ms", ""},
	{"0s", Dist{DistFixed, 0, 0, UnitDuration}, "0s", ""},
	{"0", Dist{DistFixed, 0, 0, UnitDuration}, "0s", ""},
	{"1m30s", Dist{DistFixed, 90e9, 0, UnitDuration}, "1m30s", ""},
	{"lognormal(12ms,40ms)", Dist{DistLognormal, 12e6, 40e6, UnitDuration}, "lognormal(12ms,40ms)", ""},
	{"lognormal(12ms, 40ms)", Dist{DistLognormal, 12e6, 40e6, UnitDuration}, "lognormal(12ms,40ms)", ""},
	{"uniform(5ms,10ms)", Dist{DistUniform, 5e6, 10e6, UnitDuration}, "uniform(5ms,10ms)", ""},
	{"uniform(1.5ms,1500us)", Dist{DistUniform, 1.5e6, 1.5e6, UnitDuration}, "uniform(1.5ms,1.5ms)", ""},
	{"fixed(1h)", Dist{DistFixed, 3600e9, 0, UnitDuration}, "1h0m0s", ""},
	{"lognormal(40ms,12ms)", Dist{}, "", "p99 (12ms) is below the median (40ms)"},
	{"uniform(10ms,5ms)", Dist{}, "", "min (10ms) is above the max (5ms)"},
	{"-5ms", Dist{}, "", "must not be negative"},
	{"20", Dist{}, "", `duration "20" has no unit: write 20s, 20ms or 20m`},
	{"lognormal(12,40)", Dist{}, "", `duration "12" has no unit`},
	{"exponential(12ms)", Dist{}, "", "unknown function"},
	{"3000h", Dist{}, "", "too large"},
}

func TestParseSizeDist(t *testing.T) {
	for _, c := range sizeDistCases {
		checkDist(t, "ParseSizeDist", ParseSizeDist, c)
	}
}

func TestParseDurationDist(t *testing.T) {
	for _, c := range durDistCases {
		checkDist(t, "ParseDurationDist", ParseDurationDist, c)
	}
}

func checkDist(t *testing.T, fn string, parse func(string) (Dist, error), c distCase) {
	t.Helper()
	in, want, str, wantErr := c.in, c.want, c.str, c.err
	got, err := parse(in)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s(%q) = %v, %v; want an error about %q", fn, in, got, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Errorf("%s(%q): %v", fn, in, err)
		return
	}
	if got != want {
		t.Errorf("%s(%q) = %#v, want %#v", fn, in, got, want)
	}
	if s := got.String(); s != str {
		t.Errorf("%s(%q).String() = %q, want %q", fn, in, s, str)
	}
	if back, err := parse(got.String()); err != nil || back != got {
		t.Errorf("%s(%q) does not round-trip: %#v, %v", fn, got.String(), back, err)
	}
	var u Dist
	if err := u.UnmarshalText([]byte(got.String())); err != nil || u != got {
		t.Errorf("UnmarshalText(%q) = %#v, %v", got.String(), u, err)
	}
}

// quantile is the q-quantile of sorted xs (nearest rank).
func quantile(xs []float64, q float64) float64 {
	return xs[int(math.Ceil(q*float64(len(xs))))-1]
}

func TestSampleStatistics(t *testing.T) {
	const n = 100_000
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		d                string
		parse            func(string) (Dist, error)
		p50, p99, lo, hi float64
		tolerance        float64
	}{
		// A typical docs server: 12 ms median, 40 ms p99.
		{"lognormal(12ms,40ms)", ParseDurationDist, 12e6, 40e6, 0, math.Inf(1), 0.03},
		{"lognormal(8KiB,200KiB)", ParseSizeDist, 8192, 204800, 0, math.Inf(1), 0.05},
		{"uniform(1KiB,4KiB)", ParseSizeDist, 2560, 1024 + 0.99*3072, 1024, 4096, 0.01},
		{"1834208", ParseSizeDist, 1834208, 1834208, 1834208, 1834208, 0},
		{"lognormal(5ms,5ms)", ParseDurationDist, 5e6, 5e6, 5e6, 5e6, 0},
	} {
		d, err := c.parse(c.d)
		if err != nil {
			t.Fatal(err)
		}
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = d.Sample(r)
		}
		slices.Sort(xs)
		p50, p99 := quantile(xs, 0.5), quantile(xs, 0.99)
		if math.Abs(p50/c.p50-1) > c.tolerance || math.Abs(p99/c.p99-1) > c.tolerance {
			t.Errorf("%s: median %.4g, p99 %.4g; want %.4g, %.4g within %.0f%%", c.d, p50, p99, c.p50, c.p99, 100*c.tolerance)
		}
		if xs[0] < c.lo || xs[n-1] > c.hi {
			t.Errorf("%s: samples span [%g, %g], want within [%g, %g]", c.d, xs[0], xs[n-1], c.lo, c.hi)
		}
		if d.Median() != c.p50 {
			t.Errorf("%s: Median() = %g, want %g", c.d, d.Median(), c.p50)
		}
	}
}

func TestSampleNeverNegative(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range []Dist{
		{}, // the zero Dist samples 0
		{Kind: DistFixed, A: -5, Unit: UnitBytes},
		{Kind: DistUniform, A: -10, B: -1, Unit: UnitBytes},
		{Kind: DistLognormal, A: 1, B: 1 << 53, Unit: UnitBytes}, // a huge sigma stays finite
		{Kind: DistLognormal, A: math.NaN(), B: 3, Unit: UnitBytes},
	} {
		for range 1000 {
			if v := d.Sample(r); !(v >= 0) || math.IsInf(v, 0) {
				t.Fatalf("%#v.Sample() = %v", d, v)
			}
		}
	}
}

func TestDurationDistTextIsGoDuration(t *testing.T) {
	d, _ := ParseDurationDist("lognormal(1.5s,2m)")
	if got := d.String(); got != "lognormal(1.5s,2m0s)" {
		t.Errorf("String() = %q", got)
	}
	if time.Duration(d.A) != 1500*time.Millisecond {
		t.Errorf("A = %v", d.A)
	}
}
