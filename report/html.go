package report

import (
	_ "embed"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The page is one self-contained file: the CSS is inline and every chart
// is an SVG drawn here, in Go, so the report opens from a mail attachment
// or a CI artifact without network, scripts or fonts to fetch, and renders
// the same with JavaScript disabled.
//
//go:embed report.html
var htmlSource string

// htmlPage is parsed once per call: a template is cheap to parse, and no
// package-level state is kept.
func htmlPage() (*template.Template, error) { return template.New("report").Parse(htmlSource) }

// htmlResult is what the template shows of one result.
type htmlResult struct {
	Title    string
	Partial  string
	Fields   [][2]string
	Latency  [][]string
	Charts   []template.HTML
	Timeline bool
	Advice   *htmlAdvice // nil when the result has none
}

// WriteHTML writes one HTML page for the results: per result a summary and
// the charts people look for in a latency report: the percentile spectrum
// to 99.999% on a log scale (read, turn and each class, from the full
// histograms, so the tail is drawn, not guessed), rate and latency per
// second, latency per class, and what the wire adds to the bytes on disk;
// then the policy advice, with the candidates and the stored reasoning the
// table report shows. Each chart is a <figure> with an id and a
// data-chart attribute naming its kind, so tests and scripts can find it.
func WriteHTML(w io.Writer, rs []*results.Result) error {
	page, err := htmlPage()
	if err != nil {
		return fmt.Errorf("report: html report: %w", err)
	}
	var data []htmlResult
	for i, r := range rs {
		suffix := ""
		if i > 0 {
			suffix = fmt.Sprintf("-%d", i+1)
		}
		hr, err := htmlOf(r, suffix)
		if err != nil {
			return fmt.Errorf("report: html report: %w", err)
		}
		data = append(data, hr)
	}
	if err := page.Execute(w, data); err != nil {
		return fmt.Errorf("report: html report: %w", err)
	}
	return nil
}

func htmlOf(r *results.Result, suffix string) (htmlResult, error) {
	hr := htmlResult{Title: toolName(r.Tool) + ": " + orDash(r.Workload.Name),
		Fields: headerFields(r), Timeline: len(r.Timeline) > 0, Advice: htmlAdviceOf(r.Advice)}
	if r.Partial {
		hr.Partial = "Partial result: the run was interrupted; the figures cover its first " + numfmt.Seconds(r.Totals.MeasuredS) + "."
	}
	for _, c := range r.Classes {
		hr.Latency = append(hr.Latency, latencyRow(c.Class, c.Latency))
	}
	hr.Latency = append(hr.Latency, latencyRow("all reads", r.Read), latencyRow("service time", r.Service),
		latencyRow("turns", r.Turn))
	spectrum, err := spectrumChart(r, "spectrum"+suffix)
	if err != nil {
		return hr, err
	}
	hr.Charts = []template.HTML{spectrum, rateChart(r, "timeline-rate"+suffix),
		timelineLatencyChart(r, "timeline-latency"+suffix), classChart(r, "class-latency"+suffix),
		inflationChart(r, "inflation"+suffix)}
	return hr, nil
}

// figure wraps a chart: id and data-chart for finding it, a caption for
// reading it.
func figure(id, kind, title, body string) template.HTML {
	return template.HTML(fmt.Sprintf(`<figure id="%s" data-chart="%s"><figcaption>%s</figcaption>%s</figure>`,
		html.EscapeString(id), kind, html.EscapeString(title), body))
}

// series is one named line of a line chart, in data coordinates.
type series struct {
	name string
	pts  [][2]float64
}

// tick is an axis tick at a data coordinate.
type tick struct {
	at    float64
	label string
}

// Plot geometry, in SVG user units.
const (
	plotW, plotH           = 820.0, 340.0
	padL, padR, padT, padB = 70.0, 190.0, 16.0, 50.0
)

// color is the i-th colour of a colour-blind-safe palette (Okabe-Ito),
// dark enough on white.
func color(i int) string {
	p := [...]string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999933"}
	return p[i%len(p)]
}

// svgOpen starts a chart's SVG with its axis titles.
func svgOpen(b *strings.Builder, title, xLabel, yLabel string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" width="%g" height="%g" role="img"><title>%s</title>`,
		plotW, plotH, plotW, plotH, html.EscapeString(title))
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

// legend lists the series names on the right, in their colours.
func legend(b *strings.Builder, names []string) {
	for i, n := range names {
		y := padT + 8 + float64(i)*18
		fmt.Fprintf(b, `<g class="legend"><rect x="%g" y="%g" width="12" height="12" fill="%s"/><text x="%g" y="%g">%s</text></g>`,
			plotW-padR+12, y-10, color(i), plotW-padR+30, y, html.EscapeString(clip(n)))
	}
}

// niceTicks returns about five round ticks from 0 to at least top.
func niceTicks(top float64, format func(float64) string) ([]tick, float64) {
	if !(top > 0) {
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
		ts = append(ts, tick{v, format(v)})
		if v >= top {
			break
		}
	}
	return ts, v
}

// lineChart draws series over [xmin, xmax] with y from 0.
func lineChart(id, kind, title, xLabel, yLabel string, xt []tick, xmin, xmax float64, ss []series, yfmt func(float64) string) template.HTML {
	top := 0.0
	for _, s := range ss {
		for _, p := range s.pts {
			top = math.Max(top, p[1])
		}
	}
	yt, ymax := niceTicks(top, yfmt)
	x := func(v float64) float64 { return padL + (v-xmin)/math.Max(xmax-xmin, 1e-9)*(plotW-padL-padR) }
	y := func(v float64) float64 { return plotH - padB - v/ymax*(plotH-padT-padB) }
	var b strings.Builder
	svgOpen(&b, title, xLabel, yLabel)
	axes(&b, xt, yt, x, y)
	var names []string
	for i, s := range ss {
		var d strings.Builder
		for j, p := range s.pts {
			cmd := 'L'
			if j == 0 {
				cmd = 'M'
			}
			fmt.Fprintf(&d, "%c%.1f %.1f", cmd, x(p[0]), y(p[1]))
		}
		fmt.Fprintf(&b, `<path class="series" data-series="%s" fill="none" stroke="%s" stroke-width="2" d="%s"/>`,
			html.EscapeString(s.name), color(i), d.String())
		names = append(names, s.name)
	}
	legend(&b, names)
	b.WriteString(`</svg>`)
	return figure(id, kind, title, b.String())
}

// spectrumMaxX is log10(1/(1-0.99999)): the spectrum ends at 99.999%.
const spectrumMaxX = 5

// spectrumChart draws latency against percentile with the percentile on
// HdrHistogram's log axis, x = log10(1/(1-q)), so 90, 99, 99.9... are
// evenly spaced and the tail gets the room it deserves.
func spectrumChart(r *results.Result, id string) (template.HTML, error) {
	blocks := []hlogBlock{{"read", r.Read}, {"turn", r.Turn}}
	for _, c := range r.Classes {
		blocks = append(blocks, hlogBlock{"class " + c.Class, c.Latency})
	}
	var ss []series
	for _, bl := range blocks {
		if bl.l.Count == 0 {
			continue
		}
		h, err := bl.l.Histogram()
		if err != nil {
			return "", fmt.Errorf("%s: %w", bl.tag, err)
		}
		s := series{name: bl.tag}
		for i := 0; i <= spectrumMaxX*20; i++ {
			xv := float64(i) / 20
			p := 100 * (1 - math.Pow(10, -xv))
			s.pts = append(s.pts, [2]float64{xv, h.Quantile(p).Seconds() * 1000})
		}
		ss = append(ss, s)
	}
	xt := []tick{{0, "0%"}, {1, "90%"}, {2, "99%"}, {3, "99.9%"}, {4, "99.99%"}, {5, "99.999%"}}
	return lineChart(id, "percentile-spectrum", "Latency by percentile (from the full histograms)",
		"percentile (log scale: 1/(1-q))", "latency (ms)", xt, 0, spectrumMaxX, ss, numfmt.Sig3), nil
}

// timeTicks labels the seconds of a timeline at about eight places.
func timeTicks(tl []results.Second) ([]tick, float64, float64) {
	lo, hi := float64(tl[0].T), float64(tl[len(tl)-1].T)
	step := math.Max(math.Ceil((hi-lo)/8), 1)
	var ts []tick
	for v := lo; v <= hi && len(ts) < 20; v += step {
		ts = append(ts, tick{v, fmt.Sprintf("%gs", v)})
	}
	return ts, lo, math.Max(hi, lo+1)
}

// noTimeline is what a timeline chart shows for a result without one.
func noTimeline(id, kind, title string) template.HTML {
	return figure(id, kind, title, `<p class="empty">No per-second timeline in this result.</p>`)
}

func rateChart(r *results.Result, id string) template.HTML {
	return timelineChart(r, id, "timeline-rate", "Turns per second: asked and achieved", "turns/s",
		"asked", "achieved", func(s results.Second) (float64, float64) { return s.Asked, s.Achieved })
}

func timelineLatencyChart(r *results.Result, id string) template.HTML {
	return timelineChart(r, id, "timeline-latency", "Read latency per second: p50 and p99", "latency (ms)",
		"p50", "p99", func(s results.Second) (float64, float64) { return s.P50Ms, s.P99Ms })
}

// timelineChart draws two series of the per-second timeline.
func timelineChart(r *results.Result, id, kind, title, yLabel, nameA, nameB string, val func(results.Second) (float64, float64)) template.HTML {
	if len(r.Timeline) == 0 {
		return noTimeline(id, kind, title)
	}
	a, b := series{name: nameA}, series{name: nameB}
	for _, s := range r.Timeline {
		va, vb := val(s)
		a.pts = append(a.pts, [2]float64{float64(s.T), va})
		b.pts = append(b.pts, [2]float64{float64(s.T), vb})
	}
	xt, lo, hi := timeTicks(r.Timeline)
	return lineChart(id, kind, title, "time since start (s; warmup included)", yLabel, xt, lo, hi, []series{a, b}, numfmt.Sig3)
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
		xt = append(xt, tick{float64(i), clip(c)})
	}
	var b strings.Builder
	svgOpen(&b, title, xLabel, yLabel)
	axes(&b, xt, yt, x, y)
	barW := slot * 0.7 / float64(len(ss))
	if stacked {
		barW = slot * 0.5
	}
	var names []string
	for _, s := range ss {
		names = append(names, s.name)
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
				color(si), html.EscapeString(cats[ci]), html.EscapeString(s.name), html.EscapeString(yfmt(v)))
			if stacked {
				base += v
			}
		}
	}
	legend(&b, names)
	b.WriteString(`</svg>`)
	return figure(id, kind, title, b.String())
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func classChart(r *results.Result, id string) template.HTML {
	cats := []string{}
	p50, p99 := series{name: "p50"}, series{name: "p99"}
	for i, c := range r.Classes {
		cats = append(cats, c.Class)
		p50.pts = append(p50.pts, [2]float64{float64(i), c.P50Ms})
		p99.pts = append(p99.pts, [2]float64{float64(i), c.P99Ms})
	}
	return barChart(id, "class-latency", "Read latency per class: p50 and p99", "class", "latency (ms)",
		cats, []series{p50, p99}, false, numfmt.Sig3)
}

