package compare

import (
	"fmt"

	"github.com/readbench/readbench/stats"
)

// MethodPaired: the runs of an experiment in rounds (ab), base run i and
// new run i from the same round, tested by the paired t-test of the
// rounds' differences (stats.PairedT): both runs of a round ran at once,
// so what the machine did during it they share, and the difference within
// the round leaves it out. ab decides its bounds on the finer windows of
// the rounds (package ab); this is the test of every other figure.
const MethodPaired = "paired"

// pairedTest is the method sentence of a paired comparison of n rounds at
// two-sided level alpha.
func pairedTest(n int, alpha float64) string {
	return fmt.Sprintf("%d rounds, paired: a change is significant when the 20%% trimmed paired t-test of the rounds' differences (new − base, as ratios) gives p <= %.3g; ~ not different", n, alpha)
}

// judgePaired sets d from the rounds' values a (base) and b (new), a[i]
// and b[i] from round i: the medians, the change's interval from the
// paired test at two-sided level alpha, and its verdict.
func judgePaired(d *Delta, a, b []float64, alpha, floor float64) {
	if settled(d, a, b) {
		return
	}
	tr, back := scale(append(append([]float64{}, a...), b...))
	diffs := make([]float64, len(a))
	for i := range a {
		diffs[i] = tr(b[i]) - tr(a[i])
	}
	p, ok := stats.PairedT(diffs, alpha)
	if !ok {
		inconclusive(d, "need at least 2 rounds")
		return
	}
	// The interval of the mean difference, as a change of the base's median.
	d.Low, d.High = back(tr(d.Base)+p.Low)-d.Base, back(tr(d.Base)+p.High)-d.Base
	significance(d, p.P, alpha, floor, fmt.Sprintf("p = %.3g, trimmed paired t-test of %d rounds", p.P, p.N))
}
