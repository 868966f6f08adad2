package results

import (
	"cmp"
	"fmt"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// SlowReads is what a class keeps of its reads by name: the slowest
// (stats.SlowestKept of them) and the slowest of those that broke a bound
// (stats.BrokeKept, BrokeSeen counting every one), each with the trace id
// it carried, to open in the server's tracing (docs/results.md,
// slow_reads). Nil in a result written before readbench kept them.
type SlowReads struct {
	Slowest   []SlowRead `json:"slowest"`
	Broke     []SlowRead `json:"broke_bound"`
	BrokeSeen int64      `json:"broke_bound_seen"`
}

// SlowRead is one read kept by name.
type SlowRead struct {
	// TraceID is the W3C trace id the read carried, in lowercase hex
	// ("" when its turn was not sampled: load.trace_sample).
	TraceID    string    `json:"trace_id"`
	URI        string    `json:"uri"`
	Intended   time.Time `json:"intended"` // its turn's intended start
	LatencyMs  float64   `json:"latency_ms"`
	Outcome    string    `json:"outcome"`
	LowerBound bool      `json:"lower_bound"` // cut: latency is when it was cut
}

// SlowerFirst orders slow reads as the result keeps them, slowest first,
// ties by intended start: the one order of every list of slow reads
// (the report's, compare's sides).
func SlowerFirst(a, b SlowRead) int {
	if c := cmp.Compare(b.LatencyMs, a.LatencyMs); c != 0 {
		return c
	}
	return a.Intended.Compare(b.Intended)
}

// slowReadsOf is the result form of a class's kept reads, slowest first;
// nil when it kept none (no read of the class was sent).
func slowReadsOf(k stats.SlowReads) *SlowReads {
	if len(k.Slowest) == 0 && k.BrokeSeen == 0 {
		return nil
	}
	k = k.Sorted()
	conv := func(in []stats.SlowRead) []SlowRead {
		out := make([]SlowRead, len(in))
		for i, r := range in {
			out[i] = SlowRead{URI: r.URI, Intended: r.Intended.UTC(), LatencyMs: stats.Millis(r.Latency),
				Outcome: r.Outcome.String(), LowerBound: r.LowerBound}
			if id := protocol.TraceID(r.Trace); !id.IsZero() {
				out[i].TraceID = id.String()
			}
		}
		return out
	}
	return &SlowReads{Slowest: conv(k.Slowest), Broke: conv(k.Broke), BrokeSeen: k.BrokeSeen}
}

// statsOf is k read back (a result merged or compared), nil as none.
func (k *SlowReads) statsOf() (stats.SlowReads, error) {
	var out stats.SlowReads
	if k == nil {
		return out, nil
	}
	conv := func(in []SlowRead, broke bool) ([]stats.SlowRead, error) {
		rs := make([]stats.SlowRead, len(in))
		for i, r := range in {
			o, ok := stats.ParseOutcome(r.Outcome)
			if !ok {
				return nil, fmt.Errorf("slow read %d: outcome %q is not one readbench records", i, r.Outcome)
			}
			rs[i] = stats.SlowRead{URI: r.URI, Intended: r.Intended, Latency: msDuration(r.LatencyMs),
				Outcome: o, LowerBound: r.LowerBound, Broke: broke}
			if r.TraceID != "" {
				id, err := protocol.ParseTraceID(r.TraceID)
				if err != nil {
					return nil, fmt.Errorf("slow read %d: %w", i, err)
				}
				rs[i].Trace = id
			}
		}
		return rs, nil
	}
	var err error
	if out.Slowest, err = conv(k.Slowest, false); err != nil {
		return out, err
	}
	if out.Broke, err = conv(k.Broke, true); err != nil {
		return out, err
	}
	out.BrokeSeen = k.BrokeSeen
	return out, nil
}
