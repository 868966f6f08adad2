package report

import (
	"cmp"
	"fmt"
	"html"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
)

// The capacity page's chart: latency against the rate (or size) of each
// step, the steps' and the holds' lines apart, the SLO's bounds and the
// markers of the answer.

// capacityMetric is one line of the capacity chart. Read lines are wide
// and light, turn lines thin and dark on top of them, with other marks:
// with one read per turn the two coincide and both stay visible.
type capacityMetric struct {
	name   string
	colour string
	dashed bool
	width  float64
	square bool
	hold   bool // the holds' line, not the steps'
	v      func(capacity.Step) float64
}

// capacitySeries are the lines of the capacity chart: read and turn p50
// and p99 of the steps (grid, refinement, sizes) and, apart, of the holds
// (another colour), each a line through the steps whose verdict counts,
// one point per x. A step run again and a hold at a rate a step passed
// are marks only on the line of their own kind, so no line ever joins
// two runs of one rate (a 2 s step at 49 ms and a 20 s hold at 515 ms
// are two findings, not a cliff).
func capacitySeries(order []capacity.Step, xOf func(capacity.Step) float64, base []capacityMetric) ([]series, []capacityMetric) {
	metrics := slices.Clone(base)
	holds := slices.ContainsFunc(order, func(s capacity.Step) bool { return s.Phase == "hold" })
	if holds {
		for _, m := range base {
			m.name, m.hold = "hold "+m.name, true
			m.colour = holdColour(m.colour)
			metrics = append(metrics, m)
		}
	}
	var ss []series
	for _, m := range metrics {
		s := series{name: m.name, colour: m.colour, dashed: m.dashed, width: m.width}
		for _, st := range order {
			if st.Rerun || (st.Phase == "hold") != m.hold || math.IsNaN(m.v(st)) {
				continue
			}
			p := [2]float64{xOf(st), m.v(st)}
			if n := len(s.pts); n > 0 && s.pts[n-1][0] == p[0] {
				s.pts[n-1] = p // the later verdict of one x
				continue
			}
			s.pts = append(s.pts, p)
		}
		ss = append(ss, s)
	}
	return ss, metrics
}

// The colours of the capacity chart's lines, and of the holds' lines of
// the same figures.
// (Okabe and Ito's palette, which colour-blind readers tell apart.)
const readC, turnC, ackC, notifyC = "#56b4e9", "#d55e00", "#e69f00", "#0072b2"

// holdColour is the colour of the holds' line of a figure whose steps'
// line is c.
func holdColour(c string) string {
	switch c {
	case readC:
		return "#009e73"
	case turnC, notifyC:
		return "#cc79a7"
	case ackC:
		return "#7f5200"
	}
	return c
}

// rateMetrics are the lines of a rate search's and a size sweep's chart:
// read and turn p50 and p99.
func rateMetrics() []capacityMetric {
	return []capacityMetric{
		{"read p99", readC, false, 6, false, false, func(s capacity.Step) float64 { return s.Read.P99Ms }},
		{"read p50", readC, true, 6, false, false, func(s capacity.Step) float64 { return s.Read.P50Ms }},
		{"turn p99", turnC, false, 2, true, false, func(s capacity.Step) float64 { return s.Turn.P99Ms }},
		{"turn p50", turnC, true, 2, true, false, func(s capacity.Step) float64 { return s.Turn.P50Ms }},
	}
}

// listenerMetrics are the lines of a listener search's chart: the reads'
// p99 (the interference), the acknowledgements' and the notifications'
// p99; a step without the figure (the baseline has no listener, a step
// no change reached) has no point on its line.
func listenerMetrics() []capacityMetric {
	listen := func(f func(*capacity.ListenStep) (int64, float64)) func(capacity.Step) float64 {
		return func(s capacity.Step) float64 {
			if s.Listen == nil {
				return math.NaN()
			}
			if n, v := f(s.Listen); n > 0 {
				return v
			}
			return math.NaN()
		}
	}
	return []capacityMetric{
		{"read p99", readC, false, 6, false, false, func(s capacity.Step) float64 { return s.Read.P99Ms }},
		{"ack p99", ackC, false, 2, true, false, listen(func(l *capacity.ListenStep) (int64, float64) { return l.Acks, l.AckP99Ms })},
		{"notify p99", notifyC, true, 2, true, false, listen(func(l *capacity.ListenStep) (int64, float64) { return l.Notifications, l.NotifyP99Ms })},
	}
}

