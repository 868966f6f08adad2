package peertest

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The tracing peer checks readbench's W3C trace context with code no one
// here wrote: the official Go SDK's server, whose read handler extracts
// the trace context the way an OpenTelemetry-instrumented server does,
// with OpenTelemetry's own propagator, from both routes MCP carries it
// by: params._meta (SEP-414, every transport) and the HTTP headers.

// TraceSeen is what the tracing peer's handler saw of one read's trace
// context: the span context OpenTelemetry extracted from each route, not
// valid (trace.SpanContext.IsValid) when the route carried none, or one
// the propagator refused.
type TraceSeen struct {
	URI          string
	Header, Meta trace.SpanContext
}

// TraceRecorder keeps what the tracing peer saw, read by read; safe for
// concurrent use (the SDK handles reads concurrently).
type TraceRecorder struct {
	mu   sync.Mutex
	seen []TraceSeen
}

// Seen is a copy of the reads seen so far, in the order handled.
func (r *TraceRecorder) Seen() []TraceSeen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]TraceSeen(nil), r.seen...)
}

// observe extracts a read's trace context by each route.
func (r *TraceRecorder) observe(req *mcp.ReadResourceRequest) {
	prop := propagation.TraceContext{}
	meta := propagation.MapCarrier{}
	if req.Params != nil {
		for k, v := range req.Params.GetMeta() {
			if s, ok := v.(string); ok {
				meta[k] = s
			}
		}
	}
	seen := TraceSeen{Meta: trace.SpanContextFromContext(prop.Extract(context.Background(), meta))}
	if req.Params != nil {
		seen.URI = req.Params.URI
	}
	if req.Extra != nil && req.Extra.Header != nil {
		seen.Header = trace.SpanContextFromContext(prop.Extract(context.Background(), propagation.HeaderCarrier(req.Extra.Header)))
	}
	r.mu.Lock()
	r.seen = append(r.seen, seen)
	r.mu.Unlock()
}

// TracingSDKServer is SDKServer (Docs, each read taking delay) whose
// reads' trace context the returned recorder keeps. The SDK hands a
// handler the HTTP request's headers (RequestExtra.Header) over
// Streamable HTTP, none over stdio.
func TracingSDKServer(delay time.Duration) (*mcp.Server, *TraceRecorder) {
	rec := &TraceRecorder{}
	return sdkServer(delay, 0, rec.observe), rec
}

// StartTracingSDKHTTP serves TracingSDKServer over Streamable HTTP on
// 127.0.0.1 until the test ends, and returns its endpoint URL and the
// recorder.
func StartTracingSDKHTTP(t testing.TB, opts *mcp.StreamableHTTPOptions) (string, *TraceRecorder) {
	t.Helper()
	srv, rec := TracingSDKServer(2 * time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	return ServeLocal(t, h).URL + "/mcp", rec
}
