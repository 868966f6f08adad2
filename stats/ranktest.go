package stats

import (
	"math"
	"slices"
)

// The tests compare uses when the run is the unit: each run contributes
// one value of a figure (its p50, its error rate), and the two sides'
// values are compared as two small samples (docs/compare.md). Nothing
// here knows what the values are.

// exactLimit is the largest combined sample the exact distributions are
// computed for; beyond it the normal approximation is used (runs are
// counted in tens, so it is rarely reached).
const exactLimit = 60

// UTest is the two-sided Mann–Whitney U (Wilcoxon rank-sum) test of x
// against y: u is the U statistic of x (the pairs with x above y, ties
// counting one half) and p the probability, were both drawn from one
// distribution, of a U at least as far from its mean. For up to
// exactLimit values in all, p is exact: the permutation distribution of
// the rank sum given the ties, counted, with p = min(1, 2·min(P(U ≤ u),
// P(U ≥ u))) as R's wilcox.test computes it. Beyond, the normal
// approximation with the tie and continuity corrections. It assumes
// nothing of the distribution, only that values are independent: hence
// one value per run, never the reads inside a run. Empty x or y: p = 1.
func UTest(x, y []float64) (u, p float64) {
	n, m := len(x), len(y)
	if n == 0 || m == 0 {
		return 0, 1
	}
	ranks := midranks2(x, y) // doubled, so they are whole
	w := 0                   // doubled rank sum of x
	for _, r := range ranks[:n] {
		w += r
	}
	u = float64(w)/2 - float64(n*(n+1))/2
	if n+m > exactLimit {
		return u, normalP(u, n, m, ranks)
	}
	// ways[j][s]: subsets of j of the values whose doubled ranks sum to s.
	total := 0
	for _, r := range ranks {
		total += r
	}
	ways := make([][]float64, n+1)
	for j := range ways {
		ways[j] = make([]float64, total+1)
	}
	ways[0][0] = 1
	for i, r := range ranks {
		for j := min(i+1, n); j >= 1; j-- {
			for s := total; s >= r; s-- {
				ways[j][s] += ways[j-1][s-r]
			}
		}
	}
	var below, above, all float64
	for s, c := range ways[n] {
		all += c
		if s <= w {
			below += c
		}
		if s >= w {
			above += c
		}
	}
	return u, min(1, 2*min(below, above)/all)
}

// midranks2 are the doubled mid-ranks of x's values then y's in the
// combined sample (tied values share the mean of their ranks).
func midranks2(x, y []float64) []int {
	type v struct {
		val float64
		at  int
	}
	all := make([]v, 0, len(x)+len(y))
	for i, a := range x {
		all = append(all, v{a, i})
	}
	for i, b := range y {
		all = append(all, v{b, len(x) + i})
	}
	slices.SortFunc(all, func(a, b v) int {
		if a.val < b.val {
			return -1
		}
		if a.val > b.val {
			return 1
		}
		return 0
	})
	ranks := make([]int, len(all))
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].val == all[i].val {
			j++
		}
		r := i + 1 + j // (i+1 + j) is twice the mean rank of positions i+1..j
		for k := i; k < j; k++ {
			ranks[all[k].at] = r
		}
		i = j
	}
	return ranks
}

// normalP is the two-sided normal approximation of U's p-value, with
// the tie correction of the variance and a continuity correction.
func normalP(u float64, n, m int, ranks2 []int) float64 {
	nn := float64(n + m)
	counts := map[int]int{}
	for _, r := range ranks2 {
		counts[r]++
	}
	ties := 0.0
	for _, t := range counts {
		ties += float64(t*t*t - t)
	}
	v := float64(n*m) / 12 * (nn + 1 - ties/(nn*(nn-1)))
	if v <= 0 {
		return 1
	}
	d := math.Max(math.Abs(u-float64(n*m)/2)-0.5, 0)
	return math.Min(1, math.Erfc(d/math.Sqrt(2*v)))
}

