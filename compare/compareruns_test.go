package compare

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/units"
)

// side is k synthetic runs of 200 reads, each slowed or sped by the
// machine: a log-normal factor of spread sigma (the run-to-run noise
// the reads inside one run cannot show), times scale (the server).
func side(t *testing.T, rng *rand.Rand, k int, scale, sigma float64) []Labelled {
	t.Helper()
	return sideN(t, rng, k, 200, scale, sigma)
}

// sideN is side with n reads a run.
func sideN(t *testing.T, rng *rand.Rand, k, n int, scale, sigma float64) []Labelled {
	t.Helper()
	out := make([]Labelled, k)
	for i := range out {
		machine := math.Exp(sigma * rng.NormFloat64())
		r := synthetic(t, n, scale*machine, rng.Uint64())
		r.Schema = results.Schema
		r.Started = results.NewTimestamp(time.Date(2026, 12, 1, 0, 0, i, 0, time.UTC))
		out[i] = Labelled{Label: fmt.Sprintf("run%02d.json", i), Result: r}
	}
	return out
}

// scaledSide is side made cheaply, for experiments by the hundred: each
// run is one of the templates (runs of 500 reads, so their sampling error
// differs) with its latency figures scaled by the machine's factor and
// scale. The histograms are dropped: only the single-pair test reads
// them.
func scaledSide(rng *rand.Rand, templates []*results.Result, k int, scale, sigma float64) []Labelled {
	out := make([]Labelled, k)
	for i := range out {
		f := scale * math.Exp(sigma*rng.NormFloat64())
		r := *templates[rng.IntN(len(templates))]
		scaleLatency := func(l *stats.Latency) {
			l.P50Ms, l.P90Ms, l.P99Ms, l.P999Ms, l.MaxMs, l.MeanMs = f*l.P50Ms, f*l.P90Ms, f*l.P99Ms, f*l.P999Ms, f*l.MaxMs, f*l.MeanMs
			l.HDR = "" // not this test's subject, and decoding it is most of its cost
		}
		for _, l := range []*stats.Latency{&r.Read, &r.ReadOK, &r.Turn, &r.Service, &r.TTFB} {
			scaleLatency(l)
		}
		r.Lag.HDR = ""
		r.Classes = []results.Class{r.Classes[0]}
		scaleLatency(&r.Classes[0].Latency)
		r.TurnSizes = []results.TurnSize{r.TurnSizes[0]}
		scaleLatency(&r.TurnSizes[0].Latency)
		r.Started = results.NewTimestamp(time.Date(2026, 12, 1, 0, 0, i, 0, time.UTC))
		out[i] = Labelled{Label: fmt.Sprintf("run%02d.json", i), Result: &r}
	}
	return out
}