// capacityChart draws read and turn p50 and p99 against each step's x (a
// rate, linear; or a size, logarithmic), the holds as their own lines, a
// mark per step and series, the SLO's latency bounds as horizontal lines
// and the markers as vertical lines; every label is placed clear of the
// marks and of the others.
func capacityChart(id, title, xLabel string, steps []capacity.Step, xOf func(capacity.Step) float64, logX bool, ms []marker, slo []sloBound, base []capacityMetric) template.HTML {
	order := slices.Clone(steps)
	slices.SortStableFunc(order, func(a, b capacity.Step) int { return cmp.Compare(xOf(a), xOf(b)) })
	ss, metrics := capacitySeries(order, xOf, base)
	if len(order) == 0 {
		return template.HTML(fmt.Sprintf(`<figure id="%s" data-chart="capacity"><figcaption>%s</figcaption><p class="empty">No step ran.</p></figure>`,
			html.EscapeString(id), html.EscapeString(title)))
	}
	scale := slices.Clone(ss)
	for _, st := range order { // runs again are marks: the scale reaches them
		for _, m := range base {
			if v := m.v(st); !math.IsNaN(v) {
				scale = append(scale, series{pts: [][2]float64{{0, v}}})
			}
		}
	}
	for _, b := range slo { // the scale reaches the bounds, so they are drawn
		scale = append(scale, series{pts: [][2]float64{{0, b.ms}}})
	}
	ms2 := func(v float64) string { return numfmt.Ms(v) }
	yt, y, ok := logScale(scale, ms2)
	if !ok { // no latency at all: a flat axis to 1 ms
		var top float64
		yt, top = niceTicks(1, ms2)
		y = func(v float64) float64 { return plotH - padB - v/top*(plotH-padT-padB) }
	}
	xt, x := capacityXAxis(order, xOf, logX, ms)
	var b strings.Builder
	svgOpen(&b, title, xLabel, "latency (log scale)")
	axes(&b, xt, yt, x, y)
	var labels []label
	var marks []box
	for _, bd := range slo {
		by := y(bd.ms)
		fmt.Fprintf(&b, `<line class="slo-bound" data-line="%s" data-ms="%g" x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#000" stroke-width="1.5" stroke-dasharray="2 3"/>`,
			html.EscapeString(bd.line), bd.ms, padL, by, plotW-padR, by)
		labels = append(labels, label{class: "slo-label", text: "SLO " + bd.line + " < " + numfmt.Ms(bd.ms), colour: "#000", x: plotW - padR, y: by})
		marks = append(marks, box{padL, by - 1, plotW - padR - padL, 2})
	}
	seriesPaths(&b, ss, x, y)
	var causeXs []float64
	causes := map[float64][]string{} // the causes not the server's at each x, one label each x
	for _, st := range order {
		cx := x(xOf(st))
		for _, m := range metrics {
			if (st.Phase == "hold") != m.hold || math.IsNaN(m.v(st)) {
				continue
			}
			cy := y(m.v(st))
			marks = append(marks, box{cx - 7, cy - 7, 14, 14})
			b.WriteString(stepMark(st, m, cx, cy))
		}
		if c := capacity.CauseWord(cause(st)); st.GeneratorBound && !slices.Contains(causes[cx], c) {
			if len(causes[cx]) == 0 {
				causeXs = append(causeXs, cx)
			}
			causes[cx] = append(causes[cx], c)
		}
	}
	for _, cx := range causeXs {
		if namedByMarker(ms, x, cx, causes[cx]) {
			continue // "machine busy 10/s" says it: not "machine busy" beside it too
		}
		cl := make([]string, len(causes[cx]))
		for i, c := range causes[cx] {
			cl[i] = strings.ReplaceAll(c, " ", "-") + "-label"
		}
		labels = append(labels, label{class: strings.Join(cl, " "), text: strings.Join(causes[cx], ", "), colour: "#555", x: cx})
	}
	for _, m := range ms {
		mx := x(m.at)
		dash := ""
		if m.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(&b, `<g class="marker %s" data-at="%g"><line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="%s" stroke-width="2.5"%s/></g>`,
			m.class, m.at, mx, padT, mx, plotH-padB, m.colour, dash)
		marks = append(marks, box{mx - 1.5, padT, 3, plotH - padB - padT})
		labels = append(labels, label{class: "marker-label " + m.class, text: m.label, colour: m.colour, x: mx})
	}
	// Marker labels first: they name the answer; the SLO's and the
	// generator's after, wherever is left.
	slices.SortStableFunc(labels, func(a, b label) int { return cmp.Compare(labelRank(a), labelRank(b)) })
	drawLabels(&b, placeLabels(labels, marks, padL, plotW-padR, padT))
	legend(&b, ss)
	b.WriteString(`</svg>`)
	return figure(id, "capacity", title, b.String())
}

