package report

import (
	"fmt"
	"html/template"
	"math"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// spectrumLine is one named line of a percentile spectrum: a latency block
// whose stored histogram is drawn, in a colour and a stroke, so the
// compare page can overlay two runs (one colour per metric, dashed for
// the base run).
type spectrumLine struct {
	name   string // the block's key (data-series): read, read_ok, turn, a class
	label  string // the legend's words ("" for name): "ok reads", never the key read_ok
	l      stats.Latency
	colour string // "" for the line's place in the palette
	dashed bool
	width  float64 // 0 for the usual width; thin for one of several runs
}

// spectrumMaxX is log10(1/(1-0.99999)): no spectrum goes past 99.999%.
const spectrumMaxX = 5

// spectrumSteps is how many points a decade of the axis gets.
const spectrumSteps = 20

// spectrumLabel labels the percentile axis at decade d (0..spectrumMaxX).
func spectrumLabel(d int) string {
	return [...]string{"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"}[d]
}

// spectrumChart draws latency against percentile with the percentile on
// HdrHistogram's log axis, x = log10(1/(1-q)), so 90%, 99%, 99.9%... are
// evenly spaced and the tail gets the room it deserves. Each line is
// drawn from its block's full histogram (not the five stored
// percentiles), and ends where its samples end: a histogram of n values
// says nothing past the quantile 1-1/n, so its line stops there, at its
// maximum, instead of drawing a flat tail that was never measured. Blocks
// without values are left out; a chart with none says so.
func spectrumChart(id, title string, lines []spectrumLine) (template.HTML, error) {
	return guidedSpectrum(id, title, lines, nil)
}

// guidedSpectrum is spectrumChart with guides across it: the thresholds
// on its blocks, each marked at its percentile, and the deadline.
func guidedSpectrum(id, title string, lines []spectrumLine, gs []guide) (template.HTML, error) {
	ss, end, err := spectrumSeries(lines)
	if err != nil {
		return "", err
	}
	if len(ss) == 0 {
		return figure(id, "percentile-spectrum", title, `<p class="empty">No latency values recorded.</p>`), nil
	}
	top := math.Min(math.Ceil(end), spectrumMaxX)
	var xt []tick
	for d := 0; float64(d) <= top; d++ {
		xt = append(xt, tick{float64(d), spectrumLabel(d)})
	}
	return logChart(id, "percentile-spectrum", title, "percentile (log scale: 1/(1-q))", "latency (ms, log scale)",
		xt, 0, top, ss, numfmt.Sig3, gs), nil
}

// spectrumSeries computes the points of each line with values, x in
// decades of 1/(1-q) and y in milliseconds, and the largest x reached (at
// least 1, so a chart has an axis).
func spectrumSeries(lines []spectrumLine) ([]series, float64, error) {
	var ss []series
	end := 1.0
	for i, ln := range lines {
		if ln.l.Count == 0 {
			continue
		}
		h, err := ln.l.Histogram()
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", ln.name, err)
		}
		if h.Count() == 0 {
			continue
		}
		last := math.Min(spectrumMaxX, math.Log10(float64(h.Count())))
		s := series{name: ln.name, label: ln.label, colour: ln.colour, dashed: ln.dashed, width: ln.width}
		if s.colour == "" {
			s.colour = color(i)
		}
		for j := 0; float64(j)/spectrumSteps < last; j++ {
			xv := float64(j) / spectrumSteps
			p := 100 * (1 - math.Pow(10, -xv))
			s.pts = append(s.pts, [2]float64{xv, ms(h.Quantile(p).Seconds())})
		}
		s.pts = append(s.pts, [2]float64{last, ms(h.Max().Seconds())})
		end = math.Max(end, last)
		ss = append(ss, s)
	}
	return ss, end, nil
}

// ms is seconds in milliseconds.
func ms(s float64) float64 { return s * 1000 }

// resultSpectra are a result's two spectra: reads (all, ok-only) and
// turns in one, each class in the other.
func resultSpectra(r *results.Result, suffix string) ([]template.HTML, error) {
	main, err := guidedSpectrum("spectrum"+suffix, "Latency by percentile: reads, ok reads and turns (from the full histograms)",
		[]spectrumLine{{name: "read", label: "all reads", l: r.Read}, {name: "read_ok", label: "ok reads", l: r.ReadOK}, {name: "turn", label: "turns", l: r.Turn}},
		append(thresholdGuides(r, true, false, "read", "read_ok", "turn"), deadlineGuide(r)...))
	if err != nil {
		return nil, err
	}
	var cls []spectrumLine
	for _, c := range r.Classes {
		cls = append(cls, spectrumLine{name: c.Class, l: c.Latency})
	}
	per, err := guidedSpectrum("spectrum-classes"+suffix, "Read latency by percentile, per class", cls,
		append(thresholdGuides(r, true, false, "class"), deadlineGuide(r)...))
	if err != nil {
		return nil, err
	}
	return []template.HTML{main, per}, nil
}
