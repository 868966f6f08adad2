package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
)

// capacityWidth is the width the capacity reports fit when no terminal
// says one (the package's functions): a terminal of 120 columns.
const capacityWidth = 120

// sized lays a capacity report out for o's width and writes it to w.
func (o Options) sized(w io.Writer, write func(io.Writer) error) error {
	sw := &sizedWriter{width: o.width()}
	if err := write(sw); err != nil {
		return err
	}
	_, err := w.Write(sw.Bytes())
	return err
}

// WriteCapacity prints a rate search: the answer first (the maximum
// sustainable rate, marked ✓, or ✗ none found) and its evidence (what
// passed, what broke, what was not the server's), then every step (asked
// and achieved rate, read and turn p50/p99, errors, scheduling lag, the
// verdict), the reasons as numbered notes under the table so it fits
// 120 columns, the hold and the resolution, and the conclusion that says
// what ended the search.
func WriteCapacity(w io.Writer, r *capacity.RateFinding) error {
	return Options{Width: capacityWidth}.WriteCapacity(w, r)
}

// WriteCapacity is the package's WriteCapacity, laid out for o's width.
func (o Options) WriteCapacity(w io.Writer, r *capacity.RateFinding) error {
	return o.sized(w, func(w io.Writer) error { return writeCapacity(w, r) })
}

func writeCapacity(w io.Writer, r *capacity.RateFinding) error {
	mark, text := rateVerdict(r)
	fmt.Fprintln(w, wrapText(mark+" "+text, widthOf(w)))
	fmt.Fprintln(w, wrapText("evidence: "+evidenceOf(r).sentence(), widthOf(w)))
	fmt.Fprintln(w, wrapText(fmt.Sprintf("capacity of %s (%s), SLO %s", r.Target, r.Server, r.SLO), widthOf(w)))
	if err := stepTable(w, r.Steps, false); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if h := r.Hold; h != nil {
		verdict := "held the SLO"
		if !h.Pass {
			verdict = "did not hold: " + h.Reason
		}
		fmt.Fprintln(w, wrapText(fmt.Sprintf("hold: %s for %gs %s", numfmt.Rate(h.Rate, "turns"), h.DurationS, verdict), widthOf(w)))
	}
	if line := resolutionLine(r); line != "" {
		fmt.Fprintln(w, wrapText("resolution: "+line, widthOf(w)))
	}
	_, err := fmt.Fprintln(w, wrapText(r.Conclusion, widthOf(w)))
	return err
}

// resolutionLine is the resolution of a search that ended at the SLO,
// with the gap the limit lies in ("" for any other search: only a
// confirmed rate has one).
func resolutionLine(r *capacity.RateFinding) string {
	if r.Resolution <= 0 || r.MaxSustainableRate == nil {
		return ""
	}
	return fmt.Sprintf("%s (the limit lies between %s and %s)", numfmt.Rate(r.Resolution, "turns"), numfmt.Sig3(*r.MaxSustainableRate), numfmt.Rate(r.FirstBadRate, "turns"))
}

// WriteSizeSweep prints a size sweep: the answer first (the largest size
// served within the SLO, ✓, or ✗ none), then every size's step, then
// where reads fail outright, and why.
func WriteSizeSweep(w io.Writer, r *capacity.SizeFinding) error {
	return Options{Width: capacityWidth}.WriteSizeSweep(w, r)
}

// WriteSizeSweep is the package's WriteSizeSweep, laid out for o's width.
func (o Options) WriteSizeSweep(w io.Writer, r *capacity.SizeFinding) error {
	return o.sized(w, func(w io.Writer) error { return writeSizeSweep(w, r) })
}

func writeSizeSweep(w io.Writer, r *capacity.SizeFinding) error {
	if r.MaxSizeWithinSLO > 0 {
		fmt.Fprintf(w, "✓ largest size within the SLO: %s\n", units.FormatSize(r.MaxSizeWithinSLO))
	} else {
		fmt.Fprintln(w, "✗ largest size within the SLO: none")
	}
	fmt.Fprintln(w, wrapText(fmt.Sprintf("size sweep of %s (%s) at %s, SLO %s", r.Target, r.Server, numfmt.Rate(r.Rate, "turns"), r.SLO), widthOf(w)))
	if err := stepTable(w, r.Steps, true); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\n"+wrapText(r.Conclusion, widthOf(w)))
	return err
}

