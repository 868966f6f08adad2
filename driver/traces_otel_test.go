package driver

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/workload/yamlfile"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// otelServer is the official Go SDK's server whose read handler is
// instrumented as an OpenTelemetry server is: the trace context taken
// from params._meta (else the HTTP headers) by OpenTelemetry's
// propagator, a server span started under it by the OpenTelemetry SDK
// (its default sampler, parent-based: a sampled parent is recorded, an
// unsampled one is not), ended when the read is answered, and kept by
// the SDK's span recorder. Every fifth read takes 30 ms, the others 1 ms,
// so that the slowest reads are a few among many.
func otelServer(t *testing.T) (string, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	tracer := tp.Tracer("readbench-test-server")
	prop := propagation.TraceContext{}
	var n atomic.Int64
	s := mcp.NewServer(&mcp.Implementation{Name: peertest.Name, Version: peertest.Version}, nil)
	for i, d := range peertest.Docs() {
		content := peertest.Content(i)
		s.AddResource(&mcp.Resource{URI: d.URI, MIMEType: d.MIME, Name: d.URI}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			meta := propagation.MapCarrier{}
			for k, v := range req.Params.GetMeta() {
				if s, ok := v.(string); ok {
					meta[k] = s
				}
			}
			parent := prop.Extract(context.Background(), meta)
			if !trace.SpanContextFromContext(parent).IsValid() && req.Extra != nil {
				parent = prop.Extract(context.Background(), propagation.HeaderCarrier(req.Extra.Header))
			}
			_, span := tracer.Start(parent, "resources/read", trace.WithSpanKind(trace.SpanKindServer))
			defer span.End()
			delay := time.Millisecond
			if n.Add(1)%5 == 0 {
				delay = 30 * time.Millisecond
			}
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return peertest.ReadResult(d, content), nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	return peertest.ServeLocal(t, h).URL + "/mcp", rec
}

// TestSlowReadsAreParentsOfServerSpans (issue 47, item 13): against a
// server traced with the OpenTelemetry SDK, half the turns sampled, every
// slow read the result names with a trace is the parent of a span the
// server recorded (same trace id, its span id the parent span id), the
// two reads of one turn are parents of two different server spans of one
// trace, and no read names a trace the server did not record: the ids in
// a slow-read list are the ones to search a backend for.
func TestSlowReadsAreParentsOfServerSpans(t *testing.T) {
	for _, proto := range []string{"auto", "2025-11-25"} {
		t.Run(proto, func(t *testing.T) {
			url, rec := otelServer(t)
			w, err := yamlfile.Parse("otel.yaml", []byte(fmt.Sprintf(`
target: %q
protocol: %q
load: {rate: 40/s, turns: 40, trace_sample: 0.5}
turn: {attachments: 2, read_timeout: 10s}
mix:
  - {class: docs, uri: %q}
`, url, proto, peertest.Docs()[0].URI)))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			m, err := measure(ctx, Options{Workload: w})
			if err != nil {
				t.Fatal(err)
			}
			type ids struct{ trace, span string }
			children := map[ids]int{}
			perTrace := map[string]map[string]bool{}
			unsampled := 0
			for _, s := range rec.Ended() {
				p := s.Parent()
				if !p.IsValid() {
					unsampled++ // a read of a turn not traced: a root span of the server's own
					continue
				}
				if !p.IsRemote() || !p.IsSampled() || !s.SpanContext().IsSampled() {
					t.Errorf("server span %s: parent %v remote %v sampled %v, recorded sampled %v", s.SpanContext().SpanID(), p.SpanID(), p.IsRemote(), p.IsSampled(), s.SpanContext().IsSampled())
				}
				k := ids{p.TraceID().String(), p.SpanID().String()}
				children[k]++
				if perTrace[k.trace] == nil {
					perTrace[k.trace] = map[string]bool{}
				}
				perTrace[k.trace][k.span] = true
			}
			if len(children) == 0 || unsampled == 0 {
				t.Fatalf("%d reads traced, %d not: trace_sample 0.5 of 40 turns should give both", len(children), unsampled)
			}
			for k, n := range children {
				if n != 1 {
					t.Errorf("span %s of trace %s is the parent of %d server spans: each read carries its own", k.span, k.trace, n)
				}
			}
			for tr, spans := range perTrace {
				if len(spans) != 2 {
					t.Errorf("trace %s has %d reads' spans, want the turn's 2 attachments", tr, len(spans))
				}
			}
			slow := m.MeasuredPhase.Classes[0].Slow
			named := 0
			for _, r := range append(slow.Slowest, slow.Broke...) {
				if r.TraceID == "" {
					if r.SpanID != "" {
						t.Errorf("a read with no trace names span %s", r.SpanID)
					}
					continue
				}
				named++
				if children[ids{r.TraceID, r.SpanID}] != 1 {
					t.Errorf("slow read (%v, %s) names trace %s span %s: no server span has that parent", r.Latency, r.Outcome, r.TraceID, r.SpanID)
				}
			}
			if named == 0 {
				t.Errorf("slowest %+v: none names a trace, with half the turns traced", slow.Slowest)
			}
		})
	}
}
