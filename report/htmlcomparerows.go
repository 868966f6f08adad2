package report

import "github.com/readbench/readbench/compare"

// The rows of the compare page's deltas table are the compare table's
// (compareSections): the same groups, labels, figures, changes and noise
// verdicts, in the page's markup, the noise cell saying why there was no
// test when the model says. Empty groups are left out.
func htmlDeltaGroups(c *compare.Comparison) []htmlDeltaGroup {
	var out []htmlDeltaGroup
	for _, s := range compareSections(c) {
		if len(s.rows) == 0 {
			continue
		}
		g := htmlDeltaGroup{Title: s.title, Rows: make([]htmlDelta, 0, len(s.rows))}
		for _, r := range s.rows {
			cells := append([]string{}, r.cells...)
			if r.full != "" {
				cells[0] = r.full // the page wraps a long label; the table clips it
			}
			if r.untested != "" {
				cells = append(cells[:4:4], cells[4]+": "+printable(r.untested))
			}
			d := htmlDelta{Cells: cells, Significant: r.significant}
			if r.delta != nil {
				d.Metric = r.delta.Metric
				d.Worse = r.significant && worse(*r.delta)
			}
			g.Rows = append(g.Rows, d)
		}
		out = append(out, g)
	}
	return out
}

// htmlContentLines are the content lines of the compare table, made
// printable for the page.
func htmlContentLines(c compare.Content) []string {
	lines := contentLines(c)
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return lines
}
