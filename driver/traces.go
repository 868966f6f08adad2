package driver

import (
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/workload"
)

// Trace context (docs/measurement.md, trace context): a turn is the
// user's message, so it is one trace, and each of its reads a span of it
// with a span id of its own: a tracing backend shows a turn's reads side
// by side under one trace id, the way the host that sent them would. A
// share load.trace_sample of turns is traced (drawn per turn, so a turn
// is traced whole or not at all), with the sampled flag set: readbench's
// reads are the ones a server team wants recorded.

// tracing is what a run knows of trace context and of the bounds a read
// can break (stats.ReadSample.Broke).
type tracing struct {
	share float64
	// slowAt is, per class, the latency past which a read broke the run's
	// latency bound: the smallest limit of the thresholds on read latency
	// that hold the class (read.*, read_ok.* and class.NAME.read.*; 0:
	// none). One read slower than a p99 bound is one of those that break
	// it: the reads to open first when the gate fails.
	slowAt []time.Duration
}

// newTracing reads w's trace share and its read latency bounds.
func newTracing(w *workload.Workload) tracing {
	t := tracing{share: w.Load.TraceShare(), slowAt: make([]time.Duration, len(w.Mix))}
	for _, th := range w.Bounds() {
		limit, ok := readBound(th)
		if !ok {
			continue
		}
		for i, c := range w.Mix {
			if th.Metric.Class != "" && th.Metric.Class != c.Name {
				continue
			}
			if t.slowAt[i] == 0 || limit < t.slowAt[i] {
				t.slowAt[i] = limit
			}
		}
	}
	return t
}

// readBound is the latency limit of th when it bounds read latency from
// above.
func readBound(th bounds.Threshold) (time.Duration, bool) {
	m := th.Metric
	if m.Unit != bounds.Millis || (th.Op != bounds.Less && th.Op != bounds.LessEq) || th.Limit <= 0 || math.IsInf(th.Limit, 0) {
		return 0, false
	}
	block, stat, _ := strings.Cut(m.Key, ".")
	if block != "read" && block != "read_ok" || stat == "mean" {
		return 0, false
	}
	return time.Duration(th.Limit * float64(time.Millisecond)), true
}

// turnTrace is the trace id of a turn: a fresh one when it is sampled,
// zero when not.
func (t tracing) turnTrace() protocol.TraceID {
	if t.share <= 0 || t.share < 1 && rand.Float64() >= t.share {
		return protocol.TraceID{}
	}
	return protocol.NewTraceID()
}

// readTrace is the trace context of one read of a turn traced as id: a
// span of its own.
func readTrace(id protocol.TraceID) protocol.TraceParent {
	if id.IsZero() {
		return protocol.TraceParent{}
	}
	return protocol.TraceParent{Trace: id, Span: protocol.NewSpanID(), Sampled: true}
}

// broke reports whether a read of class broke a bound: cut by its
// timeout or its turn's deadline, or slower than the class's bound.
func (t tracing) broke(class int, lowerBound bool, latency time.Duration) bool {
	return lowerBound || class < len(t.slowAt) && t.slowAt[class] > 0 && latency > t.slowAt[class]
}
