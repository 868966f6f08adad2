package report

import (
	"cmp"
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
)

// The SVG drawing of the HTML pages: axes, ticks, legends, line and bar
// charts. Every chart is drawn here, in Go, so a page needs no script and
// no font to fetch; the charts of a result are in htmlcharts.go, the
// percentile spectrum in htmlspectrum.go.

// figure wraps a chart: id and data-chart for finding it, a caption for
// reading it.
func figure(id, kind, title, body string) template.HTML {
	return template.HTML(fmt.Sprintf(`<figure id="%s" data-chart="%s"><figcaption>%s</figcaption>%s</figure>`,
		html.EscapeString(id), html.EscapeString(kind), html.EscapeString(title), body))
}

// series is one named line (or set of bars) of a chart, in data
// coordinates. colour is a palette colour ("" for the series' own place
// in the palette); dashed draws a line dashed, so two runs can share a
// colour per metric and differ by stroke.
type series struct {
	name   string
	label  string // the legend's words for name ("" for name): "ok reads", not the key read_ok
	pts    [][2]float64
	colour string
	dashed bool
	width  float64 // the line's width; 0 for the usual 2
}

// stroke is the colour series i is drawn in.
func (s series) stroke(i int) string {
	if s.colour != "" {
		return s.colour
	}
	return color(i)
}

// tick is an axis tick at a data coordinate.
type tick struct {
	at    float64
	label string
}

// Plot geometry, in SVG user units. The SVG scales to the width of its
// box (the page's width, up to a readable maximum), keeping these
// proportions. The legend sits in a band above the plot (padT), so the
// plot takes the chart's whole width.
const (
	plotW, plotH           = 960.0, 400.0
	padL, padR, padT, padB = 84.0, 24.0, 58.0, 54.0
)

// color is the i-th colour of a colour-blind-safe palette (Okabe-Ito),
// dark enough on white.
func color(i int) string {
	p := [...]string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999933"}
	return p[i%len(p)]
}

// svgOpen starts a chart's SVG with its axis titles.
func svgOpen(b *strings.Builder, title, xLabel, yLabel string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" preserveAspectRatio="xMinYMin meet" role="img"><title>%s</title>`,
		plotW, plotH, html.EscapeString(title))
	fmt.Fprintf(b, `<text class="axis-label" x="%g" y="%g" text-anchor="middle">%s</text>`,
		padL+(plotW-padL-padR)/2, plotH-8, html.EscapeString(xLabel))
	fmt.Fprintf(b, `<text class="axis-label" transform="translate(16 %g) rotate(-90)" text-anchor="middle">%s</text>`,
		padT+(plotH-padT-padB)/2, html.EscapeString(yLabel))
}

// axes draws the frame, the ticks and their labels; x and y map data to
// SVG coordinates.
func axes(b *strings.Builder, xt, yt []tick, x, y func(float64) float64) {
	fmt.Fprintf(b, `<g class="axis"><line x1="%g" y1="%g" x2="%g" y2="%g"/><line x1="%g" y1="%g" x2="%g" y2="%g"/>`,
		padL, plotH-padB, plotW-padR, plotH-padB, padL, padT, padL, plotH-padB)
	for _, t := range xt {
		fmt.Fprintf(b, `<line class="grid" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/><text x="%.1f" y="%g" text-anchor="middle">%s</text>`,
			x(t.at), padT, x(t.at), plotH-padB, x(t.at), plotH-padB+16, html.EscapeString(t.label))
	}
	for _, t := range yt {
		fmt.Fprintf(b, `<line class="grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/><text x="%g" y="%.1f" text-anchor="end">%s</text>`,
			padL, y(t.at), plotW-padR, y(t.at), padL-6, y(t.at)+4, html.EscapeString(t.label))
	}
	b.WriteString(`</g>`)
}

// Legend geometry: rows of entries in the band above the plot, each a
// swatch and a name; charW is the width of a character of the legend's
// font (14px, at most this wide for the page's sans-serif), so entries
// are laid out from the names' lengths and never overlap.
const (
	legendRows   = 2
	legendRowH   = 20.0
	legendSwatch = 26.0
	legendGap    = 18.0
	charW        = 8.4
)

// legendItem is one entry of the legend laid out: the swatch starts at
// x, the row's text baseline is y, w is the entry's width.
type legendItem struct {
	x, y, w float64
	name    string
}

// layoutLegend places the names in rows above the plot, left to right,
// wrapping at the plot's right edge; names that would need more than
// legendRows rows are counted in more (their series stay drawn), and the
// last row then keeps room for the "and N more" that says so.
func layoutLegend(names []string) (items []legendItem, more int) {
	width := func(n string) float64 { return legendSwatch + 6 + float64(len([]rune(n)))*charW }
	right := plotW - padR
	x, row := padL, 0
	for i, n := range names {
		w := width(n)
		if x > padL && x+w > right {
			x, row = padL, row+1
		}
		if row == legendRows {
			return items, len(names) - i
		}
		if row == legendRows-1 && !fits(names[i:], x, right, width) && x+w+legendGap+moreW > right {
			return items, len(names) - i
		}
		items = append(items, legendItem{x: x, y: 16 + float64(row)*legendRowH, w: w, name: n})
		x += w + legendGap
	}
	return items, 0
}

