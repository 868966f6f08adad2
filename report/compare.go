package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// The compare views render compare.Comparison and compute nothing: the
// deltas, their noise verdicts and the bound checks are the model's.

// sideText is one side of a comparison on one line: the file, the server
// with its version, the protocol version and transport, the start.
func sideText(s compare.Side) string {
	srv := s.Server.Name
	if s.Server.Version != "" {
		srv += " " + s.Server.Version
	}
	return fmt.Sprintf("%s: %s, protocol %s over %s, started %s, %s measured, %s reads",
		orDash(s.Label), orDash(srv), orDash(s.ProtocolVersion), orDash(s.Transport),
		s.Started.UTC().Format("2006-01-02 15:04:05Z"), numfmt.Value("ms", s.MeasuredS*1000), strconv.FormatInt(s.Scheduled, 10))
}

// changeText is a delta's change: absolute, and relative when there is
// a base to be relative to ("+6.20ms +30.8%"; "+1.20pp" for shares).
func changeText(d compare.Delta) string {
	if d.Noise == compare.Unchanged {
		return "="
	}
	sign := "+"
	if d.Change < 0 {
		sign = "-"
	}
	abs := d.Change
	if abs < 0 {
		abs = -abs
	}
	var s string
	switch d.Unit {
	case "%":
		s = sign + strconv.FormatFloat(abs, 'f', 2, 64) + "pp"
	default:
		s = sign + numfmt.Value(d.Unit, abs)
	}
	if d.RelativeOK && d.Unit != "%" {
		s += fmt.Sprintf(" %+.1f%%", 100**d.Relative)
	}
	return s
}

// noiseText is a delta's verdict in a cell; "~" marks within the noise,
// as benchstat does, and a change without a verdict with what it needs
// ("~ need at least 4 runs per side").
func noiseText(d compare.Delta) string {
	switch d.Noise {
	case compare.WithinNoise:
		return "~ within the noise"
	case compare.Inconclusive:
		return "~ " + d.Note
	case compare.Unchanged:
		return ""
	}
	return string(d.Noise)
}

// compareRow is one row of a compare section in every format: its cells
// (label, base, new, change, noise), whether the model found the change
// significant and, when it had no test, the model's why; the HTML page
// marks the one and adds the other to the noise cell.
type compareRow struct {
	cells       []string
	significant bool
	untested    string
	full        string         // the label uncut: the page wraps it
	delta       *compare.Delta // nil for a row with no delta
}

// deltaRow is a delta's row under a label.
func deltaRow(label string, d compare.Delta) compareRow {
	r := compareRow{cells: []string{clip(label), numfmt.Value(d.Unit, d.Base), numfmt.Value(d.Unit, d.New), changeText(d), noiseText(d)},
		significant: d.Noise == compare.Significant, full: printable(label), delta: &d}
	if d.Noise == compare.Untested {
		r.untested = d.Note
	}
	return r
}

// latencyWords names a latency delta's row in the run report's words:
// the block as its latency table says it ("ok read", never the key
// read_ok; "first read") and the stat as its column heading ("p99.9",
// never p999). The key a --fail-on bound names is the delta's metric,
// in the JSON and in the HTML row's title.
func latencyWords(block, stat string) string {
	if block == "read_ok" {
		block = "ok read"
	}
	return strings.ReplaceAll(block, "_", " ") + " " + statWords(stat)
}

// statWords is a latency stat's column heading ("p99.9" for p999), the
// name itself for anything that is not a latency stat.
func statWords(name string) string {
	if s, ok := stats.LatencyStat(name); ok {
		return s.Label
	}
	return name
}

// compareSection is one titled group of rows.
type compareSection struct {
	title string
	rows  []compareRow
}

// compareSections lays the comparison out in report order: latency
// overall, per class, per turn size, rates, outcomes, inflation, server
// cost, cold start. Every format shows these rows.
//
// A figure a --fail-on bound gates always has a row: service time, ttfb
// and lag (otherwise in the JSON only), an outcome neither side saw, a
// turn size's p90; and a gated figure the comparison holds no delta of
// gets one in "gated figures" from its bound check.
func compareSections(c *compare.Comparison) []compareSection {
	var out []compareSection
	gated := map[string]bool{}
	for _, b := range c.Bounds {
		gated[b.Metric] = true
	}
	lat := compareSection{title: "latency"}
	for _, l := range c.Latency {
		shown := l.Block == "read" || l.Block == "read_ok" || l.Block == "turn" || sessionBlockShown(l)
		for _, d := range l.Deltas {
			if shown || gated[d.Metric] { // service, ttfb, lag: in the JSON unless gated; auth.*: authCompareSection
				lat.rows = append(lat.rows, deltaRow(latencyWords(l.Block, d.Label), d))
			}
		}
	}
	out = append(out, lat)
	if s, ok := authCompareSection(c); ok {
		out = append(out, s)
	}
	cls := compareSection{title: "per class"}
	for _, cl := range c.Classes {
		if !cl.InBase || !cl.InNew {
			side := "new"
			if !cl.InNew {
				side = "base"
			}
			cls.rows = append(cls.rows, compareRow{cells: []string{clip(cl.Class), "", "", "only in " + side, ""}})
			continue
		}
		for _, d := range cl.Read {
			cls.rows = append(cls.rows, deltaRow(cl.Class+" "+statWords(d.Label), d))
		}
		if cl.Errors.Metric != "" { // no delta: a side had no reads
			cls.rows = append(cls.rows, deltaRow(cl.Class+" errors", cl.Errors))
		} else {
			cls.rows = append(cls.rows, compareRow{cells: []string{clip(cl.Class + " errors"), numfmt.None, numfmt.None, numfmt.None, "no reads on a side"}})
		}
		for _, d := range cl.Outcomes {
			if d.Label != "ok" || gated[d.Metric] {
				cls.rows = append(cls.rows, deltaRow(cl.Class+" "+d.Label, d))
			}
		}
		if cl.Inflation.Metric != "" { // no delta: a side decoded no bytes
			cls.rows = append(cls.rows, deltaRow(cl.Class+" inflation", cl.Inflation))
		}
	}
	out = append(out, cls)
	if len(c.TurnSizes) > 1 {
		ts := compareSection{title: "turns by size"}
		for _, t := range c.TurnSizes {
			for _, d := range t.Turn {
				if d.Label == "p50" || d.Label == "p99" || d.Label == "max" || gated[d.Metric] {
					ts.rows = append(ts.rows, deltaRow(fmt.Sprintf("%d attachments %s", t.Attachments, statWords(d.Label)), d))
				}
			}
		}
		out = append(out, ts)
	}
	simple := func(title string, ds []compare.Delta, keep func(compare.Delta) bool) {
		s := compareSection{title: title}
		for _, d := range ds {
			if keep == nil || keep(d) {
				s.rows = append(s.rows, deltaRow(d.Label, d))
			}
		}
		if len(s.rows) > 0 {
			out = append(out, s)
		}
	}
	simple("rates", c.Rates, nil)
	simple("outcomes (% of scheduled reads)", c.Outcomes, func(d compare.Delta) bool {
		return d.Label == "errors" || d.Base != 0 || d.New != 0 || gated[d.Metric]
	})
	simple("inflation", c.Inflation, nil)
	simple("server cost", c.ServerCost, nil)
	simple("cold start", c.ColdStart, nil)
	simple("subscriptions", c.Subscriptions, nil)
	return append(out, gatedRest(c, out)...)
}