// labelRank orders the labels placed: the markers' first.
func labelRank(l label) int {
	if strings.HasPrefix(l.class, "marker-label") {
		return 0
	}
	return 1
}

// stepMark is one step's mark on one line: filled in the line's colour
// when the step held the SLO, hollow with ✗ when it broke it, a grey
// hollow square when readbench, not the target, limited it; read marks
// are circles, turn marks squares.
func stepMark(st capacity.Step, m capacityMetric, cx, cy float64) string {
	shape := func(fill, stroke string, r float64) string {
		if m.square {
			return fmt.Sprintf(`x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="%s" stroke-width="2"`, cx-r, cy-r, 2*r, 2*r, fill, stroke)
		}
		return fmt.Sprintf(`cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="%s" stroke-width="2"`, cx, cy, r+1, fill, stroke)
	}
	el := "circle"
	if m.square {
		el = "rect"
	}
	switch {
	case st.GeneratorBound:
		return fmt.Sprintf(`<rect class="step %s" x="%.1f" y="%.1f" width="9" height="9" fill="#fff" stroke="#777" stroke-width="2"/>`,
			strings.ReplaceAll(capacity.CauseWord(cause(st)), " ", "-"), cx-4.5, cy-4.5)
	case st.Pass:
		return fmt.Sprintf(`<%s class="step pass" %s/>`, el, shape(m.colour, "#fff", 4))
	}
	return fmt.Sprintf(`<%s class="step fail" %s/>`, el, shape("#fff", "#d55e00", 4.5))
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
		base := 0.0
		if len(xt) > 1 && lo > 0.4*hi {
			// Steps from 300 to 600/s: an axis from 0 would leave most of
			// the chart empty; it starts a tick below the lowest.
			step := xt[1].at - xt[0].at
			base = math.Floor(lo*0.95/step) * step
			for len(xt) > 2 && xt[0].at < base {
				xt = xt[1:]
			}
		}
		return xt, func(v float64) float64 { return padL + (v-base)/(top-base)*span }
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

// namedByMarker says a marker at cx already names every cause of its
// steps in its label (the first failure "machine busy 10/s"), so the
// causes' own label there would say it twice, side by side.
func namedByMarker(ms []marker, x func(float64) float64, cx float64, causes []string) bool {
	for _, m := range ms {
		if x(m.at) != cx {
			continue
		}
		named := true
		for _, c := range causes {
			named = named && strings.Contains(m.label, c)
		}
		if named {
			return true
		}
	}
	return false
}
