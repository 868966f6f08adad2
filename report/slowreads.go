package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The slowest reads by name, in every format: each class's slowest and
// the slowest of those that broke a bound (stats.SlowReads), each with
// the trace id it carried, so that a reader goes from a tail figure to
// the server's trace of the very read behind it. The brief terminal
// report names the slowest few overall; --full, markdown and the page
// list every read the result kept.

// briefSlowest is the most slow reads the brief terminal report names:
// the tail's worst, each on a line, within the report's line budget.
const briefSlowest = 3

// slowRow is one kept read of a class: broke says it broke a bound (it is
// in the class's broke_bound list).
type slowRow struct {
	class string
	read  stats.SlowRead
	broke bool
}

// keptSlow says whether any class of r kept reads by name: a result
// written before readbench kept them has none, and shows no section.
func keptSlow(r *results.Result) bool {
	for _, c := range r.Classes {
		if c.SlowReads != nil {
			return true
		}
	}
	return false
}

// classSlowRows are the reads a class kept, each once, slowest first:
// every read that broke a bound, then the slowest that did not (a slow
// read that broke a bound is in both lists of the result; shown once,
// marked).
func classSlowRows(c results.Class) []slowRow {
	k := c.SlowReads
	if k == nil {
		return nil
	}
	rows := make([]slowRow, 0, len(k.Broke)+len(k.Slowest))
	left := map[stats.SlowRead]int{} // the broke reads not yet matched in slowest
	for _, r := range k.Broke {
		rows = append(rows, slowRow{class: c.Class, read: r, broke: true})
		left[r]++
	}
	for _, r := range k.Slowest {
		if left[r] > 0 {
			left[r]--
			continue
		}
		rows = append(rows, slowRow{class: c.Class, read: r})
	}
	sortSlow(rows)
	return rows
}

// sortSlow orders rows slowest first, ties by intended start, then by
// class: the order the result keeps, stable across formats.
func sortSlow(rows []slowRow) {
	slices.SortStableFunc(rows, func(a, b slowRow) int {
		if c := stats.SlowerFirst(a.read, b.read); c != 0 {
			return c
		}
		return strings.Compare(a.class, b.class)
	})
}

// slowestOverall are the n slowest reads of every class of r.
func slowestOverall(r *results.Result, n int) []slowRow {
	var rows []slowRow
	for _, c := range r.Classes {
		rows = append(rows, classSlowRows(c)...)
	}
	sortSlow(rows)
	return rows[:max(0, min(n, len(rows)))]
}

// slowLatency is a kept read's latency, "cut at 5.00s" when it is a lower
// bound (the read was cut, by its timeout or its turn's deadline).
func slowLatency(r stats.SlowRead) string {
	if r.LowerBound {
		return "cut at " + numfmt.Ms(r.Latency.Ms())
	}
	return numfmt.Ms(r.Latency.Ms())
}

// traceText is a read's trace id; else why it names none: it never
// reached the server (no server received its trace context), or its turn
// was not sampled (load.trace_sample: it carried none).
func traceText(r stats.SlowRead) string {
	switch {
	case r.TraceID != "":
		return printable(r.TraceID)
	case r.Unreached:
		return "never reached the server"
	}
	return "not sampled"
}

// traceWords is a read's trace as a line of prose says it: "trace ID",
// "not sampled", "never reached the server".
func traceWords(r stats.SlowRead) string {
	if r.TraceID != "" {
		return "trace " + printable(r.TraceID)
	}
	return traceText(r)
}

// spanText is a read's own span id, "" when it names no trace.
func spanText(r stats.SlowRead) string { return printable(r.SpanID) }

