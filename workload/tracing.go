package workload

import (
	"strings"

	"github.com/readbench/readbench/protocol"
)

// TraceShare is the share of turns traced: TraceSample, 1 when unset.
func (l Load) TraceShare() float64 {
	if l.TraceSample == nil {
		return 1
	}
	return *l.TraceSample
}

// checkTraceHeader checks a workload header against the trace context
// readbench sends (docs/measurement.md, trace context): a traceparent of
// the user's would go beside readbench's own, so it is refused while
// reads are traced; a tracestate goes into every traced read's _meta, so
// it must be one (unless it expands from the environment: checked where
// its value is known, not here).
func (w *Workload) checkTraceHeader(key, name, value string) *Error {
	switch strings.ToLower(name) {
	case protocol.MetaTraceParent:
		if w.Load.TraceShare() > 0 {
			return errorf(key, "readbench sets traceparent on every read it traces; drop the header, or set load.trace_sample: 0 to send your own")
		}
	case protocol.MetaTraceState:
		if !strings.Contains(value, "${") {
			if err := protocol.CheckTraceState(value); err != nil {
				return errorf(key, "%v", err)
			}
		}
	}
	return nil
}
