package report

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/results"
)

// The rows of the compare page's deltas table, from the model: every
// delta results.Compare computed, grouped as the compare table groups
// them, each with its change and the model's noise verdict.

// htmlDeltaGroups lays the deltas out: latency overall (read, read_ok,
// turn), per class, per turn size, rates, outcomes, inflation, server
// cost and cold start. Empty groups are left out.
func htmlDeltaGroups(c *results.Comparison) []htmlDeltaGroup {
	var out []htmlDeltaGroup
	add := func(title string, rows []htmlDelta) {
		if len(rows) > 0 {
			out = append(out, htmlDeltaGroup{Title: title, Rows: rows})
		}
	}
	var lat []htmlDelta
	for _, l := range c.Latency {
		if l.Block == "read" || l.Block == "read_ok" || l.Block == "turn" {
			lat = append(lat, deltaRows(l.Block+" ", l.Deltas)...)
		}
	}
	add("latency", lat)
	var cls []htmlDelta
	for _, cl := range c.Classes {
		if !cl.InBase || !cl.InNew {
			side := "new"
			if !cl.InNew {
				side = "base"
			}
			cls = append(cls, htmlDelta{Cells: []string{clip(cl.Class), "", "", "only in " + side, ""}})
			continue
		}
		cls = append(cls, deltaRows(cl.Class+" ", cl.Read)...)
		cls = append(cls, deltaRows(cl.Class+" ", []results.Delta{cl.Errors})...)
		for _, d := range cl.Outcomes {
			if d.Label != "ok" {
				cls = append(cls, deltaRows(cl.Class+" ", []results.Delta{d})...)
			}
		}
		cls = append(cls, deltaRows(cl.Class+" ", []results.Delta{cl.Inflation})...)
	}
	add("per class", cls)
	var ts []htmlDelta
	for _, t := range c.TurnSizes {
		if !t.InBase || !t.InNew {
			continue
		}
		ts = append(ts, deltaRows(fmt.Sprintf("%d reads per turn ", t.Attachments), t.Turn)...)
	}
	add("turns by size", ts)
	add("rates", deltaRows("", c.Rates))
	var outc []results.Delta
	for _, d := range c.Outcomes {
		if d.Label == "errors" || d.Base != 0 || d.New != 0 {
			outc = append(outc, d)
		}
	}
	add("outcomes (% of scheduled reads)", deltaRows("", outc))
	add("inflation", deltaRows("", c.Inflation))
	add("server cost", deltaRows("", c.ServerCost))
	add("cold start", deltaRows("", c.ColdStart))
	return out
}

// deltaRows are the rows of ds, each label prefixed.
func deltaRows(prefix string, ds []results.Delta) []htmlDelta {
	var out []htmlDelta
	for _, d := range ds {
		out = append(out, htmlDelta{Cells: []string{clip(prefix + d.Label), Value(d.Unit, d.Base), Value(d.Unit, d.New),
			deltaChange(d), deltaVerdict(d)}, Significant: d.Noise == results.Significant})
	}
	return out
}

// deltaChange is a delta's change, absolute and relative when there is a
// base to be relative to; shares change in percentage points.
func deltaChange(d results.Delta) string {
	if d.Noise == results.Unchanged {
		return "="
	}
	sign, abs := "+", d.Change
	if abs < 0 {
		sign, abs = "-", -abs
	}
	s := sign + Value(d.Unit, abs)
	if d.Unit == "%" {
		s = sign + strings.TrimSuffix(Value(d.Unit, abs), "%") + "pp"
	}
	if d.RelativeOK && d.Unit != "%" {
		s += fmt.Sprintf(" %+.1f%%", 100*d.Relative)
	}
	return s
}

// deltaVerdict is the model's noise verdict in words, with why there was
// no test when the model says.
func deltaVerdict(d results.Delta) string {
	switch d.Noise {
	case results.Unchanged:
		return ""
	case results.Untested:
		if d.Note != "" {
			return "no test: " + printable(d.Note)
		}
	}
	return string(d.Noise)
}

// contentText says which URIs read by both runs returned other content.
func contentText(c results.Content) []string {
	lines := []string{fmt.Sprintf("%d URIs read by both compared (%d only in base, %d only in new): %d changed.",
		c.Compared, c.OnlyBase, c.OnlyNew, len(c.Changed))}
	for _, ch := range c.Changed {
		lines = append(lines, printable(fmt.Sprintf("%s: %s changed (%s %s %d B → %s %s %d B)", ch.URI, strings.Join(ch.What, ", "),
			shortDigest(ch.Base.SHA256), ch.Base.MIME, ch.Base.Bytes, shortDigest(ch.New.SHA256), ch.New.MIME, ch.New.Bytes)))
	}
	return lines
}

// shortDigest abbreviates a digest for reading: "sha256:0123456789ab".
func shortDigest(d string) string {
	if len(d) > 19 {
		return d[:19]
	}
	return d
}

// boundHTMLText is what a --fail-on bound measured and why it failed.
func boundHTMLText(b results.BoundCheck) string {
	s := fmt.Sprintf("%s → %s (limit %s)", Value(b.Unit, b.Base), Value(b.Unit, b.New), Value(b.Unit, b.Limit))
	if b.Noise != "" && b.Noise != results.Unchanged {
		s += ", " + string(b.Noise)
	}
	if b.Reason != "" {
		s += ": " + b.Reason
	}
	return s
}
