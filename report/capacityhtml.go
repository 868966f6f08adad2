package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
)

// The capacity page: what `readbench capacity --format html` writes. It
// shares the style, tables and SVG drawing of the result page (report.html,
// htmlchart.go): one self-contained file, no script.

// capacitySource is the page's template; it uses report.html's "style",
// "fields" and "table".
const capacitySource = `{{define "capacity"}}<!DOCTYPE html>
<html lang="en">
<head>
{{template "style"}}
<style>table.steps td:last-child, table.steps th:last-child { text-align: left; white-space: normal; min-width: 28ch; } .capacity-chart { max-width: 1100px; }</style>
<title>readbench {{.Kind}}: {{.Target}}</title>
</head>
<body>
{{template "headline" .Headline}}
<section class="part" id="summary" data-section="summary">
{{template "fields" .Fields}}
</section>
<section class="part" id="latency" data-section="latency">
<h3>Latency against the {{.XName}} asked</h3>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}<div class="capacity-chart">{{.Chart}}</div>
</section>
<section class="part" id="steps" data-section="steps">
<h3>Steps</h3>
{{template "table" .Steps}}
{{range .StepNotes}}<p class="note">{{.}}</p>
{{end}}</section>
</body>
</html>
{{end}}`

// htmlCapacity is what the capacity page shows.
type htmlCapacity struct {
	Headline                        htmlHeadline
	Kind, Target, XName, Conclusion string
	Fields                          [][2]string
	Notes                           []string
	Chart                           template.HTML
	Steps                           htmlTable
	StepNotes                       []string // the verdicts' notes, numbered as the result cells cite them
}

// marker is a vertical line across the chart at a step's x: the knee, the
// first failing step, the size at which reads fail outright.
type marker struct {
	class, label string
	at           float64 // the asked rate, or the size in bytes
	colour       string
	dashed       bool
}

// CapacityHTML writes a rate search as one self-contained HTML page: the
// answer and its evidence, read and turn latency (p50 and p99, log
// scale) against the rate each step asked, the holds as lines of their
// own, the maximum sustainable rate (the knee) and the rate that ended
// the search marked, steps that are not the server's (generator-bound,
// machine busy) drawn hollow and grey and labelled, then the step table
// of the text report.
func CapacityHTML(w io.Writer, r *capacity.RateFinding) error {
	rows, notes := notedStepRows(r.Steps, false)
	hc := htmlCapacity{Kind: "capacity", Target: printable(orDash(r.Target)), XName: "rate", Conclusion: printable(r.Conclusion),
		Steps: htmlTable{Class: "steps", Header: stepHeader(false), Left: 1, Rows: printableRows(rows)}, StepNotes: numberedNotes(notes)}
	// The headline says the rate, the first failure and the conclusion,
	// once; the fields say what was searched.
	hc.Headline = rateHeadline(r)
	markSteps(&hc.Steps, r.Steps)
	fields := [][2]string{{"server", orDash(r.Server)}, {"SLO", r.SLO}, {"limited by", orDash(r.LimitedBy)}}
	if line := resolutionLine(r); line != "" {
		fields = append(fields, [2]string{"resolution", line})
	}
	if h := r.Hold; h != nil {
		verdict := "held the SLO"
		if !h.Pass {
			verdict = "did not hold: " + h.Reason
		}
		fields = append(fields, [2]string{"hold", fmt.Sprintf("%s for %gs %s", numfmt.Rate(h.Rate, "turns"), h.DurationS, verdict)})
	}
	hc.Fields = printableFields(fields)
	var ms []marker
	switch {
	case r.MaxSustainableRate != nil:
		ms = append(ms, marker{"knee", "max sustainable " + numfmt.Sig3(*r.MaxSustainableRate) + "/s", *r.MaxSustainableRate, "#0072b2", false})
	case r.Interval != nil && r.Interval.Low > 0: // a lower end, not confirmed: the rates above it not measured
		ms = append(ms, marker{"knee", "at least " + numfmt.Sig3(r.Interval.Low) + "/s", r.Interval.Low, "#0072b2", false})
	}
	if r.FirstBadRate > 0 {
		ms = append(ms, marker{"first-fail", badLabel(r), r.FirstBadRate, "#d55e00", true})
	}
	hc.Notes = chartNotes(r.Steps)
	hc.Chart = capacityChart("capacity-latency", "Read and turn latency against the asked rate", "asked rate (turns/s)",
		r.Steps, func(s capacity.Step) float64 { return s.Rate }, false, ms, sloLatencyBounds(r.SLO), rateMetrics())
	return writeCapacityPage(w, hc)
}

