package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestUTestKnownValues: U and p against published figures.
func TestUTestKnownValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		u, p float64
	}{
		// R: wilcox.test(c(1,2,3), c(4,5,6)): W = 0, p-value = 0.1 (2/C(6,3)).
		{"separated 3 and 3", []float64{1, 2, 3}, []float64{4, 5, 6}, 0, 0.1},
		// The same the other way round: U = n·m, same p.
		{"reversed", []float64{4, 5, 6}, []float64{1, 2, 3}, 9, 0.1},
		// scipy.stats.mannwhitneyu documentation: males [19 22 16 29 24],
		// females [20 11 17 12]: U1 = 17, two-sided exact p = 0.1111.
		{"scipy males/females", []float64{19, 22, 16, 29, 24}, []float64{20, 11, 17, 12}, 17, 1.0 / 9},
		// R's ?wilcox.test, Hollander & Wolfe: wilcox.test(x, y,
		// alternative = "g"): W = 35, p-value = 0.1272; two-sided twice that.
		{"R help example", []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46},
			[]float64{1.15, 0.88, 0.90, 0.74, 1.21}, 35, 0.2544},
		// Every value tied: nothing to tell apart.
		{"all tied", []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, 8, 1},
		// 5 and 5 separated: 2/C(10,5) = 2/252.
		{"separated 5 and 5", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 0, 2.0 / 252},
	} {
		u, p := UTest(tc.x, tc.y)
		if u != tc.u || math.Abs(p-tc.p) > 5e-4 {
			t.Errorf("%s: U = %v, p = %.5f; want %v, %.5f", tc.name, u, p, tc.u, tc.p)
		}
	}
}

// TestUTestTiesAgainstEnumeration: with ties, the exact p is the share of
// all C(N, n) relabellings whose rank sum is as extreme, counted here by
// brute force.
func TestUTestTiesAgainstEnumeration(t *testing.T) {
	x := []float64{1, 2, 2, 3, 5}
	y := []float64{2, 3, 3, 4, 6, 6}
	_, p := UTest(x, y)
	all := append(append([]float64{}, x...), y...)
	uOf := func(mask int) float64 {
		var a, b []float64
		for i, v := range all {
			if mask&(1<<i) != 0 {
				a = append(a, v)
			} else {
				b = append(b, v)
			}
		}
		u := 0.0
		for _, va := range a {
			for _, vb := range b {
				switch {
				case va > vb:
					u++
				case va == vb:
					u += 0.5
				}
			}
		}
		return u
	}
	u0 := uOf(1<<len(x) - 1)
	var below, above, total float64
	for mask := 0; mask < 1<<len(all); mask++ {
		if popcount(mask) != len(x) {
			continue
		}
		total++
		u := uOf(mask)
		if u <= u0 {
			below++
		}
		if u >= u0 {
			above++
		}
	}
	want := math.Min(1, 2*math.Min(below, above)/total)
	if math.Abs(p-want) > 1e-12 {
		t.Errorf("p = %v, enumeration %v", p, want)
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// TestUTestNormal: beyond the exact limit the approximation agrees with
// the exact p of a sample just inside it.
func TestUTestNormal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 30), make([]float64, 30)
	for i := range x {
		x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()+0.5
	}
	_, exact := UTest(x, y)
	_, approx := UTest(append(x, 100), append(y, -100)) // 62 values: the normal approximation
	if exact > 0.05 || approx > 0.1 || math.Abs(exact-approx) > 0.05 {
		t.Errorf("exact %v, normal %v", exact, approx)
	}
}

// TestMinRuns: 4 runs per side reach 5% (2/70), 3 cannot (2/20); 5 reach 1%.
func TestMinRuns(t *testing.T) {
	if got := MinRuns(0.05); got != 4 {
		t.Errorf("MinRuns(0.05) = %d", got)
	}
	if got := MinRuns(0.01); got != 5 {
		t.Errorf("MinRuns(0.01) = %d", got)
	}
	if got := MinP(1, 19); math.Abs(got-0.1) > 1e-12 {
		t.Errorf("MinP(1, 19) = %v: one value against 19 cannot reach 5%% two-sided", got)
	}
}

