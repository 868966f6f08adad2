package report

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The per-second timelines of a result. A second of the timeline covers
// [t, t+1) since the run started, warmup included; its point is drawn in
// its middle. The warmup is shaded, and a second the run did not fill
// (the last one, when the run ended inside it; one of draining after the
// end) is shaded and marked, its values drawn as hollow dots apart from
// the line: a third of a second of turns is not a fall to a third of the
// rate, and the few slow reads that finish after the end are not a spike.

// timeTicks labels the seconds from lo to hi at about eight places.
func timeTicks(lo, hi float64) []tick {
	step := math.Max(math.Ceil((hi-lo)/8), 1)
	var ts []tick
	for v := lo; v <= hi && len(ts) < 20; v += step {
		ts = append(ts, tick{v, fmt.Sprintf("%gs", v)})
	}
	return ts
}

// noTimeline is what a timeline chart shows for a result without one.
func noTimeline(id, kind, title string) template.HTML {
	return figure(id, kind, title, `<p class="empty">No per-second timeline in this result.</p>`)
}

// runSpan is when r's warmup ended and its run ended, in seconds since
// it started: the warmup from the workload's load (or, for a result that
// does not say, the seconds the timeline marks as warmup), the end that
// plus the measured time.
func runSpan(r *results.Result) (warmupEnd, end float64) {
	if d := r.Workload.Load.Warmup; d > 0 {
		warmupEnd = d.Seconds()
	} else {
		for _, s := range r.Timeline {
			if s.Warmup {
				warmupEnd = math.Max(warmupEnd, float64(s.T+1))
			}
		}
	}
	return warmupEnd, warmupEnd + r.Totals.MeasuredS
}

// partialSecond says whether the second starting at t was not wholly
// inside the run ending at end: the run ended inside it, or before it (a
// second of reads finishing after the end). A run's end is known to the
// millisecond; 50ms of slack keeps a run that ended a hair late from
// marking a full second.
func partialSecond(t int, end float64) bool {
	return float64(t+1) > end+0.05
}

// partialSeconds are the seconds of r's timeline that partialSecond marks.
func partialSeconds(r *results.Result) []int {
	_, end := runSpan(r)
	var out []int
	for _, s := range r.Timeline {
		if partialSecond(s.T, end) {
			out = append(out, s.T)
		}
	}
	return out
}

func rateChart(r *results.Result, id, title string, sc timelineScale) template.HTML {
	achieved := series{name: "achieved", colour: color(0), width: 3}
	asked := series{name: "asked", colour: "#000000", dashed: true, width: 2.5}
	return timelineChart(r, id, "timeline-rate", title, "turns/s", []series{achieved, asked},
		func(s results.Second) []float64 { return []float64{s.Achieved, s.Asked} }, sc.lastT, sc.rateTop)
}

// timelineLatencyChart draws the read p50 and p99 of each second, the
// thresholds on reads (a reference: they hold the whole run's figure)
// and the turn's deadline, at which a cut read is recorded.
func timelineLatencyChart(r *results.Result, id, title string, sc timelineScale) template.HTML {
	return timelineChart(r, id, "timeline-latency", title, "read latency (ms)",
		[]series{{name: "p50", colour: color(0), width: 2.5}, {name: "p99", colour: color(1), width: 2.5}},
		func(s results.Second) []float64 { return []float64{s.P50Ms, s.P99Ms} }, sc.lastT, sc.latency,
		append(thresholdGuides(r, false, true, "read"), deadlineGuide(r)...)...)
}

// readsChart draws the reads that finished each second in two series:
// ok (reads - errors: answered, or an error the workload expects) and
// errors (every error outcome: cut at the deadline, dropped, timeouts,
// not_found...), so a run whose turns start on time while most reads
// fail shows it.
func readsChart(r *results.Result, id, title string, sc timelineScale) template.HTML {
	return timelineChart(r, id, "timeline-reads", title, "reads/s",
		[]series{{name: "ok reads/s", colour: color(0), width: 3}, {name: "error reads/s", colour: color(1), width: 3}},
		func(s results.Second) []float64 { return []float64{float64(s.Reads - s.Errors), float64(s.Errors)} }, sc.lastT, sc.readsTop)
}

// inFlightChart draws the turns in flight at each second's end: a queue
// that grows is a server falling behind.
func inFlightChart(r *results.Result, id, title string, sc timelineScale) template.HTML {
	return timelineChart(r, id, "timeline-in-flight", title, "turns in flight",
		[]series{{name: "in flight", colour: color(2), width: 3}},
		func(s results.Second) []float64 { return []float64{float64(s.InFlight)} }, sc.lastT, sc.inFlightTop)
}

