package capacity

import (
	"fmt"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// headroomShare is the share of the SLO's latency headroom one second's
// worst scheduling lag may take before that second no longer counts as
// the generator keeping its schedule. Half the bound: a second that late
// has bunched half a bound's worth of turns, which then queue at the
// server, so the reads of that second can break the bound on the lag and
// the queue it made alone.
const headroomShare = 0.5

// Unsteady: the step failed, some measured second's worst scheduling lag
// (the timeline's lag_max_ms) took more than half the SLO's headroom (see
// headroom), and the other measured seconds, taken together, meet the
// broken bounds. A breach that also shows in the seconds the generator
// kept its schedule is the server's (at a real knee the queue, and the
// latency, grow in every second), so the step is charged to it.
//
// The seconds' figures are of every read that finished in them, of all
// classes: a latency bound is held to the statistic of the seconds'
// merged histograms, an error bound to their share of errors; any other
// bound shows in every second, so a step breaking one is the server's
// whenever some second kept the schedule.
func (ts slo) Unsteady(r *results.Result) string {
	allow := headroomShare * ts.headroom(r)
	var spiked, kept []results.Second
	worst := results.Second{}
	for _, s := range r.Timeline {
		switch {
		case s.Warmup:
			continue
		case s.LagMaxMs > allow:
			spiked = append(spiked, s)
			if s.LagMaxMs > worst.LagMaxMs {
				worst = s
			}
		default:
			kept = append(kept, s)
		}
	}
	if len(spiked) == 0 {
		return ""
	}
	var broken []bounds.Threshold
	for _, t := range ts {
		if v, err := results.Evaluate(t, r); err == nil && !v.Pass {
			broken = append(broken, t)
		}
	}
	if len(broken) == 0 {
		return ""
	}
	if breaches(broken, kept) {
		return ""
	}
	return fmt.Sprintf("%d of %d measured seconds had scheduling lag over %s ms (half the SLO's %s ms headroom; worst %s ms at %d s), and the breach shows only in those seconds",
		len(spiked), len(spiked)+len(kept), numfmt.Sig3(allow), numfmt.Sig3(allow/headroomShare), numfmt.Sig3(worst.LagMaxMs), worst.T)
}

// headroom is the latency, ms, the SLO leaves a read: its tightest upper
// latency bound, or with none (an SLO of errors or rates) the turn's
// deadline (else its read timeout), past which late starts cost reads.
func (ts slo) headroom(r *results.Result) float64 {
	var tight float64
	for _, t := range ts {
		if upperLatency(t) && (tight == 0 || t.Limit < tight) {
			tight = t.Limit
		}
	}
	if tight > 0 {
		return tight
	}
	return turnLimitMs(r)
}

// turnLimitMs is the time, ms, a turn's reads have (workload.Turn.Limit:
// the turn's deadline, else its read timeout; 0 when the result names
// neither).
func turnLimitMs(r *results.Result) float64 {
	return float64(r.Workload.Turn.Limit()) / float64(time.Millisecond)
}

// latencyBlocks are the blocks whose figures a server's queue raises (the
// lag is the generator's own).
var latencyBlocks = []string{"read", "read_ok", "turn", "service", "ttfb"}

// upperLatency: t bounds a latency block's statistic from above
// (read.p99<50ms, class.doc.turn.max<=1s).
func upperLatency(t bounds.Threshold) bool {
	if t.Op != bounds.Less && t.Op != bounds.LessEq || t.Metric.Unit != bounds.Millis {
		return false
	}
	parts := strings.Split(t.Metric.Name, ".")
	if len(parts) < 2 {
		return false
	}
	if parts[0] == "turn_size" {
		return true
	}
	for _, b := range latencyBlocks {
		if parts[len(parts)-2] == b {
			return true
		}
	}
	return false
}

// breaches: the seconds' reads, together, break one of the broken bounds.
// Without the seconds' histograms (a result that lacks them) a latency
// bound is held to each second's own p50 (for a p50 or mean bound) or p99.
func breaches(broken []bounds.Threshold, secs []results.Second) bool {
	if len(secs) == 0 {
		return false
	}
	h := merged(secs)
	var reads, errs int64
	for _, s := range secs {
		reads, errs = reads+s.Reads, errs+s.Errors
	}
	for _, t := range broken {
		switch {
		case upperLatency(t):
			stat := t.Metric.Name[strings.LastIndex(t.Metric.Name, ".")+1:]
			if h != nil {
				if !t.Op.Holds(ms(statOf(h, stat)), t.Limit) {
					return true
				}
				continue
			}
			for _, s := range secs {
				v := s.P99Ms
				if stat == "p50" || stat == "mean" {
					v = s.P50Ms
				}
				if !t.Op.Holds(v, t.Limit) {
					return true
				}
			}
		case t.Metric.Name == "errors":
			if reads > 0 && !t.Op.Holds(100*float64(errs)/float64(reads), t.Limit) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// merged is the histogram of the seconds' reads; nil when a second with
// reads has none, or one does not decode.
func merged(secs []results.Second) *stats.Histogram {
	h := stats.NewHistogram()
	for _, s := range secs {
		if s.HDR == "" {
			if s.Reads > 0 {
				return nil
			}
			continue
		}
		d, err := stats.DecodeHistogram(s.HDR)
		if err != nil {
			return nil
		}
		h.Merge(d)
	}
	return h
}

// statOf is the latency stat a bound names (one of stats.LatencyStats) of
// a histogram; a name no stat has, which bounds never parses, reads the p99.
func statOf(h *stats.Histogram, stat string) time.Duration {
	if s, ok := stats.LatencyStat(stat); ok {
		return s.Of(h)
	}
	return h.Quantile(99)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// lagMax is the largest scheduling lag of any measured second, ms.
func lagMax(r *results.Result) float64 {
	var m float64
	for _, s := range r.Timeline {
		if !s.Warmup {
			m = max(m, s.LagMaxMs)
		}
	}
	return m
}
