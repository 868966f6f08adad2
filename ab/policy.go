package ab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The defaults of a Policy.
const (
	// DefaultMaxLagShare: the generator's lag may be at most a tenth of a
	// figure the gate holds. Beyond it the figure measures readbench and
	// the machine as much as the server.
	DefaultMaxLagShare = 0.10
	// DefaultMinAchieved: a run that started fewer than 90% of the turns
	// asked did not keep its schedule (the generator saturated).
	DefaultMinAchieved = 0.90
	// DefaultRetries is how many more attempts a noisy round gets.
	DefaultRetries = 2
)

// Policy says when a run is too noisy to count: the generator
// saturated, or its scheduling lag is a material share of a figure the
// comparison is judged on. Latency from the intended start includes the
// lag; service time does not, so a gate on service time needs only the
// saturation check.
type Policy struct {
	// MaxLagShare is the largest share of a read latency percentile
	// (from the intended start) that the lag at the same percentile may
	// be.
	MaxLagShare float64
	// Stats are the percentiles checked ("p50", "p99"...): those of the
	// intended-start figures the gate holds, and p50 always.
	Stats []string
	// MinAchieved is the smallest share of the asked turn rate a run
	// must achieve (open model).
	MinAchieved float64
}

// DefaultPolicy is the policy for a gate of these bounds: the lag checked
// at p50 and at each percentile of a latency from the intended start
// (read, read_ok, turn, per class or turn size) a bound holds.
func DefaultPolicy(bs []bounds.Bound) Policy {
	p := Policy{MaxLagShare: DefaultMaxLagShare, MinAchieved: DefaultMinAchieved, Stats: []string{"p50"}}
	for _, b := range bs {
		block, stat, ok := strings.Cut(b.Metric.Key, ".")
		if !ok || !slices.Contains([]string{"read", "read_ok", "turn"}, block) || stat == "mean" {
			continue
		}
		if !slices.Contains(p.Stats, stat) {
			p.Stats = append(p.Stats, stat)
		}
	}
	return p
}

// Noisy says why r cannot count as a measurement of its server, "" when
// it can: interrupted, nothing sent, the schedule not kept, or the lag a
// material share of a checked percentile of read latency.
func (p Policy) Noisy(r *results.Result) string {
	t := &r.Totals
	switch {
	case r.Partial:
		return "interrupted"
	case t.Scheduled == 0 || r.Lag.Count == 0:
		return "the generator sent no read"
	case t.AskedRate > 0 && t.AchievedRate != nil && *t.AchievedRate < p.MinAchieved*t.AskedRate:
		return fmt.Sprintf("the generator started %s of the %s asked (saturated)",
			numfmt.Rate(*t.AchievedRate, "turns"), numfmt.Rate(t.AskedRate, "turns"))
	}
	for _, s := range p.Stats {
		lag, read := r.Lag.StatMs(s), r.Read.StatMs(s)
		if read > 0 && lag > p.MaxLagShare*read {
			return fmt.Sprintf("scheduling lag %s %s is %.0f%% of read %s %s (over %.0f%%)",
				s, numfmt.Ms(lag), 100*lag/read, s, numfmt.Ms(read), 100*p.MaxLagShare)
		}
	}
	return ""
}
