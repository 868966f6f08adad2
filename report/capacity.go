package report

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
)

// WriteCapacity prints a rate search: the answer first (the maximum
// sustainable rate, marked ✓, or ✗ none found), then every step (asked
// and achieved rate, read and turn p50/p99, errors, scheduling lag, the
// verdict and why), the hold and the resolution, and the conclusion that
// says what ended the search.
func WriteCapacity(w io.Writer, r *capacity.RateFinding) error {
	mark, text := rateVerdict(r)
	fmt.Fprintf(w, "%s %s\n", mark, text)
	fmt.Fprintf(w, "capacity of %s (%s), SLO %s\n", r.Target, r.Server, r.SLO)
	if err := stepTable(w, r.Steps, false); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if h := r.Hold; h != nil {
		verdict := "held the SLO"
		if !h.Pass {
			verdict = "did not hold: " + h.Reason
		}
		fmt.Fprintf(w, "hold: %s for %gs %s\n", numfmt.Rate(h.Rate, "turns"), h.DurationS, verdict)
	}
	if r.Resolution > 0 {
		fmt.Fprintf(w, "resolution: %s (the limit lies between %s and %s)\n", numfmt.Rate(r.Resolution, "turns"), numfmt.Sig3(r.MaxSustainableRate), numfmt.Rate(r.FirstBadRate, "turns"))
	}
	_, err := fmt.Fprintln(w, r.Conclusion)
	return err
}

// WriteSizeSweep prints a size sweep: the answer first (the largest size
// served within the SLO, ✓, or ✗ none), then every size's step, then
// where reads fail outright, and why.
func WriteSizeSweep(w io.Writer, r *capacity.SizeFinding) error {
	if r.MaxSizeWithinSLO > 0 {
		fmt.Fprintf(w, "✓ largest size within the SLO: %s\n", units.FormatSize(r.MaxSizeWithinSLO))
	} else {
		fmt.Fprintln(w, "✗ largest size within the SLO: none")
	}
	fmt.Fprintf(w, "size sweep of %s (%s) at %s, SLO %s\n", r.Target, r.Server, numfmt.Rate(r.Rate, "turns"), r.SLO)
	if err := stepTable(w, r.Steps, true); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\n"+r.Conclusion)
	return err
}

func stepTable(w io.Writer, steps []capacity.Step, bySize bool) error {
	t := newTable(w, 1, stepHeader(bySize)...)
	for _, row := range stepRows(steps, bySize) {
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

// stepHeader and stepRows are the step table, shared by the text table
// and the HTML page so both say the same in the same words.
func stepHeader(bySize bool) []string {
	first := "asked/s"
	if bySize {
		first = "size"
	}
	return []string{"step", first, "achieved/s", "read p50", "read p99", "turn p50", "turn p99", "errors", "lag p99", "result"}
}

func stepRows(steps []capacity.Step, bySize bool) [][]string {
	var rows [][]string
	for i, s := range steps {
		lead := numfmt.Sig3(s.Rate)
		if bySize {
			lead = units.FormatSize(s.Size)
		}
		verdict := "pass" // a generator-bound step says so in its reason
		if !s.Pass {
			verdict = "FAIL"
		}
		if s.Reason != "" {
			verdict += ": " + s.Reason
		}
		if s.Rerun { // its verdict is not used: the next row is the same rate again
			verdict = "run again: " + verdict
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
