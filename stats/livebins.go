package stats

import (
	"math"
	"time"
)

// A live view's latency histogram counts reads in fixed bins on a log
// scale, ten to a decade, with edges a person reads at a glance (10 ms,
// 12 ms, 15 ms, 20 ms, 25 ms, 30 ms, 40 ms, 50 ms, 60 ms, 80 ms, 100 ms):
// fixed, so the bins of two moments of a run are the same bins, and few
// (LiveBins), so a snapshot stays a value copied once a second.

// binsPerDecade and binDecades make the bins: from 10 µs to 100 s.
const (
	binsPerDecade = 10
	binDecades    = 7
	binFloor      = 10 * time.Microsecond
)

// LiveBins is the number of bins: one below the floor, ten a decade, and
// one from 100 s up.
const LiveBins = binsPerDecade*binDecades + 2

// binStep is a decade's edge i, over its first.
func binStep(i int) float64 {
	return [binsPerDecade]float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8}[i]
}

// LiveBinUpper is the exclusive upper edge of bin i (the last bin has
// none: it returns math.MaxInt64). Bin i holds the reads from
// LiveBinUpper(i-1) up to LiveBinUpper(i); bin 0 those under 10 µs.
func LiveBinUpper(i int) time.Duration {
	if i >= LiveBins-1 {
		return math.MaxInt64
	}
	decade, step := i/binsPerDecade, i%binsPerDecade
	return time.Duration(math.Round(float64(binFloor) * math.Pow10(decade) * binStep(step)))
}

// liveBins counts h's values in the live bins, each HDR bucket in the
// bin of its lowest value (a bucket is 0.1% wide, far narrower than a
// bin). It walks a copy of the counts (Export) by the HDR layout every
// implementation shares, which TestLiveBinsWalk checks against the
// library's own Distribution: that allocates a bar per bucket, ten times
// the cost, under the recorder's lock.
func liveBins(h *Histogram) (bins [LiveBins]int64) {
	if h.Count() == 0 {
		return bins
	}
	s := h.h.Export()
	halfMag := int(math.Ceil(math.Log2(2*math.Pow10(int(s.SignificantFigures))))) - 1
	unitMag := int(math.Floor(math.Log2(float64(s.LowestTrackableValue))))
	half := 1 << halfMag
	bin, upper := 0, int64(LiveBinUpper(0)/time.Microsecond)
	left := h.Count()
	for i, n := range s.Counts {
		if left <= 0 {
			break
		}
		if n == 0 {
			continue
		}
		left -= n
		bucket, sub := i>>halfMag-1, i&(half-1)+half
		if bucket < 0 {
			bucket, sub = 0, sub-half
		}
		v := int64(sub) << (bucket + unitMag) // the bucket's lowest value, in µs
		for v >= upper && bin < LiveBins-1 {  // values only grow: the bins are met in order
			bin++
			upper = int64(LiveBinUpper(bin) / time.Microsecond)
		}
		bins[bin] += n
	}
	return bins
}