// lagChart draws each second's worst scheduling lag: how late readbench
// sent a read after its intended start (latency counts from the intended
// start, so the lag is in every figure); the deadline when the lag
// reaches it.
func lagChart(r *results.Result, id, title string, sc timelineScale) template.HTML {
	return timelineChart(r, id, "timeline-lag", title, "worst scheduling lag (ms)",
		[]series{{name: "lag max", colour: color(3), width: 3}},
		func(s results.Second) []float64 { return []float64{s.LagMaxMs} }, sc.lastT, sc.lagTop, deadlineGuide(r)...)
}

// timelineChart draws series of the per-second timeline (val gives each
// second's value of each), over the seconds to at least lastT and up to
// at least top; full seconds on the lines, partial ones as hollow dots.
// The guides are drawn across it when they are within three times the
// data's top, and named in its corner when above: a deadline of 3 s on a
// chart of 20 ms reads would flatten them.
func timelineChart(r *results.Result, id, kind, title, yLabel string, ss []series, val func(results.Second) []float64, lastT int, top float64, gs ...guide) template.HTML {
	if len(r.Timeline) == 0 {
		return noTimeline(id, kind, title)
	}
	warmupEnd, end := runSpan(r)
	type dot struct{ x, v float64 }
	partial := make([][]dot, len(ss))
	partialT := map[int]bool{}
	for _, s := range r.Timeline {
		vs := val(s)
		mid := float64(s.T) + 0.5
		for i := range ss {
			top = math.Max(top, vs[i])
			if partialSecond(s.T, end) {
				partialT[s.T] = true
				partial[i] = append(partial[i], dot{mid, vs[i]})
				continue
			}
			ss[i].pts = append(ss[i].pts, [2]float64{mid, vs[i]})
		}
	}
	gs, off := offScale(gs, 3*math.Max(top, 1e-9))
	for _, g := range gs {
		top = math.Max(top, g.v)
	}
	lo := 0.0
	hi := math.Max(float64(r.Timeline[len(r.Timeline)-1].T+1), float64(lastT+1))
	yt, ymax := niceTicks(top*1.12, numfmt.Sig3) // headroom: a line at the top is not lost in the frame
	x := func(v float64) float64 { return padL + (v-lo)/math.Max(hi-lo, 1e-9)*(plotW-padL-padR) }
	y := func(v float64) float64 { return plotH - padB - v/ymax*(plotH-padT-padB) }
	var b strings.Builder
	svgOpen(&b, title, "time since start (s; warmup shaded)", yLabel)
	var bands []label
	if warmupEnd > 0 {
		fmt.Fprintf(&b, `<rect class="warmup-band" data-from="0" data-to="%g" x="%.1f" y="%g" width="%.1f" height="%g" fill="#000" fill-opacity="0.07"/>`,
			warmupEnd, x(0), padT, x(math.Min(warmupEnd, hi))-x(0), plotH-padT-padB)
		bands = append(bands, label{class: "warmup-label", text: "warmup", colour: "#333", x: x(0)})
	}
	for _, s := range r.Timeline {
		if !partialT[s.T] {
			continue
		}
		fmt.Fprintf(&b, `<rect class="partial-second" data-t="%d" x="%.1f" y="%g" width="%.1f" height="%g" fill="#e69f00" fill-opacity="0.16" stroke="#b07000" stroke-dasharray="3 3"/>`,
			s.T, x(float64(s.T)), padT, x(float64(s.T+1))-x(float64(s.T)), plotH-padT-padB)
		bands = append(bands, label{class: "partial-label", text: "partial second", colour: "#7a4a00", x: x(float64(s.T))})
	}
	axes(&b, timeTicks(lo, hi), yt, x, y)
	guideLabels, guideMarks := drawGuides(&b, gs, x, y)
	drawOffScale(&b, off)
	seriesPaths(&b, ss, x, y)
	var marks []box
	for i, ds := range partial {
		for _, d := range ds {
			cx, cy := x(d.x), y(d.v)
			marks = append(marks, box{cx - 6, cy - 6, 12, 12})
			fmt.Fprintf(&b, `<circle class="partial-point" cx="%.1f" cy="%.1f" r="5" fill="#fff" stroke="%s" stroke-width="2"><title>%s in a partial second: %s</title></circle>`,
				cx, cy, ss[i].stroke(i), html.EscapeString(ss[i].name), html.EscapeString(numfmt.Sig3(d.v)))
		}
	}
	for _, s := range ss {
		for _, p := range s.pts {
			marks = append(marks, box{x(p[0]) - 2, y(p[1]) - 2, 4, 4})
		}
	}
	drawLabels(&b, placeLabels(append(bands, guideLabels...), append(marks, guideMarks...), padL, plotW-padR, padT+float64(len(off))*labelH))
	legend(&b, ss)
	b.WriteString(`</svg>`)
	return figure(id, kind, title, b.String())
}
