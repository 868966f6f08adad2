package stats

import (
	"math"
	"slices"
)

// The paired test of ab (docs/compare.md, "ab"): both sides of a round run
// at once, so whatever the machine did during a window of it (other jobs,
// a warm cache, a throttled core) the two sides share, and the difference
// within the window cancels it. What the window does not share — a stall
// that met one side — is an outlier among the differences, and one
// outlier in six inflates a mean and its spread enough to hide a 30%
// change. So the differences are tested by
// their 20% trimmed mean (Tukey and McLaughlin's one-sample trimmed t, the
// paired form of Yuen's test): the largest and smallest fifth are set
// aside for the estimate, and the spread is the winsorized one, with
// n − 2g − 1 degrees of freedom. With no outliers it is close to Student's
// paired t; with them, it sees the rounds that were not stalled.

// Paired is the paired t-test of the differences d (one a round: new −
// base, on the scale the figure is tested on) at two-sided level alpha.
type Paired struct {
	N    int     // differences
	Mean float64 // their mean: the change's estimate
	// Low and High are the two-sided 1 − alpha interval of the mean
	// difference: Mean ∓ t(1 − alpha/2, N−1)·s/√N.
	Low, High float64
	// P is the two-sided p-value of "no change" (mean difference 0).
	P float64
}

// Trim is the share trimmed from each end of the differences.
const Trim = 0.2

// PairedT tests the differences d at two-sided level alpha (0 < alpha <
// 1) by their Trim-trimmed mean; ok is false with fewer than 2
// differences. Differences that are all equal have no spread: the
// interval is the value itself, and P is 1 when that value is 0, else 0.
// With fewer than 5 differences nothing is trimmed: Student's paired t.
func PairedT(d []float64, alpha float64) (p Paired, ok bool) {
	return trimmedT(d, nil, alpha, Trim)
}

// SerialT is PairedT for differences taken in time order: ab's windows,
// each segment of seg one round's windows in order, trimmed by trim (0:
// Student's paired t, the test of a share, whose rare events a trim would
// set aside as outliers). Windows next to each other can share what the
// pairing did not cancel — a stall that outlasts a window and met one
// side — so the spread is widened by the lag-1 autocorrelation ρ of the
// winsorized differences within the rounds: by √((1+ρ)/(1−ρ)), the
// variance of the mean of an AR(1) series, and the degrees of freedom
// shrink by the same factor. A negative ρ is taken as 0: no narrowing.
func SerialT(seg [][]float64, alpha, trim float64) (p Paired, ok bool) {
	var all []float64
	for _, s := range seg {
		all = append(all, s...)
	}
	return trimmedT(all, seg, alpha, trim)
}

// trimmedT is the one-sample trimmed t of d (seg, when not nil, the same
// values in time-ordered segments for the autocorrelation correction).
func trimmedT(d []float64, seg [][]float64, alpha, trim float64) (p Paired, ok bool) {
	n := len(d)
	if n < 2 || alpha <= 0 || alpha >= 1 {
		return Paired{}, false
	}
	s := slices.Clone(d)
	slices.Sort(s)
	g := int(math.Floor(trim * float64(n)))
	if n < 5 {
		g = 0
	}
	p.N = n
	for _, v := range s[g : n-g] {
		p.Mean += v
	}
	p.Mean /= float64(n - 2*g)
	// The winsorized spread: the g smallest set to the next, the g
	// largest to the one before them.
	lo, hi := s[g], s[n-g-1]
	wins := func(v float64) float64 { return min(max(v, lo), hi) }
	wmean := 0.0
	for _, v := range s {
		wmean += wins(v)
	}
	wmean /= float64(n)
	ss := 0.0
	for _, v := range s {
		ss += (wins(v) - wmean) * (wins(v) - wmean)
	}
	se := math.Sqrt(ss/float64(n-1)) / ((1 - 2*float64(g)/float64(n)) * math.Sqrt(float64(n)))
	if se == 0 {
		p.Low, p.High, p.P = p.Mean, p.Mean, 1
		if p.Mean != 0 {
			p.P = 0
		}
		return p, true
	}
	df := float64(n - 2*g - 1)
	if seg != nil && ss > 0 {
		co := 0.0
		for _, sg := range seg {
			for i := 1; i < len(sg); i++ {
				co += (wins(sg[i]) - wmean) * (wins(sg[i-1]) - wmean)
			}
		}
		rho := min(max(co/ss, 0), 0.9)
		f := (1 + rho) / (1 - rho)
		se *= math.Sqrt(f)
		df = max(df/f, 1)
	}
	half := TQuantile(1-alpha/2, df) * se
	p.Low, p.High = p.Mean-half, p.Mean+half
	p.P = 2 * (1 - TCDF(math.Abs(p.Mean)/se, df))
	return p, true
}

// TCDF is Student's t distribution function with df degrees of freedom,
// from the regularized incomplete beta function.
func TCDF(t, df float64) float64 {
	if math.IsInf(t, 0) {
		if t > 0 {
			return 1
		}
		return 0
	}
	tail := 0.5 * regIncBeta(df/(df+t*t), df/2, 0.5) // P(T > |t|)
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// TQuantile is Student's t q-quantile (0 < q < 1) with df degrees of
// freedom, by bisection on TCDF.
func TQuantile(q, df float64) float64 {
	lo, hi := -1e4, 1e4
	for range 200 {
		mid := (lo + hi) / 2
		if TCDF(mid, df) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Lentz's method), on the side of x where it converges
// fast.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(x, a, b) / a
	}
	return 1 - front*betaFraction(1-x, b, a)/b
}

// betaFraction is the continued fraction of the incomplete beta function.
func betaFraction(x, a, b float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, num := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}
