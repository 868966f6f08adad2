package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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
//
// Inconclusive marks a bound the figures went past by a change with no
// verdict (too few runs): it does not fail the gate, but it is no pass
// either, and every format says "! inconclusive".
type verdictRow struct {
	pass, inconclusive bool
	bound, measured    string
}

// markInconclusive is the verdict word of an inconclusive row in every
// format: what a reader scanning for PASS must not find.
const markInconclusive = markWarn + " inconclusive"

// word is the row's verdict: PASS, FAIL or "! inconclusive".
func (v verdictRow) word() string {
	if v.inconclusive {
		return markInconclusive
	}
	return verdictWord(v.pass)
}

// writeVerdicts writes verdict rows under a title for a terminal or a
// CI log: PASS, FAIL or "! inconclusive", the bound, what it measured
// (wrapped under itself so a row fits 120 columns).
func writeVerdicts(w io.Writer, title string, rows []verdictRow) {
	const minVerdictText = 30
	fmt.Fprintln(w)
	fmt.Fprintln(w, title)
	wide := 4 // PASS, FAIL
	for _, v := range rows {
		wide = max(wide, utf8.RuneCountInString(v.word()))
	}
	for _, v := range rows {
		head := fmt.Sprintf("  %-*s  %-32s ", wide, v.word(), printable(v.bound))
		indent := strings.Repeat(" ", utf8.RuneCountInString(head))
		if widthOf(w)-len(indent) < minVerdictText { // a narrow terminal: what it measured under the bound
			head, indent = strings.TrimRight(head, " ")+"\n    ", "    "
		}
		text := wrapText(printable(v.measured), widthOf(w)-len(indent))
		fmt.Fprintf(w, "%s%s\n", head, strings.ReplaceAll(text, "\n", "\n"+indent))
	}
}

// mdVerdicts writes verdict rows as a markdown table.
func mdVerdicts(b *bytes.Buffer, rows []verdictRow) {
	cells := make([][]string, 0, len(rows))
	for _, v := range rows {
		icon := "✅ pass"
		switch {
		case v.inconclusive:
			icon = markInconclusive
		case !v.pass:
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
		word, cl := markPass+" "+v.word(), "pass"
		switch {
		case v.inconclusive:
			word, cl = v.word(), "warn"
		case !v.pass:
			word, cl = markFail+" "+v.word(), "fail"
		}
		t.Rows = append(t.Rows, []string{word, printable(v.bound), printable(v.measured)})
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
