package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The compare page's charts of several runs a side. The tables give each
// figure as the median of its side's runs (compare.Runs); the charts draw
// every run, so a reader sees the spread the verdict was judged on, and
// the figures they print are the model's (compare.Delta.BaseRuns, NewRuns
// and their medians Base and New), never recomputed here: a chart and
// its table row cannot disagree.

// sideResults are the results of a side in the order the comparison
// names them (oldest first), whatever order they were given in.
func sideResults(labels []string, runs []compare.Labelled) []*results.Result {
	out := make([]*results.Result, 0, len(runs))
	used := make([]bool, len(runs))
	for _, l := range labels {
		for i, r := range runs {
			if !used[i] && r.Label == l {
				used[i] = true
				out = append(out, r.Result)
				break
			}
		}
	}
	for i, r := range runs { // a run the comparison does not name: after them
		if !used[i] {
			out = append(out, r.Result)
		}
	}
	return out
}

// runsNote says what a side's run-by-run figures are: "median of 3 runs".
func runsNote(n int) string {
	if n == 1 {
		return "one run"
	}
	return fmt.Sprintf("median of %d runs", n)
}

// dotMetrics are the figures drawn run by run: every gated one (a
// --fail-on bound names it), the headline's, then every significant
// change, each once and only when the model holds its runs' values.
func dotMetrics(c *compare.Comparison) []compare.Delta {
	var names []string
	for _, b := range c.Bounds {
		names = append(names, b.Metric)
	}
	names = append(names, "read.p50", "read.p99", "turn.p99", "errors", "rate")
	for _, d := range c.AllDeltas() {
		if d.Noise == compare.Significant {
			names = append(names, d.Metric)
		}
	}
	var out []compare.Delta
	seen := map[string]bool{}
	for _, n := range names {
		d, ok := c.Find(n)
		if seen[n] || !ok || len(d.BaseRuns) == 0 || len(d.NewRuns) == 0 {
			continue
		}
		seen[n] = true
		out = append(out, d)
	}
	return out
}

// runsSection is the section of per-run dot plots: one row a side, a dot
// a run, the median a bold tick labelled with the table's figure.
func runsSection(c *compare.Comparison) htmlSection {
	s := htmlSection{Kind: "runs", ID: "runs", Title: "Every run, figure by figure",
		Notes: []string{fmt.Sprintf("Each dot is one run (base: %d, new: %d); the bold tick is the side's median, the figure the tables give. Gated figures first.",
			len(c.Base.Runs), len(c.New.Runs))}}
	gated := map[string]bool{}
	for _, b := range c.Bounds {
		gated[b.Metric] = true
	}
	for _, d := range dotMetrics(c) {
		s.Charts = append(s.Charts, dotPlot(d, gated[d.Metric], c.Base.Runs, c.New.Runs))
	}
	return s
}

// Dot plot geometry, in SVG user units.
const (
	dotW, dotH        = 720.0, 96.0
	dotAxisY          = 74.0 // the value axis under the two strips
	dotLeft, dotRight = 48.0, 110.0
)

// dotPlot draws one figure's runs. The figure element carries the
// figures as the table prints them (data-base, data-new, data-change),
// and each dot its run's value (data-value), for a reader's tools and
// the page's tests.
func dotPlot(d compare.Delta, gated bool, baseRuns, newRuns []string) template.HTML {
	all := slices.Concat(d.BaseRuns, d.NewRuns, []float64{d.Base, d.New})
	lo, hi := slices.Min(all), slices.Max(all)
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	pad := (hi - lo) * 0.08
	lo, hi = lo-pad, hi+pad
	x := func(v float64) float64 { return dotLeft + (v-lo)/(hi-lo)*(dotW-dotLeft-dotRight) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart dots" viewBox="0 0 %.0f %.0f" role="img" aria-label="%s">`, dotW, dotH, html.EscapeString(d.Metric+" run by run"))
	for i, side := range []struct {
		name   string
		vs     []float64
		med    float64
		labels []string
		colour string
	}{{"base", d.BaseRuns, d.Base, baseRuns, baseP50}, {"new", d.NewRuns, d.New, newRuns, newP50}} {
		y := 22 + 30*float64(i)
		fmt.Fprintf(&b, `<text x="0" y="%.0f" class="dot-side">%s</text>`, y+4, side.name)
		fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%.0f" y2="%.0f" stroke="#ddd"/>`, dotLeft, dotW-dotRight, y, y)
		for j, v := range side.vs {
			run := ""
			if j < len(side.labels) {
				run = side.labels[j]
			}
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.0f" r="5" fill="%s" fill-opacity="0.55" data-side="%s" data-run="%s" data-value="%s"><title>%s: %s</title></circle>`,
				x(v), y, side.colour, side.name, html.EscapeString(run), html.EscapeString(numfmt.Value(d.Unit, v)),
				html.EscapeString(run), html.EscapeString(numfmt.Value(d.Unit, v)))
		}
		med := html.EscapeString(numfmt.Value(d.Unit, side.med))
		fmt.Fprintf(&b, `<line class="median" x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" stroke="%s" stroke-width="3" data-side="%s" data-median="%s"/>`,
			x(side.med), x(side.med), y-10, y+10, side.colour, side.name, med)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" class="dot-median" data-side="%s">%s</text>`, dotW-dotRight+8, y+4, side.name, med)
	}
	dotAxis(&b, d.Unit, lo, hi, x)
	b.WriteString(`</svg>`)
	title := d.Metric + ": " + changeText(d)
	if n := noiseText(d); n != "" {
		title += ", " + n
	}
	if gated {
		title += " (gated)"
	}
	return template.HTML(fmt.Sprintf(`<figure id="runs-%s" data-chart="runs" data-metric="%s" data-base="%s" data-new="%s" data-change="%s"><figcaption>%s</figcaption>%s</figure>`,
		html.EscapeString(strings.ReplaceAll(d.Metric, ".", "-")), html.EscapeString(d.Metric),
		html.EscapeString(numfmt.Value(d.Unit, d.Base)), html.EscapeString(numfmt.Value(d.Unit, d.New)),
		html.EscapeString(changeText(d)), html.EscapeString(printable(title)), b.String()))
}

