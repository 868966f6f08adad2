package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// TestAppendReadRequestTrace: a traced read's _meta holds its traceparent
// (and the workload's tracestate) beside the session's own members, in
// both eras; the rest of the request is what it is without.
func TestAppendReadRequestTrace(t *testing.T) {
	tp := protocol.TraceParent{Trace: protocol.NewTraceID(), Span: protocol.NewSpanID(), Sampled: true}
	for _, c := range []struct {
		name    string
		modern  bool
		version string
		state   map[string]string
	}{
		{"2026-07-28", true, protocol.V20260728, nil},
		{"2026-07-28 with tracestate", true, protocol.V20260728, map[string]string{"tracestate": `rojo=00f067aa0ba902b7,q="\x`}},
		{"legacy", false, protocol.V20250618, nil},
		{"legacy with tracestate", false, protocol.V20250618, map[string]string{"TraceState": "congo=t61rcWkgMzE"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Session{modern: c.modern, version: c.version, client: Implementation{Name: "rb", Version: "1"}, traceState: traceStateOf(c.state)}
			var got struct {
				Params struct {
					Meta map[string]any `json:"_meta"`
					URI  string         `json:"uri"`
				} `json:"params"`
			}
			body := s.appendReadRequest(nil, 7, "sim:///a b", tp)
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			want := map[string]any{protocol.MetaTraceParent: tp.String()}
			for _, v := range c.state {
				want[protocol.MetaTraceState] = v
			}
			if c.modern {
				var session struct {
					Params struct {
						Meta map[string]any `json:"_meta"`
					} `json:"params"`
				}
				if err := json.Unmarshal(s.appendReadRequest(nil, 7, "x", protocol.TraceParent{}), &session); err != nil {
					t.Fatal(err)
				}
				for k, v := range session.Params.Meta {
					want[k] = v
				}
			}
			if got.Params.URI != "sim:///a b" || !reflect.DeepEqual(got.Params.Meta, want) {
				t.Errorf("%s\n_meta %v, want %v", body, got.Params.Meta, want)
			}
		})
	}
}

// TestTraceContextOnTheWire: over Streamable HTTP a traced read carries
// the same traceparent in its header and its _meta, on h1's light POST
// and on net/http's (a redirect); an untraced read carries neither.
func TestTraceContextOnTheWire(t *testing.T) {
	const uri = "sim:///a.md"
	type seen struct {
		header, meta string
		session      bool // _meta also held the session's members (protocol version)
	}
	got := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return
		}
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var m struct {
			ID     int64 `json:"id"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		_ = json.Unmarshal(b, &m)
		meta, _ := m.Params.Meta[protocol.MetaTraceParent].(string)
		_, session := m.Params.Meta[protocol.MetaProtocolVersion]
		got <- seen{r.Header.Get(protocol.HeaderTraceParent), meta, session}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":%q,"mimeType":"text/markdown","text":"hi"}]}}`, m.ID, uri)
	}))
	defer srv.Close()
	for _, c := range []struct {
		name, path string
		traced     bool
		tool       bool // a part of a read in parts (the read tool)
	}{
		{"light POST", "/mcp", true, false},
		{"redirected", "/old", true, false},
		{"untraced", "/mcp", false, false},
		{"read tool", "/mcp", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newHTTPTransport(srv.URL+c.path, nil, 0)
			tr.setEra(protocol.V20260728, true)
			s := &Session{t: tr, modern: true, version: protocol.V20260728, client: Implementation{Name: "rb", Version: "1"}}
			defer s.Close()
			var tp protocol.TraceParent
			if c.traced {
				tp = protocol.TraceParent{Trace: protocol.NewTraceID(), Span: protocol.NewSpanID(), Sampled: true}
			}
			if c.tool { // the answer is no tool's: only what was sent matters
				off, n := int64(0), int64(10)
				_, _, _ = s.readTool(context.Background(), uri, &off, &n, tp)
			} else if _, err := s.ReadDocument(context.Background(), uri, ReadSpec{Trace: tp}); err != nil {
				t.Fatal(err)
			}
			want := seen{session: true}
			if c.traced {
				want = seen{tp.String(), tp.String(), true}
			}
			if r := <-got; r != want {
				t.Errorf("header %q, _meta %q (session's members: %v); want %q by both, beside the session's", r.header, r.meta, r.session, want.header)
			}
		})
	}
}

// TestTraceContextOverSSE: over HTTP+SSE a traced read's POST carries its
// traceparent header; other POSTs carry none.
func TestTraceContextOverSSE(t *testing.T) {
	f := newFakeSSE(t, func(msg []byte, send func(string)) {
		var m struct {
			ID int64 `json:"id"`
		}
		if json.Unmarshal(msg, &m) == nil && m.ID != 0 {
			send(fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{}}\n\n", m.ID))
		}
	})
	tr := f.start(t, nil)
	tp := protocol.TraceParent{Trace: protocol.NewTraceID(), Span: protocol.NewSpanID(), Sampled: true}
	traced := testRequest(1, protocol.MethodResourcesRead)
	traced.trace = tp
	for _, c := range []struct {
		req  Request
		want string
	}{{traced, tp.String()}, {testRequest(2, protocol.MethodResourcesRead), ""}} {
		if _, err := tr.call(context.Background(), c.req); err != nil {
			t.Fatal(err)
		}
		if got := <-f.traced; got != c.want {
			t.Errorf("request %d: traceparent %q, want %q", c.req.ID, got, c.want)
		}
	}
}
