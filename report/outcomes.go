package report

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The outcomes table: every outcome of the run in report order, its count
// and share, under the accounting identity's verdict.

// outcomeNames lists the outcomes of m: the known ones in report order,
// then any others a newer readbench wrote.
func outcomeNames(m map[string]int64) []string {
	var names []string
	known := map[string]bool{}
	for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
		names = append(names, o.String())
		known[o.String()] = true
	}
	for _, k := range sortedKeys(m) {
		if !known[k] {
			names = append(names, k)
		}
	}
	return names
}

// identityText says whether every scheduled read was counted, as the
// table and HTML reports head their outcomes.
func identityText(tot results.Totals) string {
	if !tot.IdentityOK {
		return "IDENTITY BROKEN: " + numfmt.Count(sumOutcomes(tot.Outcomes)) + " counted, reads were lost"
	}
	return "identity ok: scheduled = sum of outcomes"
}

func outcomesTable(w io.Writer, r *results.Result) error {
	tot := r.Totals
	fmt.Fprintln(w, wrapText(fmt.Sprintf("outcomes of %s scheduled reads (%s)", numfmt.Count(tot.Scheduled), identityText(tot)), widthOf(w)))
	t := newTable(w, 1, "outcome", "count", "%")
	for _, name := range outcomeNames(tot.Outcomes) {
		if n := tot.Outcomes[name]; n != 0 {
			if err := t.Append([]string{clip(name), numfmt.Count(n), numfmt.Percent(n, tot.Scheduled)}); err != nil {
				return err
			}
		}
	}
	return t.Render()
}

// sumOutcomes is the number of reads counted in m.
func sumOutcomes(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