// gatedRest is the section of the gated figures no other section shows
// (a figure the comparison holds no delta of: from its bound check),
// none when every one has its row.
func gatedRest(c *compare.Comparison, shown []compareSection) []compareSection {
	has := map[string]bool{}
	for _, s := range shown {
		for _, r := range s.rows {
			if r.delta != nil {
				has[r.delta.Metric] = true
			}
		}
	}
	rest := compareSection{title: "gated figures"}
	for _, b := range c.Bounds {
		if b.Metric == "content" || has[b.Metric] {
			continue
		}
		has[b.Metric] = true
		if d, ok := c.Find(b.Metric); ok {
			rest.rows = append(rest.rows, deltaRow(b.Metric, d))
			continue
		}
		d := compare.Delta{Metric: b.Metric, Unit: b.Unit, Base: b.Base, New: b.New, Change: b.New - b.Base, Noise: b.Noise, Note: b.Reason}
		if b.Base != 0 {
			rel := d.Change / b.Base
			d.Relative, d.RelativeOK = &rel, true
		}
		rest.rows = append(rest.rows, deltaRow(b.Metric, d))
	}
	if len(rest.rows) == 0 {
		return nil
	}
	return []compareSection{rest}
}

// contentLines are the URIs whose content changed, one line each.
func contentLines(c compare.Content) []string {
	lines := []string{fmt.Sprintf("%d URIs read by both compared (%d only in base, %d only in new): %d changed",
		c.Compared, c.OnlyBase, c.OnlyNew, len(c.Changed))}
	const shown = 20 // the JSON lists every one
	for i, ch := range c.Changed {
		if i == shown {
			lines = append(lines, fmt.Sprintf("... and %d more (compare --format json lists every one)", len(c.Changed)-shown))
			break
		}
		lines = append(lines, fmt.Sprintf("%s: %s changed (%s %s %d B → %s %s %d B)", ch.URI, strings.Join(ch.What, ", "),
			short(ch.Base.SHA256), ch.Base.MIME, ch.Base.Bytes, short(ch.New.SHA256), ch.New.MIME, ch.New.Bytes))
	}
	return lines
}

// short abbreviates a digest for reading: "sha256:0123456789ab".
func short(d string) string {
	if len(d) > 19 {
		return d[:19]
	}
	return d
}

// boundText is a bound check's measured line.
func boundText(b compare.BoundCheck) string {
	if b.Metric == "content" {
		if b.Reason != "" {
			return b.Reason
		}
		return "no URI changed"
	}
	s := fmt.Sprintf("%s → %s (limit %s)", numfmt.Value(b.Unit, b.Base), numfmt.Value(b.Unit, b.New), numfmt.Value(b.Unit, b.Limit))
	if b.JudgedOn != "" {
		s = "judged on " + b.JudgedOn + ": " + s
	}
	if b.Noise != "" && b.Noise != compare.Unchanged {
		s += ", " + string(b.Noise)
	}
	if b.Reason != "" {
		s += ": " + b.Reason
	}
	return s
}

// inconclusiveBounds counts the bounds of c exceeded with no verdict.
func inconclusiveBounds(c *compare.Comparison) int {
	n := 0
	for _, b := range c.Bounds {
		if b.Verdict == compare.VerdictInconclusive {
			n++
		}
	}
	return n
}

// boundRows are the verdict rows of the comparison's --fail-on bounds.
func boundRows(c *compare.Comparison) []verdictRow {
	rows := make([]verdictRow, 0, len(c.Bounds))
	for _, b := range c.Bounds {
		rows = append(rows, verdictRow{pass: b.Pass, inconclusive: b.Verdict == compare.VerdictInconclusive, bound: b.Bound, measured: boundText(b)})
	}
	return rows
}

// comparedBy is the command a comparison's views are titled with:
// "readbench compare", or "readbench ab" for its experiment.
func comparedBy(c *compare.Comparison) string {
	if c.Command == "" {
		return "readbench compare"
	}
	return "readbench " + c.Command
}
