package driver

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/workload/yamlfile"
)

// lifeListen is a listen section of two listeners of listenURIs, with
// changes made by the touch tool at 40/s: a gap of a re-listen's backoff
// (100 ms) holds a few of them.
const lifeListen = `
listen: {listeners: 2, uris: [%s], reread: {on: false}}
changes: {rate: %s, via: {tool: touch, args: {uri: "{uri}"}}}
`

// TestListenStreamLife: streams the simulated server drops are counted
// and come back — a 2026-07-28 listen stream is listened again (a
// reconnect, asked and acknowledged again, the gap's changes lost apart
// from missed), a legacy session's standalone GET stream is reopened —
// each acknowledged stream's lifetime is recorded, an idle stream's
// keep-alives are counted, and with nothing dropped nothing reconnects
// and nothing is lost. Over stdio the simulated server drops nothing (a
// stdio listen ends only with its process): that case is the control.
func TestListenStreamLife(t *testing.T) {
	exe := peertest.Command(t, simStdio)[0]
	drop := 400 * time.Millisecond
	for _, c := range []struct {
		name, proto, rate string
		o                 simserver.Options
		stdio             bool
		check             func(t *testing.T, s *results.Subscriptions)
	}{
		{name: "http 2026 dropped", proto: "auto", rate: "40/s", o: simserver.Options{DropStreamsAfter: drop, KeepAlive: -1},
			check: func(t *testing.T, s *results.Subscriptions) {
				st := s.Streams
				if s.Mode != "listen" || st.Reconnects == 0 || st.Ended.Dropped == 0 || st.Asked != 2+st.Reconnects || s.Notifications.LostInGaps == 0 {
					t.Errorf("mode %s streams %+v notifications %+v", s.Mode, st.StreamCounts, s.Notifications)
				}
			}},
		{name: "stateful http legacy dropped", proto: protocol.V20251125, rate: "40/s", o: simserver.Options{Stateful: true, DropStreamsAfter: drop, KeepAlive: -1},
			check: func(t *testing.T, s *results.Subscriptions) {
				st := s.Streams
				if s.Mode != "subscribe" || st.Reconnects == 0 || st.Ended.Closed != st.Opened {
					t.Errorf("mode %s streams %+v", s.Mode, st.StreamCounts)
				}
			}},
		{name: "http 2026 idle keep-alives", proto: "auto", rate: "1/s", o: simserver.Options{KeepAlive: 20 * time.Millisecond},
			check: func(t *testing.T, s *results.Subscriptions) {
				if st := s.Streams; st.KeepAlives == 0 || st.Reconnects != 0 || st.Ended.Closed != st.Opened || s.Notifications.LostInGaps != 0 {
					t.Errorf("streams %+v notifications %+v", st.StreamCounts, s.Notifications)
				}
			}},
		{name: "stdio 2026 control", proto: "auto", rate: "40/s", stdio: true,
			check: func(t *testing.T, s *results.Subscriptions) {
				if st := s.Streams; st.Reconnects != 0 || st.KeepAlives != 0 || st.Ended.Closed != st.Opened || s.Notifications.LostInGaps != 0 || s.Notifications.Missed != 0 {
					t.Errorf("streams %+v notifications %+v", st.StreamCounts, s.Notifications)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := "stdio:" + exe
			if !c.stdio {
				target = peertest.ServeLocal(t, simserver.New(c.o).Handler()).URL + "/mcp"
			}
			res := runListen(t, listenWorkload(t, target, c.proto, fmt.Sprintf(lifeListen, listenURIs, c.rate)))
			s := res.Subscriptions
			if s.Streams.Lifetime.Count != s.Streams.Opened || s.Streams.Opened == 0 {
				t.Errorf("%d lifetimes of %d streams opened", s.Streams.Lifetime.Count, s.Streams.Opened)
			}
			c.check(t, s)
		})
	}
}

// notifyByClass is the count of each row of notify_by_class.
func notifyByClass(s *results.Subscriptions) map[string]int64 {
	out := map[string]int64{}
	for _, c := range s.NotifyByClass {
		out[c.Class] = c.Latency.Count
	}
	return out
}

// cutAfter is a proxy that cuts every request's stream d after it began,
// without an answer: what an idle timeout does to a long-lived stream.
func cutAfter(d time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// sdkChangeServer is the official Go SDK's server (v1.8.0) with one
// subscribable document, and POST /changes?uri=URI announcing its change
// (Server.ResourceUpdated), for changes made via http; Streamable HTTP
// with opts, HTTP+SSE without.
func sdkChangeServer(t *testing.T, opts *mcp.StreamableHTTPOptions, cut time.Duration) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "sdk-life-peer", Version: "1.0.0"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	for _, u := range []string{"docs://life/a", "docs://life/b"} {
		srv.AddResource(&mcp.Resource{URI: u, Name: u, MIMEType: "text/plain"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "v"}}}, nil
		})
	}
	mux := http.NewServeMux()
	if opts != nil {
		mux.Handle("/mcp", cutAfter(cut, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)))
	} else { // HTTP+SSE (2024-11-05) at /mcp
		mux.Handle("/mcp", cutAfter(cut, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)))
	}
	mux.HandleFunc("/changes", func(w http.ResponseWriter, r *http.Request) {
		if err := srv.ResourceUpdated(r.Context(), &mcp.ResourceUpdatedNotificationParams{URI: r.URL.Query().Get("uri")}); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return peertest.ServeLocal(t, mux).URL
}

// TestListenStreamLifeSDK: against the official Go SDK's server behind a
// proxy that cuts every stream (at 400 ms; HTTP+SSE at 1.2 s, once
// changes have been told), in both eras: 2026-07-28 listen streams end
// without readbench closing them and are listened again, the gap's
// changes lost apart from missed; a legacy session's standalone GET
// stream is reopened with Last-Event-ID, and with the SDK's event store
// the notifications sent meanwhile are replayed: nothing lost, nothing
// missed, nothing told twice; an HTTP+SSE session's stream is the session
// itself: its subscriptions end dropped, never reconnect, and the changes
// after are lost, not missed.
func TestListenStreamLifeSDK(t *testing.T) {
	const uris = `"docs://life/a", "docs://life/b"`
	for _, c := range []struct {
		name, proto string
		opts        *mcp.StreamableHTTPOptions
		cut         time.Duration
		check       func(t *testing.T, s *results.Subscriptions)
	}{
		{"2026 stateless", "auto", &mcp.StreamableHTTPOptions{Stateless: true}, 400 * time.Millisecond, func(t *testing.T, s *results.Subscriptions) {
			st := s.Streams
			if s.Mode != "listen" || st.Reconnects == 0 || st.Ended.Closed == st.Opened || s.Notifications.LostInGaps == 0 {
				t.Errorf("mode %s streams %+v notifications %+v", s.Mode, st.StreamCounts, s.Notifications)
			}
		}},
		{"legacy replayed", protocol.V20251125, &mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)}, 400 * time.Millisecond, func(t *testing.T, s *results.Subscriptions) {
			st, n := s.Streams, s.Notifications
			if s.Mode != "subscribe" || st.Reconnects == 0 || n.Missed+n.LostInGaps != 0 || n.Duplicates != 0 || n.Notified == 0 {
				t.Errorf("mode %s streams %+v notifications %+v", s.Mode, st.StreamCounts, n)
			}
		}},
		{"legacy HTTP+SSE cut", "auto", nil, 1200 * time.Millisecond, func(t *testing.T, s *results.Subscriptions) {
			st, n := s.Streams, s.Notifications
			if s.Mode != "subscribe" || st.Reconnects != 0 || st.Ended.Dropped == 0 || n.LostInGaps == 0 {
				t.Errorf("mode %s streams %+v notifications %+v", s.Mode, st.StreamCounts, n)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := sdkChangeServer(t, c.opts, c.cut)
			extra := fmt.Sprintf("listen: {listeners: 2, uris: [%s], reread: {on: false}}\nchanges: {rate: 40/s, via: {http: {url: \"%s/changes?uri={uri}\"}}}\n", uris, base)
			target := base + "/mcp"
			if c.opts == nil {
				target = "sse+" + target
			}
			w, err := yamlfile.Parse("life.yaml", []byte(fmt.Sprintf(`
name: life
target: %q
protocol: %s
sessions: 1
load: {rate: 10/s, duration: 2s, warmup: 500ms}
turn: {attachments: 1, read_timeout: 10s, deadline: 20s}
mix:
  - {class: doc, uri: "docs://life/a"}
%s`, target, c.proto, extra)))
			if err != nil {
				t.Fatal(err)
			}
			res := runListen(t, w)
			s := res.Subscriptions
			if s.Streams.Lifetime.Count != s.Streams.Opened || s.Streams.Opened == 0 || s.Changes.Failed != 0 {
				t.Errorf("%d lifetimes of %d streams opened; changes %+v", s.Streams.Lifetime.Count, s.Streams.Opened, s.Changes)
			}
			// docs://life/a is the mix class doc's; docs://life/b no class's.
			if by := notifyByClass(s); by["doc"] == 0 || by[""] == 0 || by["doc"]+by[""] != s.Notify.Count {
				t.Errorf("notify_by_class %v, want doc and \"\" adding up to %d", by, s.Notify.Count)
			}
			c.check(t, s)
		})
	}
}
