package compare

import (
	"fmt"
	"math"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The noise tests of compare (docs/measurement.md, "Is a change real?").
// Each delta gets a 99% interval for its change and is called significant
// only when the interval excludes zero and, for latencies and rates, the
// change is beyond the noise floor. 99%, not the usual 95%: a comparison
// holds about a hundred deltas, and at 95% five of them would be called
// significant by chance between two runs of one server.
//
// A percentile is tested with the order-statistic (binomial) interval: in
// a sample of n values, the rank of the q-quantile of the population is
// Binomial(n, q), so the values at ranks n·q ± z·√(n·q·(1−q)) of the
// histogram bound the quantile with the interval's confidence, whatever the
// distribution. It is what a bootstrap of the percentile from the whole
// histogram converges to, computed exactly from the stored HDR histogram
// in constant time and with no random draw, so the verdict is the same on
// every run of compare. Each side's interval gives its standard error
// (width / 2z); the change's interval combines the two as independent
// errors. The interval needs n·q and n·(1−q) of at least minTail values: a
// p99.9 of 2,000 reads is two values, and no test can speak for it.

const (
	z99     = 2.575829 // two-sided 99%
	minTail = 5        // values needed on each side of a percentile to test it
	// resolution is the histograms' relative precision (3 significant
	// digits): a smaller change is a rounding, not a change.
	resolution = 0.002
)

// judge sets d's Noise from its 99% interval [low, high]; floor applies
// to the relative change (0 for shares, whose change is in points).
func judge(d *Delta, low, high, floor float64) {
	d.Low, d.High = low, high
	switch {
	case d.Base == d.New:
		d.Noise = Unchanged
	case low <= 0 && high >= 0:
		d.Noise = WithinNoise
	case d.RelativeOK && math.Abs(*d.Relative) < max(floor, resolution):
		d.Noise = WithinNoise
		d.Note = fmt.Sprintf("below the noise floor of %.0f%%", 100*max(floor, resolution))
	default:
		d.Noise = Significant
	}
}

// untested marks d as shown without a test, saying why.
func untested(d *Delta, why string) {
	if d.Base == d.New {
		d.Noise = Unchanged
		return
	}
	d.Noise = Untested
	d.Note = why
}

// quantileSE is the standard error of h's q-quantile (q in 0..1) in ms
// from its order-statistic interval; ok is false with too few values.
func quantileSE(h *stats.Histogram, q float64) (se float64, ok bool) {
	n := float64(h.Count())
	if n*q < minTail || n*(1-q) < minTail {
		return 0, false
	}
	half := z99*math.Sqrt(n*q*(1-q)) + 1 // +1: ranks are whole, round the interval outward
	lo := max(n*q-half, 0) / n
	hi := min(n*q+half, n) / n
	vlo := float64(h.Quantile(100*lo).Microseconds()) / 1000
	vhi := float64(h.Quantile(100*hi).Microseconds()) / 1000
	return (vhi - vlo) / (2 * z99), true
}

// noise is what a latency test needs besides the two blocks: the noise
// floor, and for blocks timed from the intended start (read, read_ok,
// turn, first_read and their classes and sizes) the scheduling lag of
// both runs.
type noise struct {
	floor      float64
	lagA, lagB *stats.Latency // nil for blocks timed from the send (service, ttfb, lag)
}

// noiseOf is the noise of block in a comparison of a and b.
func noiseOf(block string, a, b *results.Result, floor float64) noise {
	n := noise{floor: floor}
	if block == "read" || block == "read_ok" || block == "turn" || block == "first_read" {
		n.lagA, n.lagB = &a.Lag, &b.Lag
	}
	return n
}

// lagSlack is how much of a change of a latency timed from the intended
// start the generator can account for: the change of the scheduling lag
// at the same percentile. A run the machine slowed down (other work, a
// pause) is late to send, and that lateness is in its latencies
// (rightly: the users of a server would have waited it) but it is no
// difference between the servers.
func (n noise) lagSlack(stat string) float64 {
	if n.lagA == nil {
		return 0
	}
	return math.Abs(n.lagA.StatMs(stat) - n.lagB.StatMs(stat))
}

// testLatency tests a percentile stat ("p99") of two latency blocks; max
// and mean are never tested.
func testLatency(d *Delta, a, b stats.Latency, stat string, n noise) {
	switch stat {
	case "max":
		untested(d, "a maximum is one value: no test")
		return
	case "mean":
		// A mean of latencies moves with a handful of outliers (one
		// hiccup of the machine), which no test on independent samples
		// accounts for: the percentiles carry the verdict.
		untested(d, "a mean moves with a few outliers: no test (see the percentiles)")
		return
	}
	ha, errA := a.Histogram()
	hb, errB := b.Histogram()
	if errA != nil || errB != nil {
		untested(d, "no histogram")
		return
	}
	s, _ := stats.LatencyStat(stat)
	q := s.Percentile() / 100 // as this test always read it (for p99.9 a bit off s.Quantile)
	seA, okA := quantileSE(ha, q)
	seB, okB := quantileSE(hb, q)
	if !okA || !okB {
		untested(d, fmt.Sprintf("too few values for a test of %s (%d and %d)", stat, ha.Count(), hb.Count()))
		return
	}
	half := z99*math.Hypot(seA, seB) + n.lagSlack(stat)
	judge(d, d.Change-half, d.Change+half, n.floor)
}

// testShare tests a change of a share (in %) of ka of na against kb of
// nb with the normal interval of a difference of two proportions.
func testShare(d *Delta, ka, na, kb, nb int64) {
	if na == 0 || nb == 0 {
		untested(d, "no reads on one side")
		return
	}
	pa, pb := float64(ka)/float64(na), float64(kb)/float64(nb)
	se := math.Sqrt(pa*(1-pa)/float64(na) + pb*(1-pb)/float64(nb))
	if se == 0 { // 0% or 100% on both sides: any difference is certain
		se = math.SmallestNonzeroFloat64
	}
	half := 100 * z99 * se
	judge(d, d.Change-half, d.Change+half, 0)
}

// testRate tests a change of a rate counted as na events over sa seconds
// against nb over sb, as Poisson counts (conservative for a paced, less
// variable arrival).
func testRate(d *Delta, na, nb, sa, sb, floor float64) {
	if sa <= 0 || sb <= 0 {
		untested(d, "no measured time")
		return
	}
	half := z99 * math.Hypot(math.Sqrt(na)/sa, math.Sqrt(nb)/sb)
	judge(d, d.Change-half, d.Change+half, floor)
}
