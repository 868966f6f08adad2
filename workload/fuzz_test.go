package workload

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzParse: whatever the bytes, Parse returns a workload or an *Error,
// never panics, and says the same thing twice; what it accepts validates and
// plans (or fails to plan with an *Error) and its turns can be drawn.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"testdata/*/*.yaml", "../scenarios/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(planYAML))
	f.Add([]byte(resolveYAML))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("f.yaml", data)
		var e *Error
		if err != nil {
			if w != nil || !errors.As(err, &e) {
				t.Fatalf("Parse = %v, %v; want nil and an *Error", w, err)
			}
			if _, again := Parse("f.yaml", data); again.Error() != err.Error() {
				t.Fatalf("Parse is not deterministic: %q then %q", err, again)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate refuses: %v", err)
		}
		p, err := NewPlan(w)
		if err != nil {
			if !errors.As(err, &e) {
				t.Fatalf("NewPlan error %v is not an *Error", err)
			}
			return
		}
		if w.Turn.Attachments.Max() > 64 {
			return // drawing thousands of reads per turn only slows the fuzzer
		}
		for i := range uint64(3) {
			a, b := p.Turn(i), p.Turn(i)
			if !slices.Equal(a, b) || len(a) == 0 || len(a) > w.Turn.Attachments.Max() {
				t.Fatalf("turn %d: %v then %v", i, a, b)
			}
		}
	})
}

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

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"", "embedded", "stdio:./server --stdio", `stdio:a "b c" 'd'`, `stdio:a\ b`,
		"http://127.0.0.1:8080/mcp", "sse+https://h/sse", "https://[::1]:8443/mcp?x=1#f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := ParseTarget(s)
		if err != nil {
			return
		}
		if err := tg.check(); err != nil {
			t.Fatalf("ParseTarget(%q) = %#v, which check refuses: %v", s, tg, err)
		}
		back, err := ParseTarget(tg.String())
		if err != nil || back.Kind != tg.Kind || back.Address != tg.Address || !slices.Equal(back.Argv, tg.Argv) {
			t.Fatalf("ParseTarget(%q) = %#v; its text %q reads back as %#v, %v", s, tg, tg.String(), back, err)
		}
	})
}
