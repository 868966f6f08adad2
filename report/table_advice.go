package results

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The advice section and the timeline note of the table report (WriteTable),
// kept apart from table.go so each file stays readable.

// adviceTable writes the policy advice a reader can act on: what each
// candidate limit would have cut or ended in this run, the recommended
// pair, and why (the reasoning wrapped to the report's width).
func adviceTable(w io.Writer, r *Result) error {
	a := r.Advice
	fmt.Fprintln(w, "advice (deadline: turns cut or over it; timeout: reads it ends; from this run's histograms)")
	if len(a.Deadlines) == 0 && len(a.Timeouts) == 0 {
		fmt.Fprintln(w, "no candidates priced in this result")
	} else {
		dl, to := shareByMs(a.Deadlines), shareByMs(a.Timeouts)
		var limits []float64
		for ms := range dl {
			limits = append(limits, ms)
		}
		for ms := range to {
			if _, dup := dl[ms]; !dup {
				limits = append(limits, ms)
			}
		}
		slices.Sort(limits)
		t := newTable(w, 0, "limit", "deadline: turns cut", "timeout: reads ended")
		for _, ms := range limits {
			if err := t.Append([]string{formatMs(ms), shareCell(dl, ms), shareCell(to, ms)}); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if a.RecommendedDeadlineMs > 0 || a.RecommendedTimeoutMs > 0 {
		line(w, "recommend", "turn deadline %s, read timeout %s",
			limitText(a.RecommendedDeadlineMs), limitText(a.RecommendedTimeoutMs))
	}
	for _, reason := range a.Reasoning {
		for i, l := range wrap(printable(reason), 100-len("  - ")) {
			prefix := "  - "
			if i > 0 {
				prefix = "    "
			}
			fmt.Fprintln(w, prefix+l)
		}
	}
	return nil
}

func shareByMs(cs []Candidate) map[float64]float64 {
	m := make(map[float64]float64, len(cs))
	for _, c := range cs {
		m[c.Ms] = c.Share
	}
	return m
}

// shareCell writes the share priced for a limit, "-" when it was not
// priced (above the configured limit, which the run cannot measure).
func shareCell(m map[float64]float64, ms float64) string {
	f, ok := m[ms]
	switch {
	case !ok:
		return "-"
	case f == 0:
		return "0%"
	case f >= 0.01:
		return strconv.FormatFloat(100*f, 'f', 1, 64) + "%"
	case f >= 0.0001:
		return strconv.FormatFloat(100*f, 'f', 2, 64) + "%"
	}
	return "<0.01%"
}

func limitText(ms float64) string {
	if ms <= 0 {
		return "none (too little data)"
	}
	return formatMs(ms)
}

// wrap breaks s into lines of at most width runes at spaces; a word
// longer than width gets a line of its own.
func wrap(s string, width int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = word
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= width:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// timelineNote sums the timeline in one line: its length, the worst
// second's read p99 and when, and the seconds where the generator achieved
// fewer turns than were asked (a stall or a generator falling behind).
func timelineNote(tl []Second) string {
	if len(tl) == 0 {
		return "no per-second timeline in this result"
	}
	warm, worst := 0, -1
	var behind []string
	for i, s := range tl {
		if s.Warmup {
			warm++
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
		note += fmt.Sprintf("; worst read p99 %s in second %d", formatMs(tl[worst].P99Ms), tl[worst].T)
	}
	switch n := len(behind); {
	case n == 0:
		note += "; achieved = asked every second"
	case n <= 6:
		note += fmt.Sprintf("; achieved < asked in %d s: %s", n, strings.Join(behind, ", "))
	default:
		note += fmt.Sprintf("; achieved < asked in %d s: %s, ...", n, strings.Join(behind[:6], ", "))
	}
	return note
}
