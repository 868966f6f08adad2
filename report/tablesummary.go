package report

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// verdictLine is the run's verdict in one line, the first and the last
// line of the terminal report (the one slot for it: whatever decides a
// run's verdict says it here): today the thresholds', "✗ 1 of 2
// thresholds broken", "- no thresholds set".
func verdictLine(r *results.Result) string {
	verdict, _ := thresholdsVerdict(r)
	mark := verdict.Mark
	if mark == "" {
		mark = "-"
	}
	return mark + " " + verdict.Text
}

// writeSummary is the answer before the detail, as k6 ends with its
// checks: each threshold ✓ or ✗ with PASS or FAIL (what a CI log is
// searched for), then the figures the HTML page's headline shows.
func writeSummary(w io.Writer, r *results.Result) {
	for _, v := range r.Thresholds {
		m := markPass
		if !v.Pass {
			m = markFail
		}
		fmt.Fprint(w, indented(fmt.Sprintf("%s %s  %-32s %s", m, verdictWord(v.Pass), printable(v.Bound), printable(v.What())), widthOf(w)))
	}
	tot := r.Totals
	fmt.Fprint(w, indented(fmt.Sprintf("read p50 %s, p99 %s; turn p50 %s, p99 %s",
		boundedMs(r.Read, 0.5, r.Read.P50Ms, 0), boundedMs(r.Read, 0.99, r.Read.P99Ms, 0),
		boundedMs(r.Turn, 0.5, r.Turn.P50Ms, 0), boundedMs(r.Turn, 0.99, r.Turn.P99Ms, 0)), widthOf(w)))
	fmt.Fprint(w, indented(fmt.Sprintf("errors %s; rate achieved %s", numfmt.Opt(tot.ErrorRate, numfmt.Share), rateSummary(r)), widthOf(w)))
}

// rateSummary is the rate achieved against the rate asked.
func rateSummary(r *results.Result) string {
	t := rateTile(r)
	if t.Sub == "" {
		return t.Value
	}
	return t.Value + " (" + t.Sub + ")"
}
