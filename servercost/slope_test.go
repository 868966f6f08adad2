package servercost

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// series is n samples every step from t0, RSS given by f of the minutes
// since the first.
func series(n int, step time.Duration, f func(min float64) float64) []Sample {
	t0 := time.Unix(1000, 0)
	ss := make([]Sample, n)
	for i := range ss {
		at := time.Duration(i) * step
		ss[i] = Sample{At: t0.Add(at), RSS: int64(f(at.Minutes()) * (1 << 20))}
	}
	return ss
}

// TestFitSlope: a slope only over a run long enough to hold one, and
// always with its standard error.
func TestFitSlope(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]float64, 2000)
	for i := range noise {
		noise[i] = rng.NormFloat64()
	}
	for _, c := range []struct {
		name    string
		ss      []Sample
		ok      bool
		slope   float64 // MiB/min, when ok
		within  float64 // of slope
		seLo    float64 // bounds of the standard error
		seHi    float64
		whyHave string // in Why, when not ok
	}{
		{
			// The report that read like a leak alarm: 5 s, 20 samples, a 4 MiB
			// heap step at the start: "+48 MiB/min" before; no slope now.
			name: "a 5 s run has no slope",
			ss: series(21, 250*time.Millisecond, func(m float64) float64 {
				return 40 + 4*math.Min(m*60, 1)
			}),
			whyHave: "a slope needs 1m",
		},
		{
			name:    "a long run with too few samples has no slope",
			ss:      series(10, 10*time.Second, func(m float64) float64 { return 40 + m }),
			whyHave: "10 samples, a slope needs 20",
		},
		{
			name: "a leak over ten minutes, with noise",
			ss: func() []Sample {
				i := 0
				return series(2000, 300*time.Millisecond, func(m float64) float64 {
					i++
					return 100 + 3*m + 0.5*noise[i-1]
				})
			}(),
			ok: true, slope: 3, within: 0.01,
			// 0.5 MiB noise over 2000 samples spread evenly on 10 min:
			// se = 0.5 / sqrt(n·var(t)) = 0.5 / sqrt(2000·100/12) ≈ 0.0039.
			seLo: 0.003, seHi: 0.005,
		},
		{
			name: "a flat minute: zero slope, zero error",
			ss:   series(241, 250*time.Millisecond, func(float64) float64 { return 64 }),
			ok:   true, slope: 0, within: 1e-9, seLo: 0, seHi: 1e-9,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := FitSlope(c.ss)
			if got.OK != c.ok {
				t.Fatalf("OK %v, want %v: %+v", got.OK, c.ok, got)
			}
			if !c.ok {
				if got.MiBPerMin != 0 || got.StdErr != 0 || !strings.Contains(got.Why, c.whyHave) {
					t.Errorf("%+v, want no figures and a reason with %q", got, c.whyHave)
				}
				return
			}
			if math.Abs(got.MiBPerMin-c.slope) > c.within || got.StdErr < c.seLo || got.StdErr > c.seHi || got.Why != "" {
				t.Errorf("%+v, want %v ± %v MiB/min with a standard error in [%v, %v]", got, c.slope, c.within, c.seLo, c.seHi)
			}
		})
	}
}