// dotAxis draws the dot plot's value axis under the strips: a line with
// a few round values between lo and hi, in the figure's unit, so a
// reader sees how far apart the runs are, not only their order.
func dotAxis(b *strings.Builder, unit string, lo, hi float64, x func(float64) float64) {
	fmt.Fprintf(b, `<line class="dot-axis" x1="%.0f" x2="%.0f" y1="%.0f" y2="%.0f" stroke="#999"/>`, dotLeft, dotW-dotRight, dotAxisY, dotAxisY)
	ts, _ := niceTicks(hi-lo, numfmt.Sig3)
	if len(ts) < 2 {
		return
	}
	step := ts[1].at - ts[0].at
	label := func(v float64) string { return numfmt.Value(unit, v) }
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" stroke="#999"/><text class="dot-tick" x="%.1f" y="%.0f" text-anchor="middle" data-value="%g">%s</text>`,
			x(v), x(v), dotAxisY, dotAxisY+4, x(v), dotAxisY+16, v, html.EscapeString(tickText(label, v)))
	}
}

// medianBars are the p50 and p99 bars of a side from the model's medians
// (a class's or a turn size's deltas), over the categories cats.
func medianBars(cats []string, of func(cat string) []compare.Delta, baseSide bool, prefix string) []series {
	p50, p99 := series{name: prefix + "p50"}, series{name: prefix + "p99"}
	for i, cat := range cats {
		for _, d := range of(cat) {
			v := d.New
			if baseSide {
				v = d.Base
			}
			if math.IsNaN(v) {
				v = 0
			}
			switch d.Label {
			case "p50":
				p50.pts = append(p50.pts, [2]float64{float64(i), v})
			case "p99":
				p99.pts = append(p99.pts, [2]float64{float64(i), v})
			}
		}
		if len(p50.pts) <= i { // a class one side lacks
			p50.pts = append(p50.pts, [2]float64{float64(i), 0})
		}
		if len(p99.pts) <= i {
			p99.pts = append(p99.pts, [2]float64{float64(i), 0})
		}
	}
	return []series{p50, p99}
}

// medianLatency is a side's latency section made of the model's medians
// (for a side of several runs): per class and per block, each figure the
// median of the runs' values, as the deltas table gives it.
func medianLatency(c *compare.Comparison, baseSide bool, runs int) htmlSection {
	t := htmlTable{Class: "latency", Left: 1, Header: latencyHeader("class", false)}
	row := func(name string, ds []compare.Delta) {
		cells := []string{clip(name)}
		for _, label := range stats.LatencyStatNames() {
			cell := numfmt.None
			for _, d := range ds {
				if d.Label == label {
					v := d.New
					if baseSide {
						v = d.Base
					}
					cell = numfmt.Value(d.Unit, v)
				}
			}
			cells = append(cells, cell)
		}
		t.Rows = append(t.Rows, cells)
	}
	for _, cl := range c.Classes {
		if (baseSide && cl.InBase) || (!baseSide && cl.InNew) {
			row(cl.Class, cl.Read)
		}
	}
	for _, l := range c.Latency {
		if (baseSide && l.BaseCount > 0) || (!baseSide && l.NewCount > 0) { // a block the side never recorded (first_read without churn)
			row(l.Block, l.Deltas)
		}
	}
	return htmlSection{Kind: "latency", Tables: []htmlTable{t},
		Notes: []string{fmt.Sprintf("Each figure is the %s, taken figure by figure (a row's figures may come from different runs): the figures of the deltas table.", runsNote(runs))}}
}

// medianPairs replaces the latency pair of a comparison of several runs
// a side by the sides' medians, headed so; every other pair is the newest
// run's and keeps its heading.
func medianPairs(c *compare.Comparison, pairs []htmlPair, baseName, newName string) {
	for i := range pairs {
		pairs[i].BaseHead, pairs[i].NewHead = pairHeading(baseName, c.Base.Runs), pairHeading(newName, c.New.Runs)
		if pairs[i].Kind != "latency" {
			continue
		}
		if n := len(c.Base.Runs); n > 1 {
			pairs[i].Base, pairs[i].BaseHead = medianLatency(c, true, n), fmt.Sprintf("%s (%s)", baseName, runsNote(n))
		}
		if n := len(c.New.Runs); n > 1 {
			pairs[i].New, pairs[i].NewHead = medianLatency(c, false, n), fmt.Sprintf("%s (%s)", newName, runsNote(n))
		}
	}
}
