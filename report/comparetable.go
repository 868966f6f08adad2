package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/readbench/readbench/compare"
)

// The compare table: the comparison for a terminal or a CI log, every
// line within the width it is laid out for.

// compareWidth is the compare table's width when no terminal says one
// (WriteCompareTable): it fits a 120-column terminal.
const compareWidth = 120

// WriteCompareTable writes the comparison for a terminal or a CI log:
// both servers at the top, then every section with base, new, change and
// noise verdict, the content changes and the bounds.
func WriteCompareTable(w io.Writer, c *compare.Comparison) error {
	return Options{Width: compareWidth}.WriteCompareTable(w, c)
}

// WriteCompareTable is the package's WriteCompareTable, laid out for o's
// width.
func (o Options) WriteCompareTable(w io.Writer, c *compare.Comparison) error {
	b := &sizedWriter{width: o.width()}
	fmt.Fprintf(b, "%s: %s\n", comparedBy(c), printable(c.New.Workload))
	// The verdict and what decided it first, as the page's headline.
	var rows []compareRow
	for _, s := range compareSections(c) {
		rows = append(rows, s.rows...)
	}
	h := compareHeadline(c, "", rows)
	hang(b, h.Verdict.Mark+" ", h.Verdict.Text)
	for _, l := range h.Lines {
		hang(b, "  "+l.Mark+" ", l.Text)
	}
	fmt.Fprintln(b)
	wrapped(b, "base", sideText(c.Base))
	wrapped(b, "new", sideText(c.New))
	if c.Forced {
		wrapped(b, "FORCED", "the workloads differ: "+strings.Join(c.Differences, "; "))
	}
	for _, n := range c.Notes {
		wrapped(b, "note", n)
	}
	wrapped(b, "test", c.Test)
	for _, s := range compareSections(c) {
		if len(s.rows) == 0 {
			continue
		}
		fmt.Fprintln(b)
		t := newTable(b, 1, s.title, "base", "new", "change", "noise")
		for _, r := range s.rows {
			cells := append([]string{}, r.cells...)
			if r.delta != nil {
				cells[4] = noiseMark(*r.delta)
			}
			if err := t.Append(cells); err != nil {
				return fmt.Errorf("report: compare: %w", err)
			}
		}
		if err := t.Render(); err != nil {
			return fmt.Errorf("report: compare: %w", err)
		}
		if l := noiseLegend(s.rows); l != "" {
			hang(b, " ", l)
		}
	}
	fmt.Fprintln(b)
	for i, l := range contentLines(c.Content) {
		label := ""
		if i == 0 {
			label = "content"
		}
		wrapped(b, label, l)
	}
	if len(c.Bounds) > 0 {
		writeVerdicts(b, "bounds", boundRows(c))
	}
	compareSlowLines(b, c) // under the bounds: the reads to open when one broke
	out := make([]byte, 0, b.Len())
	for l := range bytes.Lines(b.Bytes()) {
		out = append(out, bytes.TrimRight(l, " \n")...)
		out = append(out, '\n')
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("report: compare: %w", err)
	}
	return nil
}

// noiseMark is a delta's verdict in the terminal table's noise column, a
// mark its table's legend explains once (noiseLegend): "*" significant,
// "~" within the noise, "?" no verdict (too few runs), "-" no test, and
// nothing for an unchanged figure.
func noiseMark(d compare.Delta) string {
	return map[compare.Noise]string{compare.Significant: "*", compare.WithinNoise: "~", compare.Inconclusive: "?", compare.Untested: "-"}[d.Noise]
}

// noiseLegend says once, under a table, what the marks of its rows mean,
// with each distinct reason a change had no verdict.
func noiseLegend(rows []compareRow) string {
	used := map[compare.Noise]bool{}
	var why []string
	for _, r := range rows {
		if r.delta == nil {
			continue
		}
		used[r.delta.Noise] = true
		if r.delta.Noise == compare.Inconclusive && !slices.Contains(why, r.delta.Note) {
			why = append(why, r.delta.Note)
		}
	}
	var parts []string
	for _, m := range []struct {
		n    compare.Noise
		text string
	}{{compare.Significant, "* significant"}, {compare.WithinNoise, "~ within the noise"},
		{compare.Inconclusive, "? no verdict: " + strings.Join(why, "; ")}, {compare.Untested, "- no test"}} {
		if used[m.n] {
			parts = append(parts, m.text)
		}
	}
	return strings.Join(parts, "   ")
}

// wrapped is a "label  text" line of the compare table wrapped to its
// width, the continuation lines under the text.
func wrapped(w io.Writer, label, text string) {
	hang(w, fmt.Sprintf("%-10s ", label), text)
}

// hang writes head then text wrapped to w's width, the continuation
// lines indented under the text's start.
func hang(w io.Writer, head, text string) {
	indent := strings.Repeat(" ", utf8.RuneCountInString(head))
	wrappedText := wrapText(printable(text), widthOf(w)-len(indent))
	fmt.Fprintf(w, "%s%s\n", head, strings.ReplaceAll(wrappedText, "\n", "\n"+indent))
}