// moreW is the width kept for "and NN more".
const moreW = 12 * charW

// fits says whether the names all fit on one row from x.
func fits(names []string, x, right float64, width func(string) float64) bool {
	for _, n := range names {
		x += width(n)
		if x > right {
			return false
		}
		x += legendGap
	}
	return true
}

// legend draws the series names above the plot, in their colours and
// strokes.
func legend(b *strings.Builder, ss []series) {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = clip(s.name)
		if s.label != "" {
			names[i] = clip(s.label)
		}
	}
	items, more := layoutLegend(names)
	for i, it := range items {
		s := ss[i]
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="7 4"`
		}
		fmt.Fprintf(b, `<g class="legend" data-box="%.1f %.1f %.1f %.1f"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"%s/><text x="%.1f" y="%.1f">%s</text></g>`,
			it.x, it.y-13, it.w, 17.0, it.x, it.y-5, it.x+legendSwatch, it.y-5, s.stroke(i), dash, it.x+legendSwatch+6, it.y, html.EscapeString(it.name))
	}
	if more > 0 {
		last := items[len(items)-1]
		fmt.Fprintf(b, `<g class="legend"><text x="%.1f" y="%.1f">and %d more</text></g>`, last.x+last.w+legendGap, last.y, more)
	}
}

// niceTicks returns about five round ticks from 0 to at least top.
// tickText is an axis figure as format writes it, without the trailing
// zeros of its decimals ("2", not "2.00"; "2.5"; "10ms", not "10.0ms"):
// on an axis of whole steps they say a precision no tick has.
func tickText(format func(float64) string, v float64) string {
	s := format(v)
	end := strings.IndexFunc(s, func(r rune) bool { return r != '.' && r != '-' && (r < '0' || r > '9') })
	if end < 0 {
		end = len(s)
	}
	num, unit := s[:end], s[end:]
	if strings.Contains(num, ".") {
		num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	}
	return num + unit
}

func niceTicks(top float64, format func(float64) string) ([]tick, float64) {
	if !(top > 0) || math.IsInf(top, 0) {
		top = 1
	}
	step := math.Pow(10, math.Floor(math.Log10(top/5)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if top/(step*m) <= 5 {
			step *= m
			break
		}
	}
	var ts []tick
	v := 0.0
	for i := 0; i <= 10; i++ {
		v = float64(i) * step
		ts = append(ts, tick{v, tickText(format, v)})
		if v >= top {
			break
		}
	}
	return ts, v
}

// lineChart draws series over [xmin, xmax] with y from 0 to at least
// minTop (0: to the data's top), so two charts meant to be read side by
// side can share a scale; the guides are drawn across it.
func lineChart(id, kind, title, xLabel, yLabel string, xt []tick, xmin, xmax float64, ss []series, yfmt func(float64) string, minTop float64, gs []guide) template.HTML {
	top := minTop
	for _, s := range append(guideScale(gs), ss...) {
		for _, p := range s.pts {
			top = math.Max(top, p[1])
		}
	}
	yt, ymax := niceTicks(top, yfmt)
	y := func(v float64) float64 { return plotH - padB - v/ymax*(plotH-padT-padB) }
	return drawLines(id, kind, title, xLabel, yLabel, xt, yt, xmin, xmax, y, ss, gs)
}

// logChart draws series over [xmin, xmax] with y on a log scale, from the
// decade below the smallest positive value to the decade above the
// largest: a tail a hundred times the median and the median both stay
// readable. Values at or below 0 are drawn at the bottom. The guides are
// drawn across it, the scale reaching them.
func logChart(id, kind, title, xLabel, yLabel string, xt []tick, xmin, xmax float64, ss []series, yfmt func(float64) string, gs []guide) template.HTML {
	yt, y, ok := logScale(append(guideScale(gs), ss...), yfmt)
	if !ok {
		return lineChart(id, kind, title, xLabel, yLabel, xt, xmin, xmax, ss, yfmt, 0, gs)
	}
	return drawLines(id, kind, title, xLabel, yLabel, xt, yt, xmin, xmax, y, ss, gs)
}

// logScale is the y axis of logChart: its ticks and the mapping of a
// value to its SVG coordinate; ok is false when no value is above 0.
func logScale(ss []series, yfmt func(float64) string) (yt []tick, y func(float64) float64, ok bool) {
	lo, hi := math.Inf(1), 0.0
	for _, s := range ss {
		for _, p := range s.pts {
			if p[1] > 0 {
				lo, hi = math.Min(lo, p[1]), math.Max(hi, p[1])
			}
		}
	}
	if !(hi > 0) {
		return nil, nil, false
	}
	dlo, dhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if dhi <= dlo {
		dhi = dlo + 1
	}
	for d := dlo; d <= dhi; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, d)
			if (m == 1 || dhi-dlo <= 3) && v <= math.Pow(10, dhi) {
				yt = append(yt, tick{v, yfmt(v)})
			}
		}
	}
	y = func(v float64) float64 {
		l := math.Log10(math.Max(v, math.Pow(10, dlo)))
		return plotH - padB - (l-dlo)/(dhi-dlo)*(plotH-padT-padB)
	}
	return yt, y, true
}

