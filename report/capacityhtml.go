package report

import (
	"cmp"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"slices"
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
<h1>readbench {{.Kind}}: {{.Target}}</h1>
<section class="part" id="summary" data-section="summary">
{{template "fields" .Fields}}
<p class="note">{{.Conclusion}}</p>
</section>
<section class="part" id="latency" data-section="latency">
<h3>Latency against the {{.XName}} asked</h3>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}<div class="capacity-chart">{{.Chart}}</div>
</section>
<section class="part" id="steps" data-section="steps">
<h3>Steps</h3>
{{template "table" .Steps}}
</section>
</body>
</html>
{{end}}`

// htmlCapacity is what the capacity page shows.
type htmlCapacity struct {
	Kind, Target, XName, Conclusion string
	Fields                          [][2]string
	Notes                           []string
	Chart                           template.HTML
	Steps                           htmlTable
}

// marker is a vertical line across the chart at a step's x: the knee, the
// first failing step, the size at which reads fail outright.
type marker struct {
	class, label string
	at           float64 // the asked rate, or the size in bytes
	colour       string
	dashed       bool
}

// CapacityHTML writes a rate search as one self-contained HTML page: read
// and turn latency (p50 and p99, log scale) against the rate each step
// asked, the maximum sustainable rate (the knee) and the first failing
// rate marked, generator-bound steps drawn hollow and grey and labelled,
// then the step table of the text report.
func CapacityHTML(w io.Writer, r *capacity.RateFinding) error {
	hc := htmlCapacity{Kind: "capacity", Target: printable(orDash(r.Target)), XName: "rate", Conclusion: printable(r.Conclusion),
		Steps: htmlTable{Class: "steps", Header: stepHeader(false), Left: 1, Rows: printableRows(stepRows(r.Steps, false))}}
	maxRate := "none found"
	if r.MaxSustainableRate > 0 {
		maxRate = fmt.Sprintf("%s (%s reads/s, %s MB/s on the wire)", numfmt.Rate(r.MaxSustainableRate, "turns"),
			numfmt.Sig3(r.ReadsPerS), numfmt.Sig3(r.WireMBPerS))
	}
	hc.Fields = printableFields([][2]string{{"server", orDash(r.Server)}, {"SLO", r.SLO},
		{"maximum sustainable rate", maxRate}, {"limited by", orDash(r.LimitedBy)}})
	var ms []marker
	if r.MaxSustainableRate > 0 {
		ms = append(ms, marker{"knee", "max sustainable " + numfmt.Sig3(r.MaxSustainableRate) + "/s", r.MaxSustainableRate, "#009e73", false})
	}
	if r.FirstBadRate > 0 {
		ms = append(ms, marker{"first-fail", "first failure " + numfmt.Sig3(r.FirstBadRate) + "/s", r.FirstBadRate, "#c00000", true})
	}
	hc.Notes = chartNotes(r.Steps)
	hc.Chart = capacityChart("capacity-latency", "Read and turn latency against the asked rate", "asked rate (turns/s)",
		r.Steps, func(s capacity.Step) float64 { return s.Rate }, false, ms)
	return writeCapacityPage(w, hc)
}

// SizeSweepHTML writes a size sweep as one self-contained HTML page: read
// and turn latency against the size each step read (log scale), the
// largest size within the SLO, the first size that broke it and the size
// at which reads fail outright (with why) marked, then the step table.
func SizeSweepHTML(w io.Writer, r *capacity.SizeFinding) error {
	hc := htmlCapacity{Kind: "size sweep", Target: printable(orDash(r.Target)), XName: "size", Conclusion: printable(r.Conclusion),
		Steps: htmlTable{Class: "steps", Header: stepHeader(true), Left: 1, Rows: printableRows(stepRows(r.Steps, true))}}
	size := func(n int64) string {
		if n <= 0 {
			return "none"
		}
		return units.FormatSize(n)
	}
	fields := [][2]string{{"server", orDash(r.Server)}, {"SLO", r.SLO}, {"rate held", numfmt.Rate(r.Rate, "turns")},
		{"largest size within the SLO", size(r.MaxSizeWithinSLO)}, {"SLO broke at", size(r.SLOBreakSize)}, {"reads fail outright at", size(r.FailSize)}}
	if r.FailSize > 0 {
		fields = append(fields, [2]string{"why", orDash(r.FailOutcome) + ": " + orDash(r.FailReason)})
	}
	hc.Fields = printableFields(fields)
	var ms []marker
	if r.MaxSizeWithinSLO > 0 {
		ms = append(ms, marker{"knee", "largest within SLO " + units.FormatSize(r.MaxSizeWithinSLO), float64(r.MaxSizeWithinSLO), "#009e73", false})
	}
	if r.SLOBreakSize > 0 {
		ms = append(ms, marker{"first-fail", "first failure " + units.FormatSize(r.SLOBreakSize), float64(r.SLOBreakSize), "#c00000", true})
	}
	if r.FailSize > 0 && r.FailSize != r.SLOBreakSize {
		ms = append(ms, marker{"fails-outright", "fails outright " + units.FormatSize(r.FailSize), float64(r.FailSize), "#7f0000", true})
	}
	hc.Notes = chartNotes(r.Steps)
	hc.Chart = capacityChart("size-latency", "Read and turn latency against the size read", "size read (log scale)",
		r.Steps, func(s capacity.Step) float64 { return float64(s.Size) }, true, ms)
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

// chartNotes says how to read the chart, and names the generator-bound
// steps, whose latency says nothing of the server.
func chartNotes(steps []capacity.Step) []string {
	notes := []string{"Solid lines are p99, dashed p50; a filled dot is a step that held the SLO, a hollow red dot one that broke it. " +
		"Latency is on a log scale and counts from each read's intended start."}
	var bound []string
	for i, s := range steps {
		if s.GeneratorBound {
			bound = append(bound, fmt.Sprint(i+1))
		}
	}
	if len(bound) > 0 {
		notes = append(notes, "Generator-bound (grey squares, labelled): step "+strings.Join(bound, ", ")+
			": readbench, not the target, limited these steps; they are evidence of nothing about the server.")
	}
	return notes
}

// capacityChart draws read and turn p50 and p99 against each step's x (a
// rate, linear; or a size, logarithmic), a mark per step and series, and
// the markers as vertical lines with their labels.
func capacityChart(id, title, xLabel string, steps []capacity.Step, xOf func(capacity.Step) float64, logX bool, ms []marker) template.HTML {
	order := slices.Clone(steps)
	slices.SortStableFunc(order, func(a, b capacity.Step) int { return cmp.Compare(xOf(a), xOf(b)) })
	metrics := []struct {
		name   string
		colour string
		dashed bool
		v      func(capacity.Step) float64
	}{
		{"read p99", color(0), false, func(s capacity.Step) float64 { return s.Read.P99Ms }},
		{"read p50", color(0), true, func(s capacity.Step) float64 { return s.Read.P50Ms }},
		{"turn p99", color(1), false, func(s capacity.Step) float64 { return s.Turn.P99Ms }},
		{"turn p50", color(1), true, func(s capacity.Step) float64 { return s.Turn.P50Ms }},
	}
	var ss []series
	for _, m := range metrics {
		s := series{name: m.name, colour: m.colour, dashed: m.dashed}
		for _, st := range order {
			s.pts = append(s.pts, [2]float64{xOf(st), m.v(st)})
		}
		ss = append(ss, s)
	}
	if len(order) == 0 {
		return template.HTML(fmt.Sprintf(`<figure id="%s" data-chart="capacity"><figcaption>%s</figcaption><p class="empty">No step ran.</p></figure>`,
			html.EscapeString(id), html.EscapeString(title)))
	}
	ms2 := func(v float64) string { return numfmt.Ms(v) }
	yt, y, ok := logScale(ss, ms2)
	if !ok { // no latency at all: a flat axis to 1 ms
		var top float64
		yt, top = niceTicks(1, ms2)
		y = func(v float64) float64 { return plotH - padB - v/top*(plotH-padT-padB) }
	}
	xt, x := capacityXAxis(order, xOf, logX, ms)
	var b strings.Builder
	svgOpen(&b, title, xLabel, "latency (log scale)")
	axes(&b, xt, yt, x, y)
	seriesPaths(&b, ss, x, y)
	for _, st := range order {
		cx := x(xOf(st))
		top := plotH
		for _, m := range metrics {
			cy := y(m.v(st))
			top = math.Min(top, cy)
			switch {
			case st.GeneratorBound:
				fmt.Fprintf(&b, `<rect class="step generator-bound" x="%.1f" y="%.1f" width="8" height="8" fill="#fff" stroke="#777" stroke-width="2"/>`, cx-4, cy-4)
			case st.Pass:
				fmt.Fprintf(&b, `<circle class="step pass" cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>`, cx, cy, m.colour)
			default:
				fmt.Fprintf(&b, `<circle class="step fail" cx="%.1f" cy="%.1f" r="4" fill="#fff" stroke="#c00000" stroke-width="2"/>`, cx, cy)
			}
		}
		if st.GeneratorBound {
			fmt.Fprintf(&b, `<text class="generator-bound-label" x="%.1f" y="%.1f" text-anchor="middle" fill="#555">generator-bound</text>`, cx, math.Max(top-10, padT+10))
		}
	}
	for i, m := range ms {
		mx := x(m.at)
		dash := ""
		if m.dashed {
			dash = ` stroke-dasharray="4 3"`
		}
		// A label reads away from the plot's nearer edge, so it never runs
		// into the legend.
		tx, anchor := mx+4, "start"
		if mx > padL+(plotW-padL-padR)/2 {
			tx, anchor = mx-4, "end"
		}
		fmt.Fprintf(&b, `<g class="marker %s" data-at="%g"><line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="%s" stroke-width="2"%s/>`+
			`<text x="%.1f" y="%g" text-anchor="%s" fill="%s">%s</text></g>`,
			m.class, m.at, mx, padT, mx, plotH-padB, m.colour, dash, tx, padT+12+float64(i)*14, anchor, m.colour, html.EscapeString(m.label))
	}
	legend(&b, ss)
	b.WriteString(`</svg>`)
	return figure(id, "capacity", title, b.String())
}

// capacityXAxis is the chart's x axis: linear from 0 for rates, log2 for
// sizes (a sweep doubles), reaching every step and marker.
func capacityXAxis(order []capacity.Step, xOf func(capacity.Step) float64, logX bool, ms []marker) ([]tick, func(float64) float64) {
	hi := 0.0
	lo := math.Inf(1)
	for _, st := range order {
		hi, lo = math.Max(hi, xOf(st)), math.Min(lo, xOf(st))
	}
	for _, m := range ms {
		hi, lo = math.Max(hi, m.at), math.Min(lo, m.at)
	}
	span := plotW - padL - padR
	if !logX {
		xt, top := niceTicks(hi*1.05, func(v float64) string { return numfmt.Sig3(v) })
		return xt, func(v float64) float64 { return padL + v/top*span }
	}
	l2lo, l2hi := math.Floor(math.Log2(math.Max(lo, 1))), math.Ceil(math.Log2(math.Max(hi, 1)))
	if l2hi <= l2lo {
		l2hi = l2lo + 1
	}
	every := math.Max(1, math.Ceil((l2hi-l2lo)/10))
	var xt []tick
	for e := l2lo; e <= l2hi; e += every {
		xt = append(xt, tick{math.Exp2(e), units.FormatSize(int64(math.Exp2(e)))})
	}
	return xt, func(v float64) float64 {
		return padL + (math.Log2(math.Max(v, 1))-l2lo)/(l2hi-l2lo)*span
	}
}