// SizeSweepHTML writes a size sweep as one self-contained HTML page: read
// and turn latency against the size each step read (log scale), the
// largest size within the SLO, the first size that broke it and the size
// at which reads fail outright (with why) marked, then the step table.
func SizeSweepHTML(w io.Writer, r *capacity.SizeFinding) error {
	rows, notes := notedStepRows(r.Steps, true)
	hc := htmlCapacity{Kind: "size sweep", Target: printable(orDash(r.Target)), XName: "size", Conclusion: printable(r.Conclusion),
		Steps: htmlTable{Class: "steps", Header: stepHeader(true), Left: 1, Rows: printableRows(rows)}, StepNotes: numberedNotes(notes)}
	hc.Headline = sizeHeadline(r)
	markSteps(&hc.Steps, r.Steps)
	fields := [][2]string{{"server", orDash(r.Server)}, {"SLO", r.SLO}, {"rate held", numfmt.Rate(r.Rate, "turns")}}
	if r.FailSize > 0 {
		fields = append(fields, [2]string{"why", orDash(r.FailOutcome) + ": " + orDash(r.FailReason)})
	}
	hc.Fields = printableFields(fields)
	var ms []marker
	if r.MaxSizeWithinSLO > 0 {
		ms = append(ms, marker{"knee", "largest within SLO " + units.FormatSize(r.MaxSizeWithinSLO), float64(r.MaxSizeWithinSLO), "#0072b2", false})
	}
	if r.SLOBreakSize > 0 {
		ms = append(ms, marker{"first-fail", "first failure " + units.FormatSize(r.SLOBreakSize), float64(r.SLOBreakSize), "#d55e00", true})
	}
	if r.FailSize > 0 && r.FailSize != r.SLOBreakSize {
		ms = append(ms, marker{"fails-outright", "fails outright " + units.FormatSize(r.FailSize), float64(r.FailSize), "#7a2e00", true})
	}
	hc.Notes = chartNotes(r.Steps)
	hc.Chart = capacityChart("size-latency", "Read and turn latency against the size read", "size read (log scale)",
		r.Steps, func(s capacity.Step) float64 { return float64(s.Size) }, true, ms, sloLatencyBounds(r.SLO), rateMetrics())
	return writeCapacityPage(w, hc)
}

func writeCapacityPage(w io.Writer, hc htmlCapacity) error {
	page, err := htmlPage()
	if err == nil {
		page, err = page.New("capacity").Parse(capacitySource)
	}
	if err != nil {
		return fmt.Errorf("report: capacity page: %w", err)
	}
	if err := page.ExecuteTemplate(w, "capacity", hc); err != nil {
		return fmt.Errorf("report: capacity page: %w", err)
	}
	return nil
}

func printableRows(rows [][]string) [][]string {
	for _, row := range rows {
		for i := range row {
			row[i] = printable(row[i])
		}
	}
	return rows
}

// badLabel names the rate that ended the search by what it was: a step
// or a hold that broke the SLO, or a step that was not the server's.
func badLabel(r *capacity.RateFinding) string {
	what := "broke"
	for _, s := range r.Steps {
		if s.Rerun || s.Rate != r.FirstBadRate || s.Pass && !s.GeneratorBound {
			continue
		}
		what = "step broke"
		switch {
		case s.GeneratorBound:
			what = capacity.CauseWord(cause(s))
		case s.Phase == "hold":
			what = "hold broke"
		}
	}
	return what + " " + numfmt.Sig3(r.FirstBadRate) + "/s"
}

// chartNotes says how to read the chart, and names the steps that are
// not the server's (generator-bound, machine busy), whose latency says
// nothing of the server.
func chartNotes(steps []capacity.Step) []string {
	notes := []string{"Read latency is the wide light-blue line with round marks, turn latency the thin vermillion line with square marks " +
		"(with one read per turn they coincide); solid is p99, dashed p50. Holds are their own lines (green: read, purple: turn), never " +
		"joined to the short steps at the same rate; a step run again is a mark off the line. A filled mark is a step that held the SLO, a hollow " +
		"one a step that broke it (✗ in the step table); the SLO's latency bounds are the dotted horizontal lines. Latency is on a log scale and counts " +
		"from each read's intended start."}
	bound := map[string][]string{}
	for i, s := range steps {
		if s.GeneratorBound {
			bound[cause(s)] = append(bound[cause(s)], fmt.Sprint(i+1))
		}
	}
	if n := bound[capacity.CauseGenerator]; len(n) > 0 {
		notes = append(notes, "Generator-bound (grey squares, labelled): step "+strings.Join(n, ", ")+
			": readbench, not the target, limited these steps; they are evidence of nothing about the server.")
	}
	if n := bound[capacity.CauseMachine]; len(n) > 0 {
		notes = append(notes, "Machine busy (grey squares, labelled): step "+strings.Join(n, ", ")+
			": the machine's CPUs were contended for most of the step and the server runs on it; they are evidence of nothing about the server.")
	}
	return notes
}

// markSteps colours the step table's verdicts: ✓ pass, ✗ FAIL, the
// last column.
func markSteps(t *htmlTable, steps []capacity.Step) {
	t.MarkCol = len(t.Header) - 1
	for i, s := range steps {
		cl, mark := "pass", markPass
		if !s.Pass {
			cl, mark = "fail", markFail
		}
		if s.Rerun || s.GeneratorBound {
			cl, mark = "warn", markWarn
		}
		t.RowClass = append(t.RowClass, cl)
		t.Rows[i][t.MarkCol] = mark + " " + t.Rows[i][t.MarkCol]
	}
}
