package ab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// Windows (docs/compare.md, "ab: base and new at the same instant"). Both
// sides of a round run the same schedule (the same seed) from the same
// instant, side by side: the turn that starts at 1.250 s starts at 1.250 s
// on both, and reads the same URIs. A window is a stretch of that schedule
// — the reads whose intended start falls in it, the same reads on both
// sides — and its figure on each side is measured under the same moment of
// the machine: a stall of a second, a burst of other jobs, a throttled core
// hits base and new alike, and the difference of the window leaves it out.
// The window, not the round, is the unit of the test: a round of 5 s is 20
// windows of 250 ms, so a few rounds give the test dozens of pairs, and a
// stall that met one side only spoils a window or two, which the trimmed
// mean sets aside.

// MinWindow is the narrowest window: well under the stalls of a busy
// machine (tens of ms to seconds), so that a stall meets both sides of a
// window, and wide enough to hold a percentile's reads at modest rates.
const MinWindow = 250 * time.Millisecond

// minTail is how many values each side of a percentile needs in a window
// for the window to hold it: a p50 needs 10 reads, a p99 500.
const minTail = 5

// WindowTrim is the share of the windows' differences trimmed from each
// end for a percentile: a quarter, not stats.Trim's fifth. A stall that
// meets one side only spoils that side's window, and on a saturated runner
// (several busy loops per core) up to a fifth of the windows at each end
// are so spoiled: on TestSequentialRuleRates' saturated machine, with
// looks every two rounds up to 16, a fifth trimmed left 15 of 200 A/A
// experiments unanswered, a quarter 2 of 200, at no cost the quiet
// machine's rates show.
const WindowTrim = 0.25

// shareReads is how many scheduled reads a window of a share (errors,
// an outcome) needs on each side.
const shareReads = 20

// windowed is how a metric is read off a window's samples: a percentile
// of one latency (q > 0) or the share of reads that match (q = 0).
type windowed struct {
	q     float64
	class int32 // -1: every class
	turns bool  // turn latency
	in    uint8 // the reads that have the latency (in* of samples.go)
	value func(r *readRec) float32
	match func(r *readRec) bool // for a share: the reads counted
}

// windowedOf is how metric m is measured in a window, false for a metric
// no window holds (rates, inflation, costs, turn sizes, max, mean: the
// rounds judge those).
func windowedOf(m bounds.Metric, classes []string) (windowed, bool) {
	w := windowed{class: -1}
	if m.Attachments > 0 {
		return w, false
	}
	if m.Class != "" {
		i := slices.Index(classes, m.Class)
		if i < 0 {
			return w, false
		}
		w.class = int32(i)
	}
	key := m.Key
	switch {
	case key == "errors":
		w.match = func(r *readRec) bool { return r.outcome.IsError() }
		return w, true
	case strings.HasPrefix(key, "outcome."):
		name := strings.TrimPrefix(key, "outcome.")
		w.match = func(r *readRec) bool { return r.outcome.String() == name }
		return w, true
	}
	block, stat, _ := strings.Cut(key, ".")
	s, ok := stats.LatencyStat(stat)
	if !ok || s.Quantile == 0 { // max and mean: no window holds them
		return w, false
	}
	w.q = s.Quantile
	switch block {
	case "read":
		w.in, w.value = inRead, func(r *readRec) float32 { return r.latency }
	case "read_ok":
		w.in, w.value = inOK, func(r *readRec) float32 { return r.latency }
	case "service":
		w.in, w.value = inService, func(r *readRec) float32 { return r.service }
	case "ttfb":
		w.in, w.value = inTTFB, func(r *readRec) float32 { return r.ttfb }
	case "turn":
		w.turns = w.class < 0
		return w, w.turns
	default:
		return w, false
	}
	return w, true
}

// need is how many values a window must hold on each side.
func (w windowed) need() int {
	if w.q == 0 {
		return shareReads
	}
	return int(math.Ceil(minTail/min(w.q, 1-w.q) - 1e-9)) // 1 − 0.9 is not quite 0.1
}

// points are the (intended start, value) of a side's samples the metric
// takes; for a share the value is 1 for a matching read, else 0.
func (w windowed) points(s *Samples) (at []time.Duration, vs []float32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.turns {
		for _, t := range s.turns {
			at, vs = append(at, t.at), append(vs, t.latency)
		}
		return at, vs
	}
	for i := range s.reads {
		r := &s.reads[i]
		if w.class >= 0 && r.class != w.class {
			continue
		}
		switch {
		case w.match != nil:
			v := float32(0)
			if w.match(r) {
				v = 1
			}
			at, vs = append(at, r.at), append(vs, v)
		case r.in&w.in != 0:
			at, vs = append(at, r.at), append(vs, w.value(r))
		}
	}
	return at, vs
}

