package report

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/results"
)

// The slow reads in markdown and on the page: every read the result
// kept, one table for all classes, each trace id a link when the reader
// named their tracing (--trace-url).

// slowHeader is the header of the slow reads' table in markdown and on
// the page; slowTraceCol, its trace id's column. The span id beside it
// tells apart the reads of one turn, which share its trace.
func slowHeader() []string {
	return []string{"class", "latency", "outcome", "broke a bound", "intended start", "trace id", "span id", "URI"}
}

const slowTraceCol = 5

// slowCells are a row's cells as text, before any format's escaping.
func slowCells(row slowRow) []string {
	broke := "no"
	if row.broke {
		broke = "yes"
	}
	return []string{printable(row.class), slowLatency(row.read), row.read.Outcome.String(), broke,
		intendedText(row.read.Intended, false), traceText(row.read), spanText(row.read), printable(row.read.URI)}
}

// slowNotes are what the lists hold, above them in every format: per
// class what it kept, and what breaking a bound means.
func slowNotes(r *results.Result) []string {
	var parts []string
	for _, c := range r.Classes {
		if c.SlowReads != nil {
			parts = append(parts, slowNote(c))
		}
	}
	return []string{"Per class, slowest first, each read once (its slowest and those that broke a bound): " +
		strings.Join(parts, "; ") + ". " + brokeNote}
}

// mdSlowReads writes the kept reads of r, nothing for a result that kept
// none by name.
func mdSlowReads(b *bytes.Buffer, r *results.Result, links TraceURL) {
	if !keptSlow(r) {
		return
	}
	b.WriteString("### Slow reads\n\n" + mdEscape(slowNotes(r)[0]) + "\n\n")
	var rows [][]string
	for _, c := range r.Classes {
		for _, row := range classSlowRows(c) {
			rows = append(rows, mdLinkedRow(slowCells(row), slowTraceCol, links.Link(row.read.TraceID)))
		}
	}
	if len(rows) == 0 {
		b.WriteString("No read was kept: none was sent in the measured run.\n\n")
		return
	}
	mdTable(b, "lrllllll", slowHeader(), rows)
}

// mdLinkedRow is a row's cells escaped for a markdown table, the cell of
// column col a link to u (none when u is "").
func mdLinkedRow(cells []string, col int, u string) []string {
	for i := range cells {
		cells[i] = mdEscape(cells[i])
	}
	if u != "" {
		cells[col] = "[" + cells[col] + "](" + mdURL(u) + ")"
	}
	return cells
}

// mdURL makes a link's address safe in a markdown table: the characters
// that end a link or a cell, or break the line, percent-encoded.
func mdURL(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "|", "%7C", "<", "%3C", ">", "%3E",
		"\n", "%0A", "\r", "%0D", "\t", "%09").Replace(u)
}

// slowHTMLSection is the page's section of the kept reads, each trace id
// a link through links; ok is false for a result that kept none by name.
func slowHTMLSection(r *results.Result, suffix string, links TraceURL) (htmlSection, bool) {
	if !keptSlow(r) {
		return htmlSection{}, false
	}
	s := htmlSection{Kind: "slow-reads", ID: "slow-reads" + suffix, Title: "Slow reads", Notes: slowNotes(r)}
	t := htmlTable{Class: "slow-reads", Left: len(slowHeader()), Header: slowHeader(), LinkCol: slowTraceCol}
	var all []slowRow
	for _, c := range r.Classes {
		all = append(all, classSlowRows(c)...)
	}
	add := func(t *htmlTable, rows []slowRow) {
		for _, row := range rows {
			t.Rows = append(t.Rows, slowCells(row))
			t.Links = append(t.Links, links.Link(row.read.TraceID))
		}
	}
	add(&t, all)
	if len(t.Rows) == 0 {
		s.Notes = append(s.Notes, "No read was kept: none was sent in the measured run.")
		return s, true
	}
	if links.IsZero() {
		s.Notes = append(s.Notes, "readbench report --format html --trace-url 'https://jaeger.example/trace/{trace_id}' links each trace id to your tracing.")
	}
	s.Tables = []htmlTable{t}
	if len(all) > slowShown {
		// The slowest of every class open, and every kept read by class
		// folded: hundreds of rows would bury the charts under them.
		top := slices.Clone(all)
		slices.SortStableFunc(top, func(a, b slowRow) int { return cmp.Compare(b.read.Latency, a.read.Latency) })
		open := htmlTable{Class: t.Class, Left: t.Left, Header: t.Header, LinkCol: t.LinkCol}
		add(&open, top[:slowShown])
		t.Fold = fmt.Sprintf("all %d kept reads, by class", len(all))
		s.Tables = []htmlTable{open, t}
	}
	return s, true
}

// slowShown is how many kept reads the page shows open, the slowest of
// all classes; every kept read is in the folded table under them.
const slowShown = 10