// seriesPaths draws one path per series, x and y mapping values to SVG
// coordinates; the line charts and the capacity page share it.
func seriesPaths(b *strings.Builder, ss []series, x, y func(float64) float64) {
	for i, s := range ss {
		var d strings.Builder
		for j, p := range s.pts {
			cmd := 'L'
			if j == 0 {
				cmd = 'M'
			}
			fmt.Fprintf(&d, "%c%.1f %.1f", cmd, x(p[0]), y(p[1]))
		}
		style := fmt.Sprintf(` stroke-width="%g"`, cmp.Or(s.width, 2))
		if s.dashed {
			style += ` stroke-dasharray="8 5"`
		}
		if len(s.pts) == 1 {
			// One value (a histogram of one read) is a dot, not a line
			// of no length that nobody sees.
			style = ` stroke-width="7" stroke-linecap="round"`
			d.WriteString("h0")
		}
		fmt.Fprintf(b, `<path class="series" data-series="%s" fill="none" stroke="%s"%s d="%s"/>`,
			html.EscapeString(s.name), s.stroke(i), style, d.String())
	}
}

// drawLines draws the axes, one path per series and the guides, their
// labels clear of the lines' points; y maps a value to its SVG
// coordinate.
func drawLines(id, kind, title, xLabel, yLabel string, xt, yt []tick, xmin, xmax float64, y func(float64) float64, ss []series, gs []guide) template.HTML {
	x := func(v float64) float64 { return padL + (v-xmin)/math.Max(xmax-xmin, 1e-9)*(plotW-padL-padR) }
	var b strings.Builder
	svgOpen(&b, title, xLabel, yLabel)
	axes(&b, xt, yt, x, y)
	labels, marks := drawGuides(&b, gs, x, y)
	seriesPaths(&b, ss, x, y)
	if len(labels) > 0 {
		drawLabels(&b, placeLabels(labels, append(marks, pointBoxes(ss, x, y)...), padL, plotW-padR, padT))
	}
	legend(&b, ss)
	b.WriteString(`</svg>`)
	return figure(id, kind, title, b.String())
}

// pointBoxes are small boxes around the points of the series, for
// labels to keep clear of.
func pointBoxes(ss []series, x, y func(float64) float64) []box {
	var out []box
	for _, s := range ss {
		for _, p := range s.pts {
			out = append(out, box{x(p[0]) - 2, y(p[1]) - 2, 4, 4})
		}
	}
	return out
}

// barChart draws groups of vertical bars, one group per category; a
// value of each series per category. stacked puts a group's bars on top
// of each other instead of side by side.
func barChart(id, kind, title, xLabel, yLabel string, cats []string, ss []series, stacked bool, yfmt func(float64) string) template.HTML {
	top := 0.0
	for ci := range cats {
		sum := 0.0
		for _, s := range ss {
			sum = math.Max(sum*boolf(stacked), 0) + s.pts[ci][1]
			top = math.Max(top, sum)
		}
	}
	yt, ymax := niceTicks(top, yfmt)
	y := func(v float64) float64 { return plotH - padB - v/ymax*(plotH-padT-padB) }
	slot := (plotW - padL - padR) / float64(max(len(cats), 1))
	x := func(v float64) float64 { return padL + (v+0.5)*slot }
	var xt []tick
	for i, c := range cats {
		xt = append(xt, tick{float64(i), catLabel(c, slot)})
	}
	var b strings.Builder
	svgOpen(&b, title, xLabel, yLabel)
	axes(&b, xt, yt, x, y)
	barW := slot * 0.7 / float64(max(len(ss), 1))
	if stacked {
		barW = slot * 0.5
	}
	for ci := range cats {
		base := 0.0
		for si, s := range ss {
			v := s.pts[ci][1]
			left := x(float64(ci)) - barW*float64(len(ss))/2 + barW*float64(si)
			if stacked {
				left = x(float64(ci)) - barW/2
			}
			fmt.Fprintf(&b, `<rect class="bar" data-series="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				html.EscapeString(s.name), left, y(base+v), barW, math.Max(y(base)-y(base+v), 0),
				s.stroke(si), html.EscapeString(cats[ci]), html.EscapeString(s.name), html.EscapeString(yfmt(v)))
			if stacked {
				base += v
			}
		}
	}
	legend(&b, ss)
	b.WriteString(`</svg>`)
	return figure(id, kind, title, b.String())
}

// catLabel fits a category's name under its slot (about 7 units a
// character at the chart's font size), so neighbouring labels never
// overlap; the bars' tooltips keep the whole name.
func catLabel(c string, slot float64) string {
	n := max(int(slot/7), 3)
	if r := []rune(c); len(r) > n {
		return printable(string(r[:n-1]) + "…")
	}
	return clip(c)
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
