package live

import (
	"strings"
	"time"
)

// sparkLevels are the eight heights of a sparkline, lowest first.
var sparkLevels = []rune("▁▂▃▄▅▆▇█")

// sparkline draws vs in at most width cells: one cell per value, or,
// when there are more values than cells, one cell per group of adjacent
// values holding the group's largest (a tail must never be averaged
// away). Heights are scaled from the smallest to the largest value drawn;
// when all are equal every cell is the lowest level. A zero value (a
// second with no reads) is a blank cell and left out of the scale.
func sparkline(vs []time.Duration, width int) string {
	if width <= 0 || len(vs) == 0 {
		return ""
	}
	vs = squeeze(vs, width)
	lo, hi := time.Duration(-1), time.Duration(0)
	for _, v := range vs {
		if v <= 0 {
			continue
		}
		if lo < 0 || v < lo {
			lo = v
		}
		hi = max(hi, v)
	}
	var b strings.Builder
	for _, v := range vs {
		b.WriteRune(sparkCell(v, lo, hi))
	}
	return b.String()
}

// sparkCell is the cell of v on a scale from lo to hi.
func sparkCell(v, lo, hi time.Duration) rune {
	if v <= 0 {
		return ' '
	}
	if hi <= lo {
		return sparkLevels[0]
	}
	top := len(sparkLevels) - 1
	i := int(float64(v-lo)/float64(hi-lo)*float64(top) + 0.5)
	return sparkLevels[min(max(i, 0), top)]
}

// squeeze returns vs in at most width values: the groups of adjacent
// values, as even as integer division allows, each as its maximum.
func squeeze(vs []time.Duration, width int) []time.Duration {
	if len(vs) <= width {
		return vs
	}
	out := make([]time.Duration, width)
	for i := range out {
		from, to := i*len(vs)/width, (i+1)*len(vs)/width
		for _, v := range vs[from:to] {
			out[i] = max(out[i], v)
		}
	}
	return out
}
