package report

import (
	"github.com/readbench/readbench/results"
)

// The rows of the compare page's deltas table are the compare table's
// (compareSections): the same groups, labels, figures, changes and noise
// verdicts, in the page's markup, the noise cell saying why there was no
// test when the model says. Empty groups are left out.
func htmlDeltaGroups(c *results.Comparison) []htmlDeltaGroup {
	var out []htmlDeltaGroup
	for _, s := range compareSections(c) {
		if len(s.rows) == 0 {
			continue
		}
		g := htmlDeltaGroup{Title: s.title, Rows: make([]htmlDelta, 0, len(s.rows))}
		for _, r := range s.rows {
			cells := r.cells
			if r.untested != "" {
				cells = append(cells[:4:4], cells[4]+": "+printable(r.untested))
			}
			g.Rows = append(g.Rows, htmlDelta{Cells: cells, Significant: r.significant})
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
