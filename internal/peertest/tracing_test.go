package peertest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// traceHeader adds a traceparent header to every request.
type traceHeader struct{ value string }

func (h traceHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("traceparent", h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// TestTracingSDKServerSeesBothRoutes: the SDK's own client, sending one
// traceparent in the header and another in _meta, and then an invalid
// one: the recorder has what OpenTelemetry's propagator extracted from
// each route, and nothing valid for the one it refuses.
func TestTracingSDKServerSeesBothRoutes(t *testing.T) {
	const (
		inHeader = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
		inMeta   = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
	)
	url, rec := StartTracingSDKHTTP(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "tracing-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: traceHeader{inHeader}}, DisableStandaloneSSE: true}
	cs, err := c.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	uri := Docs()[0].URI
	for _, tp := range []string{inMeta, "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri, Meta: mcp.Meta{"traceparent": tp, "tracestate": "k=v"}}); err != nil {
			t.Fatal(err)
		}
	}
	seen := rec.Seen()
	if len(seen) != 2 {
		t.Fatalf("seen %d reads", len(seen))
	}
	for i, s := range seen {
		if s.URI != uri || !s.Header.IsValid() || s.Header.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || s.Header.SpanID().String() != "b7ad6b7169203331" || !s.Header.IsSampled() {
			t.Errorf("read %d: header route %+v", i, s.Header)
		}
	}
	if m := seen[0].Meta; !m.IsValid() || m.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || m.SpanID().String() != "00f067aa0ba902b7" || m.IsSampled() || m.TraceState().String() != "k=v" {
		t.Errorf("_meta route %+v", m)
	}
	if seen[1].Meta.IsValid() {
		t.Errorf("an all-zero span id was taken: %+v", seen[1].Meta)
	}
}
