package compare

import (
	"fmt"

	"github.com/readbench/readbench/internal/numfmt"
)

// AdviceAcross is the policy advice of several runs of one side taken
// together, "" with fewer than two that recommended a deadline. Each
// run's advice doubles its own turn tail as headroom for a tail that
// moves between runs; with several runs the move is measured, so the pair
// recommended is the largest any run recommends (the slowest run's tail,
// doubled), and the note says how far the tail swung from run to run.
// side names the runs in the sentence ("new").
func AdviceAcross(runs []Labelled, side string) string {
	var lo, hi, deadline, dlo, timeout float64
	n := 0
	for _, r := range runs {
		d, t := r.Result.Advice.Recommended()
		p99 := r.Result.Turn.P99Ms
		if d <= 0 || p99 <= 0 {
			continue
		}
		if n == 0 || p99 < lo {
			lo = p99
		}
		if n == 0 || d < dlo {
			dlo = d
		}
		hi, deadline, timeout = max(hi, p99), max(deadline, d), max(timeout, t)
		n++
	}
	if n < 2 {
		return ""
	}
	return fmt.Sprintf("advice across the %d %s runs: turn p99 swung from %s to %s (%sx) between runs; deadline %s and timeout %s cover the slowest of them with the usual headroom (one run alone recommended a deadline of %s to %s)",
		n, side, numfmt.Ms(lo), numfmt.Ms(hi), numfmt.Sig3(hi/lo), numfmt.Ms(deadline), numfmt.Ms(timeout), numfmt.Ms(dlo), numfmt.Ms(deadline))
}