// stepTable is the step table of the terminal: each verdict a word and
// the number of its note ("FAIL [2]"), the notes (the reasons in full)
// under the table, wrapped to w's width.
func stepTable(w io.Writer, steps []capacity.Step, bySize bool) error {
	t := newTable(w, 1, stepHeader(bySize)...)
	rows, notes := notedStepRows(steps, bySize)
	for _, row := range rows {
		if err := t.Append(row); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	writeNotes(w, notes)
	return nil
}

// notedStepRows are the step table's rows with each verdict a word and
// the number of its note, and the notes: the terminal's table and the
// page's, where a reason many steps share (a busy machine's) is said
// once under the table rather than as a paragraph in every row.
func notedStepRows(steps []capacity.Step, bySize bool) (rows [][]string, notes []string) {
	rows = stepRows(steps, bySize)
	cells, notes := notedVerdicts(steps)
	for i := range rows {
		rows[i][len(rows[i])-1] = cells[i]
	}
	return rows, notes
}

// numberedNotes are the notes as the page lists them under its table:
// "[1] …", the numbers the cells give.
func numberedNotes(notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = fmt.Sprintf("[%d] %s", i+1, printable(n))
	}
	return out
}

// notedVerdicts are each step's verdict cell, a word and the number of
// its note ("FAIL [2]"), and the notes: each reason once, in the order
// the steps first give it.
func notedVerdicts(steps []capacity.Step) (cells, notes []string) {
	for _, s := range steps {
		word, why := stepVerdict(s)
		cell := stepWord(s)
		if why != "" {
			note := word + ": " + why
			n := slices.Index(notes, note)
			if n < 0 {
				notes, n = append(notes, note), len(notes)
			}
			cell += fmt.Sprintf(" [%d]", n+1)
		}
		cells = append(cells, cell)
	}
	return cells, notes
}

// writeNotes writes numbered notes under a table, each wrapped to w's
// width under its own start.
func writeNotes(w io.Writer, notes []string) {
	for i, n := range notes {
		lead := fmt.Sprintf("[%d] ", i+1)
		body := wrapText(n, widthOf(w)-len(lead))
		fmt.Fprintln(w, lead+strings.ReplaceAll(body, "\n", "\n"+strings.Repeat(" ", len(lead))))
	}
}

func stepHeader(bySize bool) []string {
	first := "asked/s"
	if bySize {
		first = "size"
	}
	return []string{"step", first, "achieved/s", "read p50", "read p99", "turn p50", "turn p99", "errors", "lag p99", "result"}
}

// stepVerdict is a step's verdict in words ("pass", "FAIL", "run again:
// FAIL") and why (its reason, which names a cause that is not the
// server's: "machine busy: …", "generator-bound: …").
func stepVerdict(s capacity.Step) (word, why string) {
	word = "pass"
	if !s.Pass {
		word = "FAIL"
	}
	if s.Rerun { // its verdict is not used: the next row is the same rate again
		word = "run again: " + word
	}
	return word, s.Reason
}

// stepWord is a step's verdict in the terminal's short column: pass,
// FAIL, the cause of a step that is not the server's, or "run again".
func stepWord(s capacity.Step) string {
	switch {
	case s.Rerun:
		return "run again"
	case s.GeneratorBound:
		return capacity.CauseWord(cause(s))
	case s.Pass:
		return "pass"
	}
	return "FAIL"
}

func stepRows(steps []capacity.Step, bySize bool) [][]string {
	var rows [][]string
	for i, s := range steps {
		lead := numfmt.Sig3(s.Rate)
		if bySize {
			lead = units.FormatSize(s.Size)
		}
		verdict, why := stepVerdict(s)
		if why != "" {
			verdict += ": " + why
		}
		label := fmt.Sprintf("%d %s", i+1, s.Phase)
		if s.Attempt > 1 {
			label += fmt.Sprintf(" #%d", s.Attempt)
		}
		rows = append(rows, []string{label, lead, numfmt.Sig3(s.Achieved),
			numfmt.Ms(s.Read.P50Ms), numfmt.Ms(s.Read.P99Ms), numfmt.Ms(s.Turn.P50Ms), numfmt.Ms(s.Turn.P99Ms),
			numfmt.Share(s.ErrorRate), numfmt.Ms(s.LagP99Ms), verdict})
	}
	return rows
}
