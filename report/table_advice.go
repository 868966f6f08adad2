package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The advice section and the timeline note of the table report (WriteTable),
// kept apart from table.go so each file stays readable.

// adviceTable writes the policy advice a reader can act on: what each
// candidate limit would have cut or ended in this run, the recommended
// pair, and why (the stored reasoning, wrapped to the report's width).
func adviceTable(w io.Writer, r *results.Result) error {
	a := r.Advice
	fmt.Fprintln(w, wrapText("advice (deadline: turns cut or over it; timeout: reads it ends; from this run's histograms)", widthOf(w)))
	if rows := adviceRows(a); len(rows) == 0 {
		fmt.Fprintln(w, "no candidates priced in this result")
	} else {
		t := newTable(w, 0, adviceHeader()...)
		for _, row := range rows {
			if err := t.Append(row); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if rec := recommendation(a); rec != "" {
		line(w, "recommend", "%s", rec)
	}
	if a.Caveat != "" {
		bullet(w, "  ! ", a.Caveat)
	}
	for _, reason := range a.Reasoning {
		bullet(w, "  - ", reason)
	}
	return nil
}

// bullet writes s wrapped to the report's width after mark, its
// continuation lines indented under the text.
func bullet(w io.Writer, mark, s string) {
	for i, l := range strings.Split(wrapText(printable(s), widthOf(w)-len(mark)), "\n") {
		prefix := mark
		if i > 0 {
			prefix = strings.Repeat(" ", len(mark))
		}
		fmt.Fprintln(w, prefix+l)
	}
}

// timelineNote sums the timeline in one line: its length, the worst
// second's read p99 and when, and the seconds where the generator achieved
// fewer turns than were asked (a stall or a generator falling behind).
func timelineNote(tl []results.Second) string {
	if len(tl) == 0 {
		return "no per-second timeline in this result"
	}
	warm, worst, lagged := 0, -1, -1
	var behind []string
	for i, s := range tl {
		if s.Warmup {
			warm++
		}
		if s.LagMaxMs > 0 && (lagged < 0 || s.LagMaxMs > tl[lagged].LagMaxMs) {
			lagged = i
		}
		if s.Reads > 0 && (worst < 0 || s.P99Ms > tl[worst].P99Ms) {
			worst = i
		}
		if s.Achieved < s.Asked {
			behind = append(behind, strconv.Itoa(s.T))
		}
	}
	note := fmt.Sprintf("%d s (%d warmup)", len(tl), warm)
	if worst >= 0 {
		note += fmt.Sprintf("; worst read p99 %s in second %d", numfmt.Ms(tl[worst].P99Ms), tl[worst].T)
	}
	if lagged >= 0 {
		note += fmt.Sprintf("; worst scheduling lag %s in second %d", numfmt.Ms(tl[lagged].LagMaxMs), tl[lagged].T)
	}
	switch n := len(behind); {
	case n == 0:
		note += "; achieved = asked every second"
	case n <= 6: // "achieved below asked in 1 second (second 4)": words, not "< … in 1 s: 4"
		note += fmt.Sprintf("; achieved below asked in %s (%s %s)", counted(int64(n), "second", "seconds"),
			plural(n, "second", "seconds"), strings.Join(behind, ", "))
	default:
		note += fmt.Sprintf("; achieved below asked in %d seconds (seconds %s, ...)", n, strings.Join(behind[:6], ", "))
	}
	return note
}
