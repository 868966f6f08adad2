package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The latency table, shared by every format: which rows, in which order,
// and the notes that say what each row's clock is and how many values
// are lower bounds.

// latencyRow is one row of figures, every format's cells. A block that
// recorded nothing has no percentiles: its cells read "-", not the 0 of
// its JSON (whose count says there is nothing under them).
func latencyRow(name string, l stats.Latency) []string { return latencyRowAt(name, l, 0) }

// latencyRowAt is latencyRow with "≥" on each figure that is a lower
// bound (lowerBound; floorMs, the turn deadline for a turn size).
// The figures are those of stats.LatencyStats, in its order; the maximum
// and the mean are judged as the top of the tail (quantile 1): a lower
// bound as soon as any value is.
func latencyRowAt(name string, l stats.Latency, floorMs float64) []string {
	row := []string{clip(name), "0"}
	if l.Count > 0 {
		row[1] = numfmt.Count(l.Count)
	}
	for _, s := range stats.LatencyStats() {
		cell := numfmt.None
		if l.Count > 0 {
			q := s.Quantile
			if q == 0 { // max, mean
				q = 1
			}
			cell = boundedMs(l, q, s.Ms(l), floorMs)
		}
		row = append(row, cell)
	}
	return row
}

// latencyHeader is the heading of a latency table: first (what names a
// row), "count" when count, and the label of each stat of
// stats.LatencyStats, so that every format's columns follow the one list.
func latencyHeader(first string, count bool) []string {
	h := []string{first}
	if count {
		h = append(h, "count")
	}
	for _, s := range stats.LatencyStats() {
		h = append(h, s.Label)
	}
	return h
}

// mdAlign is the markdown alignment of a table of figures: its first
// column, the row's name, left; every other column right.
func mdAlign(header []string) string { return "l" + strings.Repeat("r", len(header)-1) }

// latencyRows are the rows of the latency table in every format: per
// class, all reads, ok reads, the uncorrected figures (as wrk2 prints
// them beside the corrected ones: a gap is time the generator fell
// behind), the scheduling lag, and turns, by size when sizes vary.
func latencyRows(r *results.Result) []namedLatency {
	var rows []namedLatency
	for _, c := range r.Classes {
		rows = append(rows, namedLatency{name: c.Class, l: c.Latency})
		if c.Chunk.Count > 0 && c.Chunk.Count != c.Count { // a ranged class: its parts, apart
			rows = append(rows, namedLatency{name: "  " + c.Class + " parts", l: c.Chunk})
		}
	}
	rows = append(rows, namedLatency{name: "all reads", l: r.Read}, namedLatency{name: "ok reads", l: r.ReadOK},
		namedLatency{name: "service time", l: r.Service})
	if r.TTFB.Count > 0 {
		rows = append(rows, namedLatency{name: "first byte", l: r.TTFB})
	}
	if r.Lag.Count > 0 {
		rows = append(rows, namedLatency{name: "scheduling lag", l: r.Lag})
	}
	rows = append(rows, namedLatency{name: "turns", l: r.Turn})
	if len(r.TurnSizes) > 1 {
		for _, ts := range r.TurnSizes {
			rows = append(rows, namedLatency{fmt.Sprintf("  of %d reads", ts.Attachments), ts.Latency, turnFloorMs(r)})
		}
	}
	return append(rows, sessionRows(r)...)
}

// namedLatency is one row of the latency table; floorMs is the turn
// deadline for a block that does not count its cut turns (latencyRowAt).
type namedLatency struct {
	name    string
	l       stats.Latency
	floorMs float64
}

// lagNotePrefix begins the note of the generator's scheduling lag.
const lagNotePrefix = "Scheduling lag: "

// latencyNotes say what the rows hold: which clock each figure runs on,
// and how many values are lower bounds (cut or dropped, recorded at the
// cut), so a tail past the deadline is never read as a fast one.
func latencyNotes(r *results.Result) []string {
	clocks := "ok reads: ok answers only, the tail to size a timeout on. Service time and first byte: from the " +
		"actual send, as the server saw the read."
	if r.Lag.Count > 0 {
		clocks += " Scheduling lag: intended start to send, the generator's own delay."
	}
	notes := []string{"From each turn's intended start (count: reads sent, cut ones at the cut; turns: finished or dropped).", clocks}
	if n := sessionNote(r); n != "" {
		notes = append(notes, n)
	}
	if n := r.Generator.Note; n != "" && !r.GeneratorBound { // when bound, the banner says it
		notes = append(notes, lagNotePrefix+n+".")
	}
	for _, b := range []struct {
		what, how string
		l         stats.Latency
	}{{"reads", "cut by the deadline or the timeout", r.Read}, {"turns", "cut or dropped", r.Turn}} {
		if b.l.LowerBounds > 0 {
			verb := "were %s and are" // "1 of the turns was", not "were"
			if b.l.LowerBounds == 1 {
				verb = "was %s and is"
			}
			notes = append(notes, fmt.Sprintf("%s of the %s "+verb+" recorded at the cut: lower bounds, "+
				"the true tail is at or above the figures shown.", numfmt.Count(b.l.LowerBounds), b.what, b.how))
		}
	}
	if n := outlivedNote(r); n != "" {
		notes = append(notes, n)
	}
	return notes
}

// outlivedNote explains a read slower than every turn ("" when none is):
// a turn ends at its deadline, and a read still running then (its cancel
// not honoured, or none sent) keeps its own latency, so the ok reads'
// max can pass the turns' — no turn was longer than its deadline.
func outlivedNote(r *results.Result) string {
	deadline := float64(r.Workload.Turn.Deadline) / float64(time.Millisecond)
	if deadline <= 0 || r.ReadOK.Count == 0 || r.ReadOK.MaxMs <= r.Turn.MaxMs || r.ReadOK.MaxMs <= deadline {
		return ""
	}
	return fmt.Sprintf("A turn ends at its %s deadline; a read still running then keeps its own latency, so the ok reads' max (%s) is above every turn's.",
		numfmt.Ms(deadline), numfmt.Ms(r.ReadOK.MaxMs))
}

func latencyTable(w io.Writer, r *results.Result) error {
	fmt.Fprintln(w, "latency")
	t := newTable(w, 1, latencyHeader("class", true)...)
	for _, row := range latencyRows(r) {
		if err := t.Append(latencyRowAt(row.name, row.l, row.floorMs)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, n := range latencyNotes(r) {
		fmt.Fprintln(w, wrapText(n, widthOf(w)))
	}
	return nil
}