// TestShiftInterval: 1..5 against 11..15: the 25 differences run 6..14
// (counts 1 2 3 4 5 4 3 2 1); the estimate is 10 and the 95% interval
// (c = 3, as P(U ≤ 2) = 4/252 ≤ 0.025 < P(U ≤ 3) = 7/252) is the 3rd
// smallest and 3rd largest: 7 and 13, R's wilcox.test(conf.int = TRUE)
// at its achieved 96.8%. Three and three have no 95% interval.
func TestShiftInterval(t *testing.T) {
	est, lo, hi, ok := ShiftInterval([]float64{1, 2, 3, 4, 5}, []float64{11, 12, 13, 14, 15}, 0.05)
	if !ok || est != 10 || lo != 7 || hi != 13 {
		t.Errorf("got %v [%v, %v] ok=%v", est, lo, hi, ok)
	}
	est, _, _, ok = ShiftInterval([]float64{1, 2, 3}, []float64{4, 5, 6}, 0.05)
	if ok || est != 3 {
		t.Errorf("3 and 3: est %v ok=%v", est, ok)
	}
	if d := uDist(2, 2); d[0] != 1.0/6 || d[1] != 1.0/6 || d[2] != 2.0/6 {
		t.Errorf("uDist(2, 2) = %v: want 1 1 2 1 1 of 6", d)
	}
}

// TestPredictionInterval95: 1..5: mean 3, s = √2.5, t(0.975, 4) = 2.776,
// half-width 2.776 · 1.5811 · √1.2 = 4.808.
func TestPredictionInterval95(t *testing.T) {
	lo, hi, ok := PredictionInterval95([]float64{1, 2, 3, 4, 5})
	if !ok || math.Abs(lo+1.808) > 1e-3 || math.Abs(hi-7.808) > 1e-3 {
		t.Errorf("got [%v, %v] ok=%v", lo, hi, ok)
	}
	if _, _, ok := PredictionInterval95([]float64{1, 2}); ok {
		t.Error("two values: no interval")
	}
	if q := tQuantile975(40); math.Abs(q-2.021) > 1e-3 {
		t.Errorf("t(0.975, 40) = %v, want 2.021", q)
	}
}

// TestRankTestErrorRates is the property the compare gate rests on: over
// many experiments of 5 runs per side drawn from one distribution
// (log-normal run-to-run spread of 10%), the test calls a difference at
// 5% no more often than 5% (exact, so at most; here 2.7%), and a 30%
// shift (2.6 times the spread) is found in 89% of experiments. One run
// against 10 earlier ones by the prediction interval: 5.4% false alarms,
// and the 30% shift found in 62%: one new run is a weak experiment,
// which docs/compare.md says. The seed is fixed: the figures are the
// same on every run of the test.
func TestRankTestErrorRates(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	draw := func(k int, shift float64) []float64 {
		out := make([]float64, k)
		for i := range out {
			out[i] = math.Log(20) + 0.1*rng.NormFloat64() + math.Log(shift)
		}
		return out
	}
	const trials = 2000
	var sameU, shiftU, samePI, shiftPI int
	for range trials {
		if _, p := UTest(draw(5, 1), draw(5, 1)); p <= 0.05 {
			sameU++
		}
		if _, p := UTest(draw(5, 1), draw(5, 1.3)); p <= 0.05 {
			shiftU++
		}
		outside := func(shift float64) bool {
			lo, hi, _ := PredictionInterval95(draw(10, 1))
			v := draw(1, shift)[0]
			return v < lo || v > hi
		}
		if outside(1) {
			samePI++
		}
		if outside(1.3) {
			shiftPI++
		}
	}
	if rate := float64(sameU) / trials; rate > 0.05 {
		t.Errorf("U, same distribution: %.3f called different", rate)
	}
	if rate := float64(shiftU) / trials; rate < 0.85 {
		t.Errorf("U, 30%% shift: found in %.3f", rate)
	}
	if rate := float64(samePI) / trials; rate > 0.07 {
		t.Errorf("prediction interval, same distribution: %.3f outside", rate)
	}
	if rate := float64(shiftPI) / trials; rate < 0.55 {
		t.Errorf("prediction interval, 30%% shift: found in %.3f", rate)
	}
	t.Logf("U: %d/%d false, %d/%d found; PI: %d/%d false, %d/%d found", sameU, trials, shiftU, trials, samePI, trials, shiftPI, trials)
}
