package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
)

// WriteListenerSearch prints a listener search (capacity --sweep
// listeners): the answer first (the most listeners held within the SLO,
// ✓, or ✗ not known) and what refused first, then every step — the
// listeners asked and opened, the refusals, ack and notification p99, the
// reads' p99 and its ratio to that with no listener (the interference) —
// the reasons as numbered notes, and the conclusion.
func WriteListenerSearch(w io.Writer, r *capacity.ListenerFinding) error {
	return Options{Width: capacityWidth}.WriteListenerSearch(w, r)
}

// WriteListenerSearch is the package's WriteListenerSearch, laid out for
// o's width.
func (o Options) WriteListenerSearch(w io.Writer, r *capacity.ListenerFinding) error {
	return o.sized(w, func(w io.Writer) error { return writeListenerSearch(w, r) })
}

func writeListenerSearch(w io.Writer, r *capacity.ListenerFinding) error {
	if r.MaxListeners != nil {
		fmt.Fprintf(w, "✓ most listeners within the SLO: %d\n", *r.MaxListeners)
	} else {
		fmt.Fprintf(w, "✗ most listeners within the SLO: not known (limited by %s)\n", r.LimitedBy)
	}
	if r.RefusedFirst != "" {
		fmt.Fprintln(w, wrapText(fmt.Sprintf("refused first at %d listeners: %s (%s)", r.FirstBadListeners, r.RefusedFirst, r.RefusedWhy), widthOf(w)))
	}
	fmt.Fprintln(w, wrapText(fmt.Sprintf("listener capacity of %s (%s) with reads at %s, SLO %s", r.Target, r.Server, numfmt.Rate(r.Rate, "turns"), r.SLO), widthOf(w)))
	t := newTable(w, 1, "step", "listeners", "opened", "limit", "refused", "ack p99", "notify p99", "read p99", "× none", "result")
	cells, notes := notedVerdicts(r.Steps)
	for i, s := range r.Steps {
		if err := t.Append(listenerRow(s, r.ReadP99AtZeroMs, cells[i])); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	writeNotes(w, notes)
	if h := r.Hold; h != nil {
		verdict := "held the SLO"
		if !h.Pass {
			verdict = "did not hold: " + h.Reason
		}
		fmt.Fprintln(w, wrapText(fmt.Sprintf("hold: %g listeners for %gs %s", h.Rate, h.DurationS, verdict), widthOf(w)))
	}
	_, err := fmt.Fprintln(w, "\n"+wrapText(r.Conclusion, widthOf(w)))
	return err
}

// listenerRow is one step's row; the baseline's listener cells are "-".
func listenerRow(s capacity.Step, base float64, verdict string) []string {
	phase := s.Phase
	if s.Listen == nil {
		return []string{phase, "0", "-", "-", "-", "-", "-", numfmt.Sig3(s.Read.P99Ms), "1", verdict}
	}
	l := s.Listen
	ratio := "-"
	if base > 0 {
		ratio = numfmt.Sig3(s.Read.P99Ms / base)
	}
	return []string{phase, strconv.Itoa(s.Listeners), fmt.Sprintf("%d/%d", l.StreamsOpened, l.StreamsAsked),
		strconv.FormatInt(l.LimitReached, 10), strconv.FormatInt(l.OtherRefused+l.SessionsFailed, 10),
		measured(l.Acks, l.AckP99Ms), measured(l.Notifications, l.NotifyP99Ms), numfmt.Sig3(s.Read.P99Ms), ratio, verdict}
}

// measured is a p99 of n samples, "-" when there were none.
func measured(n int64, p99 float64) string {
	if n == 0 {
		return "-"
	}
	return numfmt.Sig3(p99)
}
