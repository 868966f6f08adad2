package report

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// Guides are the limits a result's charts are read against, drawn as
// horizontal lines across them: the thresholds the run was held to
// (turn.p99<800ms on the latency charts, passing in blue, broken in
// vermillion), the turn's deadline (a cut read is recorded at it), and,
// on the capacity page, the SLO (capacityhtml.go). A latency figure is
// only meaningful beside its bound; a chart without it leaves the reader
// to find the table.

// guide is one horizontal line of a chart at v (in the chart's unit),
// named by text. at, when above 0, is the x at which the bound applies
// (a p99 bound on the percentile spectrum sits at 99%), marked there.
type guide struct {
	class, text, colour string
	v, at               float64
}

// Guide colours: a threshold held, one broken, the deadline.
const (
	guidePass     = "#0072b2"
	guideFail     = "#d55e00"
	guideDeadline = "#000000"
)

// deadlineGuide is the turn's deadline of r as a guide (nil when the
// workload sets none).
func deadlineGuide(r *results.Result) []guide {
	d := r.Workload.Turn.Deadline
	if d <= 0 {
		return nil
	}
	ms := float64(d) / float64(time.Millisecond)
	return []guide{{class: "deadline", text: "turn deadline " + numfmt.Ms(ms), colour: guideDeadline, v: ms}}
}

// thresholdGuides are r's latency thresholds whose metric one of the
// blocks names ("turn" takes turn.p99<800ms; "class.doc.read" takes
// class.doc.read.p99<200ms), each at its limit and, when spectrum is
// set, at its percentile on the spectrum's axis; whole says the bound is
// on the whole run (drawn on a per-second chart, where it is a
// reference, not the same statistic).
func thresholdGuides(r *results.Result, spectrum, whole bool, blocks ...string) []guide {
	var out []guide
	for _, v := range r.Thresholds {
		cut := strings.LastIndex(v.Metric, ".")
		if v.Unit != "ms" || cut < 0 || !inBlocks(v.Metric[:cut], blocks) || !(v.Limit > 0) {
			continue
		}
		g := guide{class: "threshold", colour: guidePass, v: v.Limit, text: markPass + " " + v.Bound}
		if !v.Pass {
			g.colour, g.text = guideFail, markFail+" "+v.Bound
		}
		if whole {
			g.text += " (whole run)"
		}
		if spectrum {
			g.at = spectrumX(v.Metric[cut+1:])
		}
		out = append(out, g)
	}
	return out
}

func inBlocks(block string, blocks []string) bool {
	for _, b := range blocks {
		if b == block || (b == "class" && strings.HasPrefix(block, "class.") && strings.HasSuffix(block, ".read")) {
			return true
		}
	}
	return false
}

// spectrumX is where a percentile statistic sits on the spectrum's axis,
// x = log10(1/(1-q)); 0 for a statistic with no place there (the mean,
// the maximum).
func spectrumX(stat string) float64 {
	s, ok := stats.LatencyStat(stat)
	if !ok || s.Quantile == 0 {
		return 0
	}
	return math.Log10(1 / (1 - s.Quantile))
}

// guideScale are the guides as series with no line of their own, so a
// chart's scale reaches them.
func guideScale(gs []guide) []series {
	var out []series
	for _, g := range gs {
		out = append(out, series{pts: [][2]float64{{0, g.v}}})
	}
	return out
}

// drawGuides draws each guide as a dashed line across the plot at y(v),
// a diamond at its x when it has one, and returns their labels (placed
// beside the lines by placeLabels) and the boxes of the lines, for the
// labels of the chart to avoid.
func drawGuides(b *strings.Builder, gs []guide, x, y func(float64) float64) ([]label, []box) {
	var labels []label
	var marks []box
	for _, g := range gs {
		gy := y(g.v)
		fmt.Fprintf(b, `<line class="guide %s" data-v="%g" x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3"/>`,
			g.class, g.v, padL, gy, plotW-padR, gy, g.colour)
		if g.at > 0 {
			gx := x(g.at)
			fmt.Fprintf(b, `<path class="guide-at %s" d="M%.1f %.1fl6 6l-6 6l-6 -6z" fill="%s"/>`, g.class, gx, gy-6, g.colour)
			marks = append(marks, box{gx - 7, gy - 7, 14, 14})
		}
		labels = append(labels, label{class: "guide-label " + g.class, text: g.text, colour: g.colour, x: plotW - padR, y: gy})
		marks = append(marks, box{padL, gy - 1, plotW - padR - padL, 2})
	}
	return labels, marks
}

// offScale are the guides above top on a linear chart: drawing them would
// flatten the data into the floor, so they are named in the plot's top
// corner instead ("↑ turn deadline 3.00s"), and left out of the scale.
func offScale(gs []guide, top float64) (on, off []guide) {
	for _, g := range gs {
		if g.v > top {
			off = append(off, g)
			continue
		}
		on = append(on, g)
	}
	return on, off
}

// drawOffScale names the guides above a chart's scale in its top right
// corner.
func drawOffScale(b *strings.Builder, gs []guide) {
	for i, g := range gs {
		fmt.Fprintf(b, `<text class="guide-off %s" x="%g" y="%g" text-anchor="end" fill="%s">%s</text>`,
			g.class, plotW-padR-4, padT+14+float64(i)*labelH, g.colour, html.EscapeString("↑ "+g.text+" (above the scale)"))
	}
}