// uDist is the distribution of U for samples of n and m without ties:
// dist[u] = P(U = u), by the counting recurrence f(n, m, u) =
// f(n−1, m, u−m) + f(n, m−1, u).
func uDist(n, m int) []float64 {
	f := make([][]float64, n+1) // f[i][u] for the m' y values so far
	for i := range f {
		f[i] = make([]float64, n*m+1)
		f[i][0] = 1 // m' = 0: U is 0 for any i
	}
	for mm := 1; mm <= m; mm++ {
		g := make([][]float64, n+1)
		for i := range g {
			g[i] = make([]float64, n*m+1)
			for u := 0; u <= i*mm; u++ {
				g[i][u] = f[i][u] // the largest value is a y: no x above it
				if i > 0 && u >= mm {
					g[i][u] += g[i-1][u-mm] // it is an x: above all mm y
				}
			}
		}
		f = g
	}
	all := 0.0
	for _, c := range f[n] {
		all += c
	}
	for u := range f[n] {
		f[n][u] /= all
	}
	return f[n]
}

// MinRuns is the fewest values per side with which UTest can reach
// significance alpha at all: with n and n, the smallest p is
// 2/C(2n, n) (every value of one side beyond every value of the
// other). 4 at alpha 0.05, 5 at 0.01.
func MinRuns(alpha float64) int {
	for n := 1; ; n++ {
		if MinP(n, n) <= alpha {
			return n
		}
	}
}

// MinP is the smallest two-sided p UTest can give samples of n and m
// values: 2/C(n+m, n), capped at 1.
func MinP(n, m int) float64 {
	if n == 0 || m == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n; i++ {
		c = c * float64(m+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// ShiftInterval is the Hodges–Lehmann estimate of how far y lies from x
// (the median of the n·m differences y_j − x_i) and its distribution-free
// interval at confidence 1 − alpha: the c-th smallest and c-th largest
// differences, c the largest count with P(U < c) ≤ alpha/2 (the
// interval the U test inverts, as R's wilcox.test(conf.int = TRUE) gives
// it). ok is false when the samples are too small for such an interval.
// Applied to logarithms it is the estimate and interval of a ratio.
func ShiftInterval(x, y []float64, alpha float64) (est, lo, hi float64, ok bool) {
	n, m := len(x), len(y)
	if n == 0 || m == 0 {
		return 0, 0, 0, false
	}
	d := make([]float64, 0, n*m)
	for _, a := range x {
		for _, b := range y {
			d = append(d, b-a)
		}
	}
	slices.Sort(d)
	k := len(d)
	if k%2 == 1 {
		est = d[k/2]
	} else {
		est = (d[k/2-1] + d[k/2]) / 2
	}
	c := 0
	if n+m <= exactLimit {
		cum := 0.0 // P(U ≤ c−1)
		for _, pr := range uDist(n, m) {
			if cum+pr > alpha/2 {
				break
			}
			cum += pr
			c++
		}
	} else {
		z := normalQuantile(1 - alpha/2)
		c = int(math.Floor(float64(n*m)/2 - z*math.Sqrt(float64(n*m*(n+m+1))/12)))
	}
	if c < 1 || c > k {
		return est, 0, 0, false
	}
	return est, d[c-1], d[k-c], true
}

// normalQuantile is the standard normal's q-quantile (bisection on
// Erfc: exact enough, and called once per comparison).
func normalQuantile(q float64) float64 {
	lo, hi := -10.0, 10.0
	for range 100 {
		mid := (lo + hi) / 2
		if 0.5*math.Erfc(-mid/math.Sqrt2) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// t975 is Student's t 0.975-quantile for 1 to 30 degrees of freedom.
var t975 = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// PredictionInterval95 is the 95% prediction interval of one more value
// drawn like xs, assuming they are normal: mean ± t(0.975, k−1) · s ·
// √(1 + 1/k). It is how one new run is judged against the spread of k
// earlier runs when k is far too small for a rank test of one value (that
// needs 39 for a two-sided 5%). ok is false with fewer than 3 values.
// Applied to logarithms it assumes the figure is log-normal from run to
// run, the usual shape of latencies.
func PredictionInterval95(xs []float64) (lo, hi float64, ok bool) {
	k := len(xs)
	if k < 3 {
		return 0, 0, false
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(k)
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	s := math.Sqrt(ss / float64(k-1))
	half := tQuantile975(k-1) * s * math.Sqrt(1+1/float64(k))
	return mean - half, mean + half, true
}

// tQuantile975 is t's 0.975-quantile for df degrees of freedom: the
// table to 30, then the Cornish–Fisher expansion (within 0.001 there).
func tQuantile975(df int) float64 {
	if df <= len(t975) {
		return t975[df-1]
	}
	z, v := 1.959964, float64(df)
	return z + (z*z*z+z)/(4*v) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*v*v)
}
