package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
)

// ListenerSearchHTML writes a listener search (capacity --sweep
// listeners) as one self-contained page, as the rate search's: the
// answer (the most listeners held within the SLO, or not known) and what
// refused first, the reads' p99 (the interference) and the
// acknowledgements' and notifications' p99 against the listeners each
// step opened, the count held and the first count that failed marked,
// then the step table of the text report.
func ListenerSearchHTML(w io.Writer, r *capacity.ListenerFinding) error {
	header := []string{"step", "listeners", "opened", "limit", "refused", "ack p99", "notify p99", "read p99", "× none", "result"}
	hc := htmlCapacity{Kind: "listener search", Target: printable(orDash(r.Target)), XName: "listeners", Conclusion: printable(r.Conclusion),
		Steps: htmlTable{Class: "steps", Header: header, Left: 1}}
	cells, notes := notedVerdicts(r.Steps)
	for i, s := range r.Steps {
		hc.Steps.Rows = append(hc.Steps.Rows, printableRows([][]string{listenerRow(s, r.ReadP99AtZeroMs, cells[i])})[0])
	}
	hc.StepNotes = numberedNotes(notes)
	markSteps(&hc.Steps, r.Steps)
	h := htmlHeadline{Kind: "capacity", Title: "readbench listener search: " + printable(orDash(r.Target)), Note: printable(r.Conclusion)}
	switch {
	case r.MaxListeners != nil:
		h.Verdict = passMark("most listeners within the SLO: " + strconv.Itoa(*r.MaxListeners))
	default:
		h.Verdict = failMark("most listeners within the SLO: not known (limited by " + printable(orDash(r.LimitedBy)) + ")")
	}
	if r.RefusedFirst != "" {
		h.Lines = []htmlMark{warnMark(printable(fmt.Sprintf("refused first at %d listeners: %s (%s)", r.FirstBadListeners, r.RefusedFirst, r.RefusedWhy)))}
	}
	hc.Headline = h
	fields := [][2]string{{"server", orDash(r.Server)}, {"SLO", r.SLO}, {"reads held at", numfmt.Rate(r.Rate, "turns")},
		{"read p99, no listener", numfmt.Ms(r.ReadP99AtZeroMs)}, {"limited by", orDash(r.LimitedBy)}}
	if hd := r.Hold; hd != nil {
		verdict := "held the SLO"
		if !hd.Pass {
			verdict = "did not hold: " + hd.Reason
		}
		fields = append(fields, [2]string{"hold", fmt.Sprintf("%g listeners for %gs %s", hd.Rate, hd.DurationS, verdict)})
	}
	hc.Fields = printableFields(fields)
	var ms []marker
	if r.MaxListeners != nil {
		ms = append(ms, marker{"knee", "most within the SLO " + strconv.Itoa(*r.MaxListeners), float64(*r.MaxListeners), "#0072b2", false})
	}
	if r.FirstBadListeners > 0 {
		ms = append(ms, marker{"first-fail", "refused first at " + strconv.Itoa(r.FirstBadListeners), float64(r.FirstBadListeners), "#d55e00", true})
	}
	hc.Notes = chartNotes(r.Steps)
	hc.Chart = capacityChart("listener-latency", "Reads', acknowledgements' and notifications' p99 against the listeners opened", "listeners",
		r.Steps, func(s capacity.Step) float64 { return float64(s.Listeners) }, false, ms, sloLatencyBounds(r.SLO), listenerMetrics())
	return writeCapacityPage(w, hc)
}
