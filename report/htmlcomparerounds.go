package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
)

// roundsMetrics are the figures each round's row shows: the gated ones,
// then read p50 and p99 when no bound names them, at most five.
func roundsMetrics(c *compare.Comparison) []string {
	var out []string
	for _, b := range c.Bounds {
		if b.Metric != "content" && !slices.Contains(out, b.Metric) {
			out = append(out, b.Metric)
		}
	}
	for _, m := range []string{"read.p50", "read.p99"} {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out[:min(len(out), 5)]
}

// roundsSection is the ab page's table of rounds: per round the order the
// sides ran in, the attempts, which base run was paired with which new
// run and, per gated figure, that pair's change (RoundDelta: the runs'
// own figures, whose medians are the tables'); an excluded round says why.
// None for a comparison that is not an experiment.
func roundsSection(c *compare.Comparison) (htmlSection, bool) {
	if len(c.Rounds) == 0 {
		return htmlSection{}, false
	}
	ms := roundsMetrics(c)
	t := htmlTable{Class: "rounds", Left: 4, Header: append([]string{"round", "order", "base run", "new run"}, ms...)}
	for _, r := range c.Rounds {
		row := []string{fmt.Sprint(r.Index), strings.Join(r.Order, ", ")}
		cl := ""
		switch {
		case !r.Kept:
			why := strings.Join(r.Noisy, "; ")
			row = append(row, "excluded", printable(fmt.Sprintf("after %d attempt(s): %s", r.Attempts, why)))
			for range ms {
				row = append(row, numfmt.None)
			}
			cl = "excluded"
		default:
			row = append(row, printable(filepath.Base(r.Base)), printable(filepath.Base(r.New)))
			if r.Attempts > 1 {
				row[1] += fmt.Sprintf(" (attempt %d: %s)", r.Attempts, printable(strings.Join(r.Noisy, "; ")))
			}
			for _, m := range ms {
				d, ok := c.RoundDelta(r, m)
				if !ok {
					row = append(row, numfmt.None)
					continue
				}
				row = append(row, numfmt.Value(d.Unit, d.Base)+" → "+numfmt.Value(d.Unit, d.New)+" ("+changeText(d)+")")
			}
		}
		t.Rows = append(t.Rows, row)
		t.RowClass = append(t.RowClass, cl)
	}
	t.MarkCol = -1
	return htmlSection{Kind: "rounds", ID: "rounds", Title: "Rounds: which runs were paired",
		Notes: []string{"Each kept round pairs one base run with one new run, run one after the other in the order shown; the change is that pair's own. " +
			"An excluded round's runs are in excluded/ and count on neither side."},
		Tables: []htmlTable{t}}, true
}
