package live

import (
	"math"
	"strings"
	"time"

	"github.com/readbench/readbench/stats"
)

// sparkLevels are the eight heights of a sparkline, lowest first.
var sparkLevels = []rune("▁▂▃▄▅▆▇█")

// warmCell is a warmup second's cell: drawn apart, never on the scale.
const warmCell = '░'

// sparkline draws vs in at most width cells: one cell per value, or,
// when there are more values than cells, one cell per group of adjacent
// values holding the group's largest (a tail must never be averaged
// away). Heights are on a scale from zero to top, the ceiling the caller
// keeps (one that only grows, so a cell drawn once never changes height
// because a later second was faster); a value at or over top is the
// highest level. A zero value (a second with no reads) is a blank cell,
// a warmup second a warmCell.
func sparkline(vs []spot, width int, top time.Duration) string {
	if width <= 0 || len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	for _, v := range squeeze(vs, width) {
		b.WriteRune(sparkCell(v, top))
	}
	return b.String()
}

// sparkCell is the cell of v on a scale from zero to top: the level
// whose eighth of the scale v reaches into.
func sparkCell(v spot, top time.Duration) rune {
	switch {
	case v.warm:
		return warmCell
	case v.p99 <= 0:
		return ' '
	case top <= 0 || v.p99 >= top:
		return sparkLevels[len(sparkLevels)-1]
	}
	i := int(math.Ceil(float64(v.p99)/float64(top)*float64(len(sparkLevels)))) - 1
	return sparkLevels[min(max(i, 0), len(sparkLevels)-1)]
}

// squeeze returns vs in at most width values: the groups of adjacent
// values, as even as integer division allows, each as its largest
// measured value (a group of warmup seconds only is a warmup cell).
func squeeze(vs []spot, width int) []spot {
	if len(vs) <= width {
		return vs
	}
	out := make([]spot, width)
	for i := range out {
		from, to := i*len(vs)/width, (i+1)*len(vs)/width
		out[i].warm = true
		for _, v := range vs[from:to] {
			if !v.warm {
				out[i].warm = false
				out[i].p99 = max(out[i].p99, v.p99)
			}
		}
	}
	return out
}

// niceCeil is the smallest readable edge (10, 12, 15, 20, 25, 30, 40, 50,
// 60, 80 of each decade: the live histogram's edges) at or above d: a
// scale's ceiling that moves in steps a reader notices and reads.
func niceCeil(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	for i := range stats.LiveBins - 1 {
		if up := stats.LiveBinUpper(i); up >= d {
			return up
		}
	}
	return d
}

// niceCeilRate is niceCeil for a rate per second (at least 10/s).
func niceCeilRate(v float64) float64 {
	if v <= 10 {
		return 10
	}
	return float64(niceCeil(time.Duration(v*float64(time.Microsecond)))) / float64(time.Microsecond)
}