// inflationChart splits each class's wire bytes into the decoded bytes
// (disk), what base64 adds to the blobs and the JSON envelope around them,
// as shares of the wire, so a class that ships 33% more than it stores
// stands out. A blob's decoded size is 3/4 of its base64 length (padding
// aside); what base64 adds is the rest.
func inflationChart(r *results.Result, id string) template.HTML {
	cats := []string{}
	disk, enc, env := series{name: "disk"}, series{name: "base64"}, series{name: "JSON envelope"}
	for i, c := range r.Classes {
		cats = append(cats, fmt.Sprintf("%s (%s)", c.Class, numfmt.Ratio(c.Inflation)))
		wire := float64(max(c.WireBytes, 1))
		blob := math.Min(float64(c.DiskBytes), float64(c.Base64Bytes)*3/4)
		e := float64(c.Base64Bytes) - blob
		rest := math.Max(float64(c.WireBytes)-float64(c.DiskBytes)-e, 0)
		disk.pts = append(disk.pts, [2]float64{float64(i), 100 * float64(c.DiskBytes) / wire})
		enc.pts = append(enc.pts, [2]float64{float64(i), 100 * e / wire})
		env.pts = append(env.pts, [2]float64{float64(i), 100 * rest / wire})
	}
	return barChart(id, "inflation", "Wire bytes per class: disk, base64 and envelope (inflation = wire / disk)",
		"class (inflation)", "share of wire bytes (%)", cats, []series{disk, enc, env}, true,
		func(v float64) string { return numfmt.Sig3(v) + "%" })
}