// diffs are the window differences of one round, in time order: new −
// base of the window's figure, as log-ratios for a percentile and in
// points for a share; and the windows' width.
func (w windowed) diffs(base, nw *Samples) ([]float64, time.Duration) {
	ba, bv := w.points(base)
	na, nv := w.points(nw)
	if len(ba) == 0 || len(na) == 0 {
		return nil, 0
	}
	lo, hi := min(slices.Min(ba), slices.Min(na)), max(slices.Max(ba), slices.Max(na))
	span := max(hi-lo, time.Millisecond)
	perWindow := float64(max(len(ba), len(na))) * float64(MinWindow) / float64(span)
	width := MinWindow * time.Duration(max(1, math.Ceil(float64(w.need())/max(perWindow, 1e-9))))
	k := int((hi-lo)/width) + 1
	bw, nwin := bucket(ba, bv, lo, width, k), bucket(na, nv, lo, width, k)
	var out []float64
	for i := range k {
		b, n := bw[i], nwin[i]
		if len(b) < w.need() || len(n) < w.need() {
			continue
		}
		if w.q == 0 {
			out = append(out, 100*(mean(n)-mean(b)))
			continue
		}
		vb, vn := quantile(b, w.q), quantile(n, w.q)
		if vb > 0 && vn > 0 {
			out = append(out, math.Log(vn)-math.Log(vb))
		}
	}
	return out, width
}

// bucket puts each value in its window from lo.
func bucket(at []time.Duration, vs []float32, lo, width time.Duration, k int) [][]float32 {
	out := make([][]float32, k)
	for i, t := range at {
		j := min(int((t-lo)/width), k-1)
		out[j] = append(out[j], vs[i])
	}
	return out
}

// quantile is the q-quantile of vs by nearest rank (vs is sorted in place).
func quantile(vs []float32, q float64) float64 {
	slices.Sort(vs)
	i := int(math.Ceil(q*float64(len(vs)))) - 1
	return float64(vs[min(max(i, 0), len(vs)-1)])
}

// mean of vs (not empty).
func mean(vs []float32) float64 {
	s := 0.0
	for _, v := range vs {
		s += float64(v)
	}
	return s / float64(len(vs))
}

// windowEstimate is the estimate of metric m's change over the kept
// rounds' windows at the gate's levels, at the level base (the base runs'
// median figure); false when no window holds the metric, or fewer
// than two did (a p99 at 100 reads/s needs windows of 5 s: runs of 1 s
// have none), and the rounds judge it then.
func (o *Experiment) windowEstimate(m bounds.Metric, base float64, g compare.Gate) (est compare.Estimate, ok bool) {
	if len(o.samples) == 0 {
		return est, false
	}
	w, ok := windowedOf(m, o.samples[0][Base].classes)
	if !ok {
		return est, false
	}
	var seg [][]float64
	var width time.Duration
	for _, rd := range o.samples {
		d, wd := w.diffs(rd[Base], rd[New])
		if len(d) > 0 {
			seg, width = append(seg, d), max(width, wd)
		}
	}
	trim := WindowTrim
	if w.q == 0 {
		trim = 0 // a rare error is the signal, not an outlier
	}
	p, tested := stats.SerialT(seg, g.HoldLevel, trim)
	if !tested {
		return est, false // fewer than 2 windows held the figure: the rounds judge it
	}
	est = compare.Estimate{Tested: true, Units: "windows", N: p.N, P: p.P, Alpha: g.Level,
		Why: fmt.Sprintf("p = %.2g, %s paired t of %d windows of %s in %d rounds", p.P, trimWord(trim), p.N, numfmt.Duration(width), len(seg))}
	if w.q == 0 {
		est.Change, est.Low, est.High = p.Mean, p.Low, p.High
		return est, true
	}
	at := func(x float64) float64 { return base * math.Expm1(x) }
	est.Change, est.Low, est.High = at(p.Mean), at(p.Low), at(p.High)
	return est, true
}

// trimWord names the test of a trim.
func trimWord(trim float64) string {
	if trim == 0 {
		return "Student's"
	}
	return strconv.Itoa(int(100*trim)) + "% trimmed"
}
