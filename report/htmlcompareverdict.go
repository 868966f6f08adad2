package report

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
)

// The compare page's headline: the verdict (regression, no change or
// inconclusive) and the few deltas or bounds that decided it; and the
// deltas table ordered so what matters comes first: the gated rows (a
// --fail-on bound names them) and the significant ones, the rest folded.
// The verdicts are the model's (compare.Compare, bounds.Check); this only
// reads them.

// worse says whether a delta's change is for the worse: more latency,
// errors, bytes or cost, fewer turns or ok reads per second.
func worse(d compare.Delta) bool {
	switch {
	case d.Metric == "asked_rate":
		return false // what was asked, not what the server did
	case d.Unit == "/s" || strings.HasSuffix(d.Metric, ".ok") || d.Label == "ok":
		return d.Change < 0
	}
	return d.Change > 0
}

// plural is one when n is 1, else many (with n for a %d in it).
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	if strings.Contains(many, "%d") {
		return fmt.Sprintf(many, n)
	}
	return many
}

// decidingLimit is how many deltas the headline lists.
const decidingLimit = 5

// compareHeadline is the verdict of c and the lines that decided it.
func compareHeadline(c *compare.Comparison, title string, rows []compareRow) htmlHeadline {
	h := htmlHeadline{Kind: "compare", Title: title}
	var broken, open, held []htmlMark
	for _, b := range c.Bounds {
		line := printable(b.Bound + ": " + boundText(b))
		switch {
		case !b.Pass:
			broken = append(broken, failMark(line))
		case b.Verdict == compare.VerdictInconclusive:
			// Not answered (and passed by --fail-on-inconclusive=false).
			// A bound held by the figures as measured, untested, is held:
			// its verdict decided the exit, and its line says "no test".
			open = append(open, warnMark(line))
		default:
			held = append(held, passMark(line))
		}
	}
	var worseRows, better []htmlMark
	noVerdict := 0
	for _, r := range rows {
		if r.delta == nil {
			continue
		}
		if r.delta.Noise == compare.Inconclusive || r.delta.Noise == compare.Untested {
			noVerdict++
		}
		if !r.significant {
			continue
		}
		line := r.full + " " + r.cells[1] + " → " + r.cells[2] + " (" + r.cells[3] + ")"
		if worse(*r.delta) {
			worseRows = append(worseRows, failMark(line))
		} else {
			better = append(better, passMark(line))
		}
	}
	top := func(ms []htmlMark) []htmlMark { return ms[:min(len(ms), decidingLimit)] }
	switch {
	case c.Answer != nil && !c.Answer.Answered:
		// ab could not look: said first, whatever the gate made of it.
		h.Verdict = warnMark(printable(c.Answer.Line))
		h.Lines = top(append(append(broken, open...), held...))
	case len(broken) > 0:
		h.Verdict = failMark(fmt.Sprintf("regression: %d of %d %s broken", len(broken), len(c.Bounds), plural(len(c.Bounds), "bound", "bounds")))
		h.Lines = top(append(broken, worseRows...))
	case len(open) > 0:
		h.Verdict = warnMark(fmt.Sprintf("inconclusive: %d of %d bounds have no verdict", len(open), len(c.Bounds)))
		h.Lines = top(append(open, held...))
	case len(c.Bounds) > 0:
		h.Verdict = passMark(fmt.Sprintf("no regression: %s held", plural(len(c.Bounds), "the bound", "all %d bounds")))
		for i := range worseRows {
			worseRows[i] = warnMark("changed within the bounds: " + worseRows[i].Text)
		}
		h.Lines = top(append(held, worseRows...))
	case len(worseRows) > 0:
		h.Verdict = failMark(fmt.Sprintf("regression: %d significant changes for the worse", len(worseRows)))
		h.Lines = top(append(worseRows, better...))
	case noVerdict > 0 && len(better) == 0:
		h.Verdict = warnMark("inconclusive: no change could be told from the noise")
		h.Note = printable(c.Test)
	default:
		h.Verdict = passMark("no change for the worse beyond the noise")
		h.Lines = top(better)
	}
	h.Tiles = compareTiles(c)
	return h
}

// compareTiles are the headline figures of both sides: read p50 and p99,
// turn p99, errors and the rate, each with its change and verdict.
func compareTiles(c *compare.Comparison) []htmlTile {
	var ds []compare.Delta
	for _, l := range c.Latency {
		for _, d := range l.Deltas {
			if (l.Block == "read" && (d.Label == "p50" || d.Label == "p99")) || (l.Block == "turn" && d.Label == "p99") {
				d.Label = l.Block + " " + d.Label
				ds = append(ds, d)
			}
		}
	}
	for _, d := range append(append([]compare.Delta{}, c.Outcomes...), c.Rates...) {
		if d.Metric == "errors" || d.Metric == "rate" {
			ds = append(ds, d)
		}
	}
	var ts []htmlTile
	for _, d := range ds {
		t := htmlTile{Label: printable(d.Label), Value: numfmt.Value(d.Unit, d.New), Sub: "base " + numfmt.Value(d.Unit, d.Base) + ", " + changeText(d)}
		if n := noiseText(d); n != "" {
			t.Sub += ", " + n
		}
		t.Class = "neutral" // no verdict: neither pass nor fail
		if d.Noise == compare.Significant {
			t.Class = "pass"
			if worse(d) {
				t.Class = "fail"
			}
		}
		ts = append(ts, t)
	}
	return ts
}

// keyDeltas are the rows shown before the fold: those a bound gates and
// those the test found significant, with their group's title.
func keyDeltas(c *compare.Comparison, groups []htmlDeltaGroup) []htmlDelta {
	gated := map[string]bool{}
	for _, b := range c.Bounds {
		gated[b.Metric] = true
	}
	var out []htmlDelta
	for _, g := range groups {
		for _, r := range g.Rows {
			if r.Significant || gated[r.Metric] {
				r.Group = g.Title
				r.Gated = gated[r.Metric]
				out = append(out, r)
			}
		}
	}
	return out
}
