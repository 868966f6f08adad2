package client

import (
	"net/http"
	"os"

	"github.com/readbench/readbench/protocol"
)

// W3C trace context on a read (docs/measurement.md, trace context): a
// read whose ReadSpec.Trace is set carries that traceparent in its
// params._meta (SEP-414; every transport) and, over HTTP, in the
// traceparent header too, the same value by both routes: an
// instrumented server reads _meta, a proxy or gateway in front of it the
// header, and a server behind one would orphan its spans if only _meta
// carried it. The workload's tracestate header, when it sets one, goes
// into _meta beside it (the header goes as every workload header does).
// Both are written straight into the request's bytes and header lines:
// no map, no allocation on the light path.

// traceStateOf is the JSON string of the workload's tracestate header,
// encoded once per session (nil: none).
func traceStateOf(headers map[string]string) []byte {
	for k, v := range headers {
		if http.CanonicalHeaderKey(k) == protocol.HeaderTraceState {
			return protocol.AppendString(nil, os.Expand(v, os.Getenv), protocol.LikeEncodingJSON)
		}
	}
	return nil
}

// appendTraceMeta appends the members of _meta that carry the read's
// trace context, each followed by a comma: the caller goes on with the
// rest of the object.
func (s *Session) appendTraceMeta(dst []byte, tp protocol.TraceParent) []byte {
	dst = append(dst, `"`+protocol.MetaTraceParent+`":"`...)
	dst = tp.Append(dst)
	dst = append(dst, `",`...)
	if s.traceState != nil {
		dst = append(dst, `"`+protocol.MetaTraceState+`":`...)
		dst = append(dst, s.traceState...)
		dst = append(dst, ',')
	}
	return dst
}

// appendTraceLine appends the traceparent header line of a light POST.
func appendTraceLine(lines []byte, tp protocol.TraceParent) []byte {
	lines = append(lines, protocol.HeaderTraceParent+": "...)
	lines = tp.Append(lines)
	return append(lines, "\r\n"...)
}

// setTraceHeader sets the traceparent header of a read's http.Request.
func setTraceHeader(h http.Header, tp protocol.TraceParent) {
	if !tp.IsZero() {
		h[protocol.HeaderTraceParent] = []string{tp.String()}
	}
}

// traceMeta is the _meta members of trace context tp, for a request
// encoded from maps (a read tool call): withMeta adds the session's.
func (s *Session) traceMeta(tp protocol.TraceParent) map[string]any {
	m := map[string]any{protocol.MetaTraceParent: tp.String()}
	if s.traceState != nil {
		state, _ := protocol.Unquote(s.traceState)
		m[protocol.MetaTraceState] = state
	}
	return m
}
