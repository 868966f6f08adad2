package ab

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The defaults of a Policy.
const (
	// DefaultMaxLagShare: the generator's lag may be at most a tenth of a
	// read latency percentile before that percentile is judged on service
	// time instead (Judged). Beyond it the figure measures readbench and
	// the machine as much as the server.
	DefaultMaxLagShare = 0.10
	// DefaultMinAchieved: a run that started fewer than 90% of the turns
	// asked did not keep its schedule (the generator saturated).
	DefaultMinAchieved = 0.90
	// DefaultRetries is how many more attempts an unusable round gets.
	DefaultRetries = 2
)

// Policy says when a run cannot count (Noisy: interrupted, nothing sent,
// the schedule not kept) and when its scheduling lag is a material share
// of a read latency percentile (LagShare over MaxLagShare), which makes a
// bound on that percentile judged on service time instead. Lag alone no
// longer excludes a round: on a busy runner every run lags, and a round
// excluded for jitter both sides share is a round the verdict never gets.
type Policy struct {
	// MaxLagShare is the largest share of a read latency percentile
	// (from the intended start) that the lag at the same percentile may
	// be before the percentile is judged on service time.
	MaxLagShare float64
	// MinAchieved is the smallest share of the asked turn rate a run
	// must achieve (open model).
	MinAchieved float64
}

// DefaultPolicy is the policy of ab's defaults.
func DefaultPolicy() Policy {
	return Policy{MaxLagShare: DefaultMaxLagShare, MinAchieved: DefaultMinAchieved}
}

// Noisy says why r cannot count as a measurement of its server, "" when
// it can: interrupted, nothing sent, or the schedule not kept because the
// generator fell behind (results.JudgeGenerator).
func (p Policy) Noisy(r *results.Result) string {
	t := &r.Totals
	switch {
	case r.Partial:
		return "interrupted"
	case t.Scheduled == 0 || r.Lag.Count == 0:
		return "the generator sent no read"
	case t.AskedRate > 0 && t.AchievedRate != nil && *t.AchievedRate < p.MinAchieved*t.AskedRate:
		// Turns not started are the generator's failing only when it fell
		// behind; turns the server's slowness dropped at max_in_flight are
		// a figure of the server (a slower new version must fail the gate,
		// not be excluded from it).
		if g := results.JudgeGenerator(r); g.Unscheduled || g.LagGrowing || g.LateDropped {
			return fmt.Sprintf("the generator started %s of the %s asked (saturated: %s)",
				numfmt.Rate(*t.AchievedRate, "turns"), numfmt.Rate(t.AskedRate, "turns"), strings.Join(g.Why, "; "))
		}
	}
	return ""
}

// LagShare is the scheduling lag at percentile stat ("p50", "p99") as a
// share of read latency at the same percentile; 0 when r has no reads.
func LagShare(r *results.Result, stat string) float64 {
	lag, read := r.Lag.StatMs(stat), r.Read.StatMs(stat)
	if read <= 0 {
		return 0
	}
	return lag / read
}
