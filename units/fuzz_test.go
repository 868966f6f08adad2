package units

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The fuzz targets of the units parsers: whatever the text, a parser either
// refuses it or returns a value whose canonical text reads back to the same
// value, so a saved result and a sim: URI never change meaning in transit.

func FuzzParseSize(f *testing.F) {
	for _, c := range sizeCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("ParseSize(%q) = %d", s, n)
		}
		if back, err := ParseSize(FormatSize(n)); err != nil || back != n {
			t.Fatalf("ParseSize(%q) = %d; FormatSize = %q reads back as %d, %v", s, n, FormatSize(n), back, err)
		}
	})
}

func FuzzParseRate(f *testing.F) {
	for _, c := range rateCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err != nil {
			return
		}
		if !(r.PerSecond > 0) || math.IsInf(r.PerSecond, 0) {
			t.Fatalf("ParseRate(%q) = %v/s", s, r.PerSecond)
		}
		for _, text := range []string{r.String(), Rate{PerSecond: r.PerSecond}.String()} {
			if back, err := ParseRate(text); err != nil || back.PerSecond != r.PerSecond {
				t.Fatalf("ParseRate(%q) = %v/s; its text %q reads back as %v, %v", s, r.PerSecond, text, back.PerSecond, err)
			}
		}
	})
}

func FuzzParseStageRate(f *testing.F) {
	for _, c := range stageRateCases {
		f.Add(c.in)
	}
	for _, c := range rateCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseStageRate(s)
		if err != nil {
			return
		}
		if !(r.PerSecond >= 0) || math.IsInf(r.PerSecond, 0) {
			t.Fatalf("ParseStageRate(%q) = %v/s", s, r.PerSecond)
		}
		for _, text := range []string{r.String(), Rate{PerSecond: r.PerSecond}.String()} {
			if back, err := ParseStageRate(text); err != nil || back.PerSecond != r.PerSecond {
				t.Fatalf("ParseStageRate(%q) = %v/s; its text %q reads back as %v, %v", s, r.PerSecond, text, back.PerSecond, err)
			}
		}
	})
}

func FuzzParseDurationDist(f *testing.F) {
	for _, c := range durDistCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzDist(t, s, ParseDurationDist) })
}

func FuzzParseSizeDist(f *testing.F) {
	for _, c := range sizeDistCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzDist(t, s, ParseSizeDist) })
}

// fuzzDist checks that an accepted distribution round-trips through its
// text and samples finite, non-negative values.
func fuzzDist(t *testing.T, s string, parse func(string) (Dist, error)) {
	d, err := parse(s)
	if err != nil {
		return
	}
	if back, err := parse(d.String()); err != nil || back != d {
		t.Fatalf("parse(%q) = %#v; its text %q reads back as %#v, %v", s, d, d.String(), back, err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		if v := d.Sample(r); !(v >= 0) || math.IsInf(v, 0) {
			t.Fatalf("%#v.Sample() = %v", d, v)
		}
	}
}
