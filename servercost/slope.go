package servercost

import (
	"fmt"
	"github.com/readbench/readbench/internal/numfmt"
	"math"
	"time"
)

// A memory slope is fitted only over a run long enough to hold one: at
// least MinSlopeSpan between the first and the last sample, and at least
// MinSlopeSamples samples. A 5 s run's RSS moves by the allocator's step
// (a few MiB as a heap grows once), and scaled to a minute that reads
// "+1,270 MiB/min", a leak alarm from a server that only warmed up. Over
// a minute of samples a one-off step tilts the fit by its size per minute
// at most, and the standard error says how far the line can be trusted.
const (
	MinSlopeSpan    = time.Minute
	MinSlopeSamples = 20
)

// Slope is the least-squares slope of resident memory over time, with its
// standard error, or the reason there is none.
type Slope struct {
	// OK is false when the run was too short (see MinSlopeSpan) or the
	// samples too few: MiBPerMin and StdErr are then 0 and Why says why.
	OK        bool
	MiBPerMin float64
	// StdErr is the slope's standard error, MiB per minute, from the
	// residuals about the line (n−2 degrees of freedom). Samples a
	// quarter-second apart are not independent, so it is a lower bound
	// on the uncertainty: a slope within two of them of zero is flat.
	StdErr float64
	Why    string
}

// FitSlope fits the memory slope of ss, under the rule of MinSlopeSpan
// and MinSlopeSamples.
func FitSlope(ss []Sample) Slope {
	if len(ss) < MinSlopeSamples {
		return Slope{Why: fmt.Sprintf("%d samples, a slope needs %d", len(ss), MinSlopeSamples)}
	}
	if span := ss[len(ss)-1].At.Sub(ss[0].At); span < MinSlopeSpan {
		return Slope{Why: fmt.Sprintf("sampled for %s, a slope needs %s", numfmt.Duration(span), numfmt.Duration(MinSlopeSpan))}
	}
	t0 := ss[0].At
	n := float64(len(ss))
	var mx, my float64
	for _, s := range ss {
		mx += s.At.Sub(t0).Minutes()
		my += float64(s.RSS) / (1 << 20)
	}
	mx, my = mx/n, my/n
	var sxx, sxy float64
	for _, s := range ss {
		dx, dy := s.At.Sub(t0).Minutes()-mx, float64(s.RSS)/(1<<20)-my
		sxx += dx * dx
		sxy += dx * dy
	}
	if sxx <= 0 {
		return Slope{Why: "every sample at the same instant"}
	}
	b := sxy / sxx
	var ssr float64
	for _, s := range ss {
		r := float64(s.RSS)/(1<<20) - my - b*(s.At.Sub(t0).Minutes()-mx)
		ssr += r * r
	}
	return Slope{OK: true, MiBPerMin: b, StdErr: math.Sqrt(ssr / (n - 2) / sxx)}
}
