package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/readbench/readbench/results"
)

// verdictWord is PASS or FAIL: what a CI log is searched for.
func verdictWord(pass bool) string {
	if pass {
		return "PASS"
	}
	return "FAIL"
}

// thresholdRows are the verdict rows of r's thresholds.
func thresholdRows(r *results.Result) []verdictRow {
	rows := make([]verdictRow, 0, len(r.Thresholds))
	for _, v := range r.Thresholds {
		rows = append(rows, verdictRow{pass: v.Pass, bound: v.Bound, measured: v.What()})
	}
	return rows
}

// verdictRow is a bound held to a run (a threshold) or to a comparison
// (--fail-on): whether it held, the bound as written and what it
// measured. Every format lays these out the same way.
type verdictRow struct {
	pass            bool
	bound, measured string
}

// writeVerdicts writes verdict rows under a title for a terminal or a
// CI log: PASS or FAIL, the bound, what it measured.
func writeVerdicts(w io.Writer, title string, rows []verdictRow) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, title)
	for _, v := range rows {
		fmt.Fprintf(w, "  %s  %-32s %s\n", verdictWord(v.pass), printable(v.bound), printable(v.measured))
	}
}

// mdVerdicts writes verdict rows as a markdown table.
func mdVerdicts(b *bytes.Buffer, rows []verdictRow) {
	cells := make([][]string, 0, len(rows))
	for _, v := range rows {
		icon := "✅ pass"
		if !v.pass {
			icon = "❌ fail"
		}
		cells = append(cells, []string{icon, "`" + mdCode(v.bound) + "`", mdEscape(v.measured)})
	}
	mdTable(b, "lll", []string{"verdict", "bound", "measured"}, cells)
}

// verdictsHTMLTable is verdict rows as a table of the HTML page.
func verdictsHTMLTable(class string, rows []verdictRow) htmlTable {
	t := htmlTable{Class: class, Left: 3, Header: []string{"verdict", "bound", "measured"}}
	for _, v := range rows {
		mark, cl := markPass, "pass"
		if !v.pass {
			mark, cl = markFail, "fail"
		}
		t.Rows = append(t.Rows, []string{mark + " " + verdictWord(v.pass), printable(v.bound), printable(v.measured)})
		t.RowClass = append(t.RowClass, cl)
	}
	return t
}

// mdThresholds is the thresholds section of the markdown report.
func mdThresholds(b *bytes.Buffer, r *results.Result) {
	if len(r.Thresholds) == 0 {
		return
	}
	b.WriteString("### Thresholds\n\n")
	mdVerdicts(b, thresholdRows(r))
}

// mdCode makes s safe inside a code span of a table cell.
func mdCode(s string) string {
	out := []rune{}
	for _, c := range printable(s) {
		switch c {
		case '`':
			c = '\''
		case '|':
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return string(out)
}
