package results

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/servercost"
)

func TestQuotient(t *testing.T) {
	for _, c := range []struct {
		num, den float64
		want     *float64
	}{
		{6020, 0, nil}, {6020, -1, nil}, {1, math.NaN(), nil}, {math.Inf(1), 2, nil}, {1e308, 1e-308, nil},
		{0, 5, figure(0)}, {9, 1.5, figure(6)},
	} {
		got := quotient(c.num, c.den, nil)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("quotient(%v, %v) = %v, want %v", c.num, c.den, deref(got), deref(c.want))
		}
	}
}

// is is *v for a comparison, NaN (equal to nothing) for no value.
func is(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

func deref(v *float64) any {
	if v == nil {
		return "null"
	}
	return *v
}

// TestNoFigureWithoutADivisor: every per-read figure and ratio of the
// document is null when nothing is under it, whatever else was measured.
func TestNoFigureWithoutADivisor(t *testing.T) {
	long := make([]servercost.Sample, 241)
	for i := range long {
		long[i] = servercost.Sample{At: time.Unix(0, 0).Add(time.Duration(i) * 250 * time.Millisecond), RSS: 40<<20 + int64(i)<<16}
	}
	short := long[:21] // 5 s
	base := servercost.Summary{Available: true, Processes: 1, Samples: 21, CPU: 6020 * time.Millisecond,
		ColdStart: true, SpawnToFirstAnswer: 30 * time.Millisecond, Handshake: 12 * time.Millisecond}
	for _, c := range []struct {
		name     string
		reads    int64
		first    time.Duration
		median   float64
		samples  []servercost.Sample
		perRead  bool // cpu_ms_per_1000_reads has a value
		vsMedian bool // first_read_vs_median has one
		slope    bool
	}{
		{name: "every read cancelled, 5 s", samples: short},
		{name: "answered, 5 s", reads: 2000, first: 304 * time.Millisecond, median: 2, samples: short, perRead: true, vsMedian: true},
		{name: "a first read but no steady median", reads: 1, first: 304 * time.Millisecond, samples: short, perRead: true},
		{name: "every read cancelled, a minute", samples: long, slope: true},
		{name: "answered, a minute", reads: 9000, first: 3 * time.Millisecond, median: 1, samples: long, perRead: true, vsMedian: true, slope: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			s.Reads, s.FirstRead, s.RSSSlope = c.reads, c.first, servercost.FitSlope(c.samples)
			sc := ServerCostOf(s, c.median)
			g := generatorOf(16<<20, time.Second, c.reads)
			for _, f := range []struct {
				key  string
				v    *float64
				want bool
			}{
				{"cpu_ms_per_1000_reads", sc.CPUMsPer1000Reads, c.perRead},
				{"generator.cpu_ms_per_1000_reads", g.CPUMsPer1000Reads, c.perRead},
				{"cold_start.first_read_vs_median", sc.ColdStart.FirstReadVsMedian, c.vsMedian},
				{"rss.slope_mib_per_min", sc.RSS.SlopeMiBPerMinute, c.slope},
				{"rss.slope_se_mib_per_min", sc.RSS.SlopeStdErr, c.slope},
			} {
				if (f.v != nil) != f.want {
					t.Errorf("%s = %v, want a value: %v", f.key, deref(f.v), f.want)
				}
			}
			if c.perRead && *sc.CPUMsPer1000Reads != roundTo(6020*1000/float64(c.reads), 1e3) {
				t.Errorf("cpu per 1000 reads %v", *sc.CPUMsPer1000Reads)
			}
			if c.slope && math.Abs(*sc.RSS.SlopeMiBPerMinute-15) > 1e-3 { // 1/16 MiB a quarter-second: 15 MiB/min
				t.Errorf("slope %v", *sc.RSS.SlopeMiBPerMinute)
			}
			b, err := json.Marshal(sc)
			if err != nil {
				t.Fatal(err)
			}
			if !c.perRead && !strings.Contains(string(b), `"cpu_ms_per_1000_reads":null`) {
				t.Errorf("no null in %s", b)
			}
		})
	}
	if g := generatorOf(16<<20, 0, 100); g.CPUAvailable || g.CPUMsPer1000Reads != nil {
		t.Errorf("generator without CPU figures: %+v", g)
	}
}
