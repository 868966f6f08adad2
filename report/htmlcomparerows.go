package report

import (
	"github.com/readbench/readbench/results"
)

// The rows of the compare page's deltas table are the compare table's
// (compareSections): the same groups, labels, figures, changes and noise
// verdicts, in the page's markup. Empty groups are left out.
func htmlDeltaGroups(c *results.Comparison) []htmlDeltaGroup {
	var out []htmlDeltaGroup
	for _, s := range compareSections(c) {
		if len(s.rows) == 0 {
			continue
		}
		g := htmlDeltaGroup{Title: s.title, Rows: make([]htmlDelta, 0, len(s.rows))}
		for _, r := range s.rows {
			g.Rows = append(g.Rows, htmlDelta{Cells: r.cells, Significant: r.significant})
		}
		out = append(out, g)
	}
	return out
}

// htmlContentLines are the content lines of the compare table, made
// printable for the page.
func htmlContentLines(c results.Content) []string {
	lines := contentLines(c)
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return lines
}
