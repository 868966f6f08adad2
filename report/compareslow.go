package report

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/readbench/readbench/compare"
)

// The compare views' slowest reads of each side (compare.Side.Slowest):
// when a gate fails, the reads to open in each server's tracing, the
// base's beside the candidate's.

// sideSlow is one side's slowest reads with the side's name.
type sideSlow struct {
	side  string
	reads []compare.SlowRead
}

// comparedSlow are both sides' slowest reads, nil when neither kept any
// (results written before readbench kept reads by name).
func comparedSlow(c *compare.Comparison) []sideSlow {
	if len(c.Base.Slowest) == 0 && len(c.New.Slowest) == 0 {
		return nil
	}
	return []sideSlow{{"base", c.Base.Slowest}, {"new", c.New.Slowest}}
}

// compareSlowNote says what the lists hold, in every compare view.
func compareSlowNote(c *compare.Comparison) string {
	n := fmt.Sprintf("The %d slowest reads of each side, of every class", compare.SideSlowest)
	if len(c.Base.Runs) > 1 || len(c.New.Runs) > 1 {
		n += " and run"
	}
	return n + ", with the trace id each carried: the reads to open when a bound breaks."
}

// compareSlowLines writes the compare table's "slowest" lines: per side
// each read on a line within w's width, the URI cut from the left.
func compareSlowLines(w io.Writer, c *compare.Comparison) {
	sides := comparedSlow(c)
	if sides == nil {
		return
	}
	fmt.Fprintln(w)
	hang(w, "slowest    ", compareSlowNote(c))
	for _, s := range sides {
		if len(s.reads) == 0 {
			fmt.Fprintf(w, "%-10s %s\n", s.side, "none kept")
			continue
		}
		for i, r := range s.reads {
			label := ""
			if i == 0 {
				label = s.side
			}
			fields := []string{slowLatency(r.SlowRead), clip(r.Class), r.Outcome.String(), traceWords(r.SlowRead)}
			if len(c.Base.Runs) > 1 || len(c.New.Runs) > 1 {
				fields = append(fields, "in "+head(r.Run, 24))
			}
			for k, l := range packSlowRead(fields, r.URI, widthOf(w)-11) {
				if k > 0 {
					label = ""
				}
				fmt.Fprintf(w, "%-10s %s\n", label, l)
			}
		}
	}
}

// packSlowRead lays a slow read's fields out on lines of at most room
// columns, as many on a line as fit, then its URI, cut from the left to
// what is left of the last line or to a line of its own on a narrow
// terminal: on a wide one, the read is one line.
func packSlowRead(fields []string, uri string, room int) []string {
	var lines []string
	cur := ""
	for _, f := range fields {
		switch {
		case cur == "":
			cur = f
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(f) <= room:
			cur += " " + f
		default:
			lines, cur = append(lines, cur), f
		}
	}
	if left := room - utf8.RuneCountInString(cur) - 1; left >= minURIRoom {
		return append(lines, cur+" "+shortURI(uri, left))
	}
	return append(lines, cur, shortURI(uri, room))
}

// compareSlowCells are a read's cells in markdown and on the page,
// before any format's escaping.
func compareSlowCells(side string, r compare.SlowRead) []string {
	return []string{side, printable(r.Run), printable(r.Class), slowLatency(r.SlowRead), r.Outcome.String(),
		traceText(r.SlowRead), printable(r.URI)}
}

// compareSlowHeader is the header of the slowest reads' table;
// compareSlowTraceCol, its trace id's column.
func compareSlowHeader() []string {
	return []string{"side", "run", "class", "latency", "outcome", "trace id", "URI"}
}

const compareSlowTraceCol = 5

// mdCompareSlow writes both sides' slowest reads as a markdown table.
func mdCompareSlow(b *bytes.Buffer, c *compare.Comparison, links TraceURL) {
	sides := comparedSlow(c)
	if sides == nil {
		return
	}
	b.WriteString("### Slowest reads\n\n" + mdEscape(compareSlowNote(c)) + "\n\n")
	var rows [][]string
	for _, s := range sides {
		for _, r := range s.reads {
			rows = append(rows, mdLinkedRow(compareSlowCells(s.side, r), compareSlowTraceCol, links.Link(r.TraceID)))
		}
	}
	mdTable(b, "lllrlll", compareSlowHeader(), rows)
}

// compareSlowHTML is both sides' slowest reads as a table of the page,
// nil when neither side kept any.
func compareSlowHTML(c *compare.Comparison, links TraceURL) *htmlTable {
	sides := comparedSlow(c)
	if sides == nil {
		return nil
	}
	t := htmlTable{Class: "slow-reads", Left: len(compareSlowHeader()), Header: compareSlowHeader(), LinkCol: compareSlowTraceCol}
	for _, s := range sides {
		for _, r := range s.reads {
			t.Rows = append(t.Rows, compareSlowCells(s.side, r))
			t.Links = append(t.Links, links.Link(r.TraceID))
		}
	}
	return &t
}