// intendedText is a read's intended start to the millisecond, UTC; clock
// is the time of day alone, for the terminal (its header has the date).
func intendedText(t time.Time, clock bool) string {
	switch {
	case t.IsZero():
		return numfmt.None
	case clock:
		return t.UTC().Format("15:04:05.000")
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// slowNote says what a class kept, for the line above its reads.
func slowNote(c results.Class) string {
	k := c.SlowReads
	s := fmt.Sprintf("%s: its %d slowest", printable(c.Class), len(k.Slowest))
	switch {
	case k.BrokeSeen == 0:
		s += "; none broke a bound"
	case int64(len(k.Broke)) < k.BrokeSeen:
		s += fmt.Sprintf(" and the slowest %s of the %s that broke a bound", numfmt.Count(int64(len(k.Broke))), numfmt.Count(k.BrokeSeen))
	default:
		s += fmt.Sprintf(" and the %s that broke a bound", numfmt.Count(k.BrokeSeen))
	}
	return s
}

// brokeNote says what breaking a bound means, under every list of reads.
const brokeNote = "A read broke a bound when its timeout or its turn's deadline cut it, or it was slower than the run's latency bound."

// tail keeps the last n runes of s, "…" marking the cut: a URI's end
// (the document) says more than its start (the scheme and host). ("~"
// marked it once, and "~/policy/x" read as a home folder.)
func tail(s string, n int) string {
	s = printable(s)
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

// head keeps the first n runes of s, "…" marking the cut: a run's name
// (runs/<start>-<server>-<version>.json) differs from its neighbours' by
// its start, so its end is what can go.
func head(s string, n int) string {
	s = printable(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// shortURI is a URI in at most n runes: whole when it fits; else its
// path kept and its query cut at the end ("…"), as the document is named
// by its path (sim:///screenshot-12-3?…); else the path's end (tail).
func shortURI(s string, n int) string {
	s = printable(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if q := strings.IndexRune(s, '?'); q >= 0 && len([]rune(s[:q])) < n {
		return string(r[:n-1]) + "…"
	}
	return tail(s, n)
}

// briefSlowRows are the n reads the brief report names: the n slowest of
// the run when each names a trace (or none does: nothing to open), else
// the slowest read, then the slowest reads that name a trace. With
// load.trace_sample below 1 the very slowest reads are often of turns
// not sampled, and a list of reads none of which can be opened in the
// server's tracing leads nowhere; the slowest read stays first, so the
// tail is never hidden. traced is the index of the first read chosen
// for its trace (-1: the list is the n slowest).
func briefSlowRows(r *results.Result, n int) (rows []slowRow, traced int) {
	all := slowestOverall(r, math.MaxInt)
	top := all[:min(n, len(all))]
	opened, anyTraced := 0, false
	for _, row := range all {
		anyTraced = anyTraced || row.read.Traced()
	}
	for _, row := range top {
		if row.read.Traced() {
			opened++
		}
	}
	if n < 2 || opened == len(top) || !anyTraced {
		return top, -1
	}
	rows = []slowRow{all[0]}
	for _, row := range all[1:] {
		if len(rows) < n && row.read.Traced() {
			rows = append(rows, row)
		}
	}
	return rows, 1
}

// briefSlowFields are the brief report's "slowest" lines (briefSlowRows),
// each on one line that fits the report's width.
func briefSlowFields(r *results.Result, n int) [][2]string {
	var fs [][2]string
	rows, traced := briefSlowRows(r, n)
	for i, row := range rows {
		label := ""
		switch i {
		case 0:
			label = "slowest"
		case traced:
			label = "traced"
		}
		head := fmt.Sprintf("%s %s %s ", slowLatency(row.read), row.read.Outcome.String(), traceWords(row.read))
		room := 100 - len("slowest    ") - utf8.RuneCountInString(head)
		fs = append(fs, [2]string{label, head + shortURI(row.read.URI, max(room, 8))})
	}
	return fs
}

// slowTables are the full terminal report's lists of kept reads: per
// class a line saying what it kept, then its reads, the URI cut from the
// left to keep the table within the report's 100 columns.
func slowTables(w io.Writer, r *results.Result) error {
	if !keptSlow(r) {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "slow reads, slowest first (! broke a bound; trace ids to open in the server's tracing)")
	for _, c := range r.Classes {
		rows := classSlowRows(c)
		if c.SlowReads == nil {
			continue
		}
		fmt.Fprintln(w, wrapText(slowNote(c), 100))
		if len(rows) == 0 {
			continue
		}
		cells := make([][]string, len(rows))
		header := []string{"latency", "outcome", "intended", "trace id", "uri"}
		widths := make([]int, 4)
		for j := range widths {
			widths[j] = len(header[j])
		}
		for i, row := range rows {
			outcome := row.read.Outcome.String()
			if row.broke {
				outcome += " !"
			}
			cells[i] = []string{slowLatency(row.read), outcome, intendedText(row.read.Intended, true), traceText(row.read)}
			for j, s := range cells[i] {
				widths[j] = max(widths[j], utf8.RuneCountInString(s))
			}
		}
		room := 100 - 2 - 3*(len(header)-1) // the margins (the rule runs through them) and separators
		for _, wd := range widths {
			room -= wd
		}
		t := newTable(w, len(header), header...)
		for i, row := range rows {
			if err := t.Append(append(cells[i], shortURI(row.read.URI, max(room, 12)))); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, wrapText(brokeNote, 100))
	return nil
}