// gateOf holds c to bounds and reports whether any broke.
func gateOf(t *testing.T, c *Comparison, bs string, base, nw []Labelled) []BoundCheck {
	t.Helper()
	b, err := bounds.ParseBounds(bs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CheckBounds(c, b, base[len(base)-1].Result, nw[len(nw)-1].Result)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func mustCompareRuns(t *testing.T, base, nw []Labelled, o RunsOptions) *Comparison {
	t.Helper()
	c, err := Runs(base, nw, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCompareRunsGateErrorRates is the property the release gate rests
// on. Over 200 experiments of 5 runs per side whose machine moves each
// run by 10% (log-normal), the same server on both sides breaks
// read.p50=+10% at most 5% of the time (the test's alpha; the bound on
// top makes it rarer), and a 30% slower server breaks it in at least 80%
// (2.6 times the spread: the U test of 5 and 5 finds it about 89% of the
// time, stats.TestRankTestErrorRates).
// The seed is fixed: the counts are the same on every run of the test.
// A within-run test on these pairs calls most of the same-server changes
// significant (TestCompareRunsWithinRunMisleads).
func TestCompareRunsGateErrorRates(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2026, 20))
	var templates []*results.Result
	for seed := range uint64(4) {
		templates = append(templates, synthetic(t, 500, 1, 1000+seed*10))
	}
	const experiments = 200
	var falseAlarms, found, sameSignificant int
	for range experiments {
		base := scaledSide(rng, templates, 5, 1, 0.1)
		same := scaledSide(rng, templates, 5, 1, 0.1)
		c := mustCompareRuns(t, base, same, RunsOptions{NoiseFloor: -1})
		if c.Method != MethodRuns {
			t.Fatalf("method %q", c.Method)
		}
		if gateOf(t, c, "read.p50=+10%", base, same)[0].Pass == false {
			falseAlarms++
		}
		if d, _ := c.Find("read.p50"); d.Noise == Significant {
			sameSignificant++
		}
		slower := scaledSide(rng, templates, 5, 1.3, 0.1)
		c = mustCompareRuns(t, base, slower, RunsOptions{NoiseFloor: -1})
		if !gateOf(t, c, "read.p50=+10%", base, slower)[0].Pass {
			found++
		}
	}
	t.Logf("same server: %d/%d gates failed, %d p50 changes significant; 30%% slower: %d/%d gates failed",
		falseAlarms, experiments, sameSignificant, found, experiments)
	if falseAlarms > experiments/20 || sameSignificant > experiments*7/100 {
		t.Errorf("same server: %d gates failed, %d significant of %d", falseAlarms, sameSignificant, experiments)
	}
	if found < experiments*80/100 {
		t.Errorf("30%% slower: found %d of %d", found, experiments)
	}
}

// TestCompareRunsWithinRunMisleads: runs of 3,000 reads compared as
// single pairs by the within-run test (no noise floor) call the 10%
// run-to-run swing of one server a significant change most of the time:
// the reads of one run say how well that run is known, not how the next
// run will differ. It is why a pair is inconclusive.
func TestCompareRunsWithinRunMisleads(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	significant := 0
	for range 20 {
		a, b := sideN(t, rng, 1, 3000, 1, 0.1), sideN(t, rng, 1, 3000, 1, 0.1)
		c, err := Pair(a[0].Result, b[0].Result, PairOptions{NoiseFloor: 0})
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := c.Find("read.p50"); d.Noise == Significant {
			significant++
		}
	}
	t.Logf("within-run test: %d of 20 same-server pairs significant at p50", significant)
	if significant < 10 {
		t.Errorf("within-run test: %d of 20 same-server pairs significant; the demonstration wants most", significant)
	}
}

// TestCompareRunsOnePair: one run per side has no verdict: a change that
// breaks a bound is not answered, which fails unless the gate lets it
// pass; --single-run holds the raw bound.
func TestCompareRunsOnePair(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base, slower := side(t, rng, 1, 1, 0), side(t, rng, 1, 1.3, 0)
	c := mustCompareRuns(t, base, slower, RunsOptions{NoiseFloor: -1})
	d, _ := c.Find("read.p50")
	if c.Method != MethodPair || d.Noise != Inconclusive || !strings.Contains(d.Note, "within the run: significant") ||
		!strings.Contains(c.Test, "one run per side cannot separate the server from the machine") {
		t.Errorf("one pair: method %q, test %q, read.p50 %+v", c.Method, c.Test, d)
	}
	if g := gateOf(t, c, "read.p50=+10%,read.mean=+10%", base, slower); !g[0].Pass || !g[1].Pass || g[0].Verdict != VerdictInconclusive || !strings.Contains(g[0].Reason, "not answered") {
		t.Errorf("one pair, no --single-run: %+v", g)
	}
	c = mustCompareRuns(t, base, slower, RunsOptions{NoiseFloor: -1, Gate: Gate{SingleRun: true}})
	if g := gateOf(t, c, "read.p50=+10%,read.mean=+10%", base, slower); g[0].Pass || g[1].Pass {
		t.Errorf("one pair, --single-run: %+v", g)
	}
	if !strings.Contains(c.Test, "--single-run: bounds are held to the figures") {
		t.Errorf("test: %q", c.Test)
	}
	c = mustCompareRuns(t, base, slower, RunsOptions{NoiseFloor: -1, Gate: Gate{FailOnInconclusive: true}})
	if g := gateOf(t, c, "read.p50=+10%", base, slower); g[0].Pass || g[0].Verdict != VerdictInconclusive || !strings.Contains(g[0].Reason, "one run per side") {
		t.Errorf("one pair, --fail-on-inconclusive: %+v", g)
	}
}

// TestCompareRunsTooFew: 3 runs per side cannot reach 5% (2/20): every
// change says what it needs; 3 against 4 neither (2/35).
func TestCompareRunsTooFew(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, k := range [][2]int{{3, 3}, {3, 4}} {
		base, slower := side(t, rng, k[0], 1, 0.05), side(t, rng, k[1], 2, 0.05)
		c := mustCompareRuns(t, base, slower, RunsOptions{NoiseFloor: -1})
		d, _ := c.Find("read.p50")
		if d.Noise != Inconclusive || d.Note != "need at least 4 runs per side" || !strings.Contains(c.Test, "need at least 4 runs per side") {
			t.Errorf("%v runs: %+v, test %q", k, d, c.Test)
		}
		if g := gateOf(t, c, "read.p50=+10%", base, slower); !g[0].Pass {
			t.Errorf("%v runs: an inconclusive change failed the gate: %+v", k, g)
		}
	}
}

// TestCompareRunsHistory: one new run against the spread of ten: a 30%
// slower run with a 3% run-to-run spread lies outside the prediction
// interval, an unchanged one inside; against three, too few.
func TestCompareRunsHistory(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	base := side(t, rng, 10, 1, 0.03)
	for _, tc := range []struct {
		scale float64
		want  Noise
	}{{1, WithinNoise}, {1.3, Significant}} {
		nw := side(t, rng, 1, tc.scale, 0.03)
		c := mustCompareRuns(t, base, nw, RunsOptions{NoiseFloor: -1})
		d, _ := c.Find("read.p50")
		if c.Method != MethodHistory || d.Noise != tc.want || (d.Low <= 0) != (tc.want != Significant) {
			t.Errorf("x%v against 10: method %s, %+v", tc.scale, c.Method, d)
		}
		if len(c.Base.Runs) != 10 || !strings.HasPrefix(c.Base.Label, "10 runs, run00.json ... run09.json") {
			t.Errorf("base side: %+v", c.Base)
		}
	}
	c := mustCompareRuns(t, base[:3], side(t, rng, 1, 1.3, 0.03), RunsOptions{NoiseFloor: -1})
	if d, _ := c.Find("read.p50"); d.Noise != Inconclusive || d.Note != "need at least 5 runs against one" {
		t.Errorf("one against 3: %+v", d)
	}
}

// TestCompareRunsFigures: each figure is the median of its runs, the
// interval is the Hodges–Lehmann one as a change of the base's median,
// and a figure every run holds equal is unchanged.
func TestCompareRunsFigures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	base, nw := side(t, rng, 5, 1, 0.05), side(t, rng, 5, 1.5, 0.05)
	c := mustCompareRuns(t, base, nw, RunsOptions{NoiseFloor: -1})
	d, _ := c.Find("read.p50")
	vals, _ := values(base, "read.p50")
	if d.Base != median(vals) || d.Noise != Significant || d.Low <= 0 || d.High < d.Low || !strings.Contains(d.Note, "U test of 5 and 5 runs") {
		t.Errorf("read.p50: %+v, base values %v", d, vals)
	}
	if d, _ := c.Find("asked_rate"); d.Noise != Unchanged {
		t.Errorf("asked_rate: %+v", d)
	}
	if c.NoiseFloor != 0 || c.Alpha != RunAlpha {
		t.Errorf("floor %v alpha %v", c.NoiseFloor, c.Alpha)
	}
}

// TestCompareRunsMismatch: a run of another workload on either side is
// refused, naming the files.
func TestCompareRunsMismatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	base, nw := side(t, rng, 3, 1, 0), side(t, rng, 3, 1, 0)
	nw[1].Result.Workload.Load.Rate = units.Rate{PerSecond: 60, Text: "60/s"}
	var mm *MismatchError
	if _, err := Runs(base, nw, RunsOptions{}); !errors.As(err, &mm) || !strings.Contains(err.Error(), "run01.json") {
		t.Errorf("err %v", err)
	}
	if _, err := Runs(base, nw, RunsOptions{Force: true}); err != nil {
		t.Errorf("forced: %v", err)
	}
}

// TestPickRuns: the newest result of a folder against up to N earlier
// ones of its workload; another workload's results are passed over.
func TestPickRuns(t *testing.T) {
	dir := t.TempDir()
	for i := range 6 {
		r := loadFixture(t)
		r.Started = results.NewTimestamp(time.Date(2026, 12, 1, 0, 0, i, 0, time.UTC))
		if i == 2 {
			r.Workload.Name = "other"
		}
		if err := r.SaveFile(filepath.Join(dir, fmt.Sprintf("run%02d.json", i))); err != nil {
			t.Fatal(err)
		}
	}
	base, nw, err := PickRuns(dir, 3)
	if err != nil || filepath.Base(nw.Label) != "run05.json" || len(base) != 3 || filepath.Base(base[0].Label) != "run01.json" || filepath.Base(base[1].Label) != "run03.json" {
		t.Errorf("got %v %v %v", base, nw.Label, err)
	}
	if _, _, err := PickRuns(t.TempDir(), 3); err == nil {
		t.Error("empty folder: no error")
	}
}
