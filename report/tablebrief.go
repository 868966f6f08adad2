package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The body of the brief terminal report (WriteTable): what fits one
// screen under the header. Everything left out here is in WriteFullTable,
// the other formats and the result.

// briefClasses is how many classes the brief latency table lists; the
// others are counted in a line that points at the full report.
const briefClasses = 6

// briefLines is the brief report's budget: one screen of a terminal or a
// CI log's fold (its test holds every fixture to it).
const briefLines = 44

// briefDetail names what the full report adds, the last line before the
// closing verdict.
const briefDetail = "more: run or report --full (slow reads, service time, lag, bytes per class, advice, cancels, cost)"

// briefBody is the latency of the classes, of all reads and of turns,
// the slowest reads (at most slowest of them), then the labelled lines a
// reader acts on.
func briefBody(slowest int) func(io.Writer, *results.Result) error {
	return func(w io.Writer, r *results.Result) error {
		fmt.Fprintln(w)
		if err := briefLatencyTable(w, r); err != nil {
			return err
		}
		fmt.Fprintln(w)
		writeFields(w, append(briefSlowFields(r, slowest, widthOf(w)), briefFields(r)...))
		fmt.Fprintln(w)
		fmt.Fprintln(w, wrapText(briefDetail, widthOf(w)))
		return nil
	}
}

// briefLatencyTable is the latency table's class, all reads, ok reads and
// turns rows, and the notes of lower bounds (a tail past the deadline is
// never read as a fast one).
func briefLatencyTable(w io.Writer, r *results.Result) error {
	fmt.Fprintln(w, "latency (from each turn's intended start)")
	t := newTable(w, 1, latencyHeader("class", true)...)
	rows := make([]namedLatency, 0, briefClasses+3)
	for i, c := range r.Classes {
		if i < briefClasses {
			rows = append(rows, namedLatency{name: c.Class, l: c.Latency})
		}
	}
	rows = append(rows, namedLatency{name: "all reads", l: r.Read}, namedLatency{name: "ok reads", l: r.ReadOK}, namedLatency{name: "turns", l: r.Turn})
	for _, row := range rows {
		if err := t.Append(latencyRow(row.name, row.l)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if n := len(r.Classes) - briefClasses; n > 0 {
		fmt.Fprintf(w, "%d more classes in --full\n", n)
	}
	if n := lowerBoundsNote(r); n != "" {
		fmt.Fprintln(w, wrapText(n, widthOf(w)))
	}
	return nil
}

// lowerBoundsNote is the latency notes' lower bounds in one sentence, ""
// when every value is a measured one.
func lowerBoundsNote(r *results.Result) string {
	var parts []string
	if n := r.Read.LowerBounds; n > 0 {
		parts = append(parts, counted(n, "read", "reads"))
	}
	if n := r.Turn.LowerBounds; n > 0 {
		parts = append(parts, counted(n, "turn", "turns"))
	}
	if len(parts) == 0 {
		return ""
	}
	verb := " were cut or dropped and are"
	if len(parts) == 1 && strings.HasPrefix(parts[0], "1 ") {
		verb = " was cut or dropped and is"
	}
	return "Lower bounds: " + strings.Join(parts, " and ") + verb + " recorded at the cut; " +
		"the true tail is at or above the figures shown."
}

// briefFields are the brief report's labelled lines: the outcomes, how
// turns ended, the bytes, what went wrong (cancels, missing documents or
// method, shape findings), the limits to set, and the timeline's worst.
func briefFields(r *results.Result) [][2]string {
	tot, e := r.Totals, r.Totals.TurnEnds
	fs := [][2]string{
		{"outcomes", outcomesLine(tot)},
		{"turns", fmt.Sprintf("%s: %s complete, %s cut by the deadline, %s failed, %s dropped (never started)", numfmt.Count(tot.Turns),
			numfmt.Count(e.Complete), numfmt.Count(e.Cut), numfmt.Count(e.Failed), numfmt.Count(e.Dropped))},
		{"bytes", fmt.Sprintf("wire %s (%s), disk %s (%s); inflation %s", numfmt.Bytes(tot.WireBytes), bytesPerS(tot.WireMBPerS),
			numfmt.Bytes(tot.DiskBytes), bytesPerS(tot.DiskMBPerS), numfmt.Opt(tot.Inflation, numfmt.Ratio))},
	}
	if c := r.Cancellation; c.Cancelled > 0 {
		fs = append(fs, [2]string{"cancelled", briefCancelled(c)})
	}
	if n := tot.Outcomes["method_not_found"]; n > 0 {
		fs = append(fs, [2]string{"no method", methodNotFoundText(n, tot.Scheduled)})
	}
	if n := tot.MisusedMethodNotFound; n > 0 {
		fs = append(fs, [2]string{"misused", misusedCodeText(n, tot.Scheduled)})
	}
	if r.Strays.Any() {
		fs = append(fs, [2]string{"strays", straysText(r.Strays)})
	}
	if nf := notFound(r); nf > 0 {
		fs = append(fs, [2]string{"not found", notFoundText(nf, tot.Scheduled)})
	}
	if e := results.ExpectNote(r); e != "" {
		fs = append(fs, [2]string{"expect", printable(e)})
	}
	if s := shapeText(r.Shape); s != "no findings" {
		fs = append(fs, [2]string{"shape", s})
	}
	fs = append(fs, subscriptionsBrief(r)...) // listeners' lines (subscriptions.go)
	if rec := recommendation(r.Advice); rec != "" {
		fs = append(fs, [2]string{"recommend", rec})
	}
	return append(fs, [2]string{"timeline", timelineNote(r.Timeline)})
}

// outcomesLine is the outcomes table in one line: each outcome that
// happened, its count and share, and the accounting identity's verdict.
func outcomesLine(tot results.Totals) string {
	var parts []string
	for _, name := range outcomeNames(tot.Outcomes) {
		if n := tot.Outcomes[name]; n != 0 {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", clip(name), numfmt.Count(n), numfmt.Percent(n, tot.Scheduled)))
		}
	}
	return fmt.Sprintf("%s scheduled: %s; %s", numfmt.Count(tot.Scheduled), strings.Join(parts, ", "), identityText(tot))
}

// briefCancelled is how many reads were cancelled and how many the
// server answered after the cancel or ignored it (the full report says
// what each answer wasted and when).
func briefCancelled(c results.Cancellation) string {
	s := numfmt.Count(c.Cancelled) + " reads"
	if c.LateAnswers == nil {
		return s + "; late answers not observable on this transport"
	}
	s += fmt.Sprintf("; %s answered after the cancel", numfmt.Count(*c.LateAnswers))
	if c.Ignored != nil && *c.Ignored > 0 {
		s += fmt.Sprintf(", %s ignored it", numfmt.Count(*c.Ignored))
	}
	return s
}
