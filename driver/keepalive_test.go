package driver

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// acceptCounter serves h on 127.0.0.1 and counts the connections the
// server accepted, as the server saw them.
func acceptCounter(t *testing.T, h http.Handler) (string, *atomic.Int64) {
	t.Helper()
	var accepts atomic.Int64
	hs := peertest.ServeLocalWith(t, h, func(s *http.Server) {
		s.ConnState = func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				accepts.Add(1)
			}
		}
	})
	return hs.URL + "/mcp", &accepts
}

// TestConnectionsKeptWithTurnDeadline: against the official Go SDK's
// server, turns of parallel reads under a deadline (never reached) reuse
// their connections as a real client's pool does: the server accepts as
// many as the run says it opened, no more than its sessions' reads in
// flight need, and none is closed early. With load.keep_alive: false each
// request has a connection of its own; a server that answers Connection:
// close costs one per request too, and the result says who caused it.
// (Every turn's deadline used to end its connections once the turn was
// over: one connection per read.)
func TestConnectionsKeptWithTurnDeadline(t *testing.T) {
	srv := peertest.SDKServer(2 * time.Millisecond)
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	closing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		sdk.ServeHTTP(w, r)
	})
	for _, c := range []struct {
		name      string
		h         http.Handler
		keepAlive string
		want      string // in the churn line; "" for none
	}{
		{"kept", sdk, "true", ""},
		{"keep_alive false", sdk, "false", "load.keep_alive: false"},
		{"the server closes", closing, "true", "the server closed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url, accepts := acceptCounter(t, c.h)
			w, err := workload.Parse("keep.yaml", []byte(fmt.Sprintf(`
name: keep
target: %q
sessions: 2
load: {rate: 40/s, duration: 1s, warmup: 200ms, keep_alive: %s}
turn: {attachments: 4, read_timeout: 10s, deadline: 5s}
mix:
  - {class: md, uri: "docs://onboarding/engineering"}
`, url, c.keepAlive)))
			if err != nil {
				t.Fatal(err)
			}
			rep := runSDK(t, w)
			if bad := rep.Run.Outcomes.Errors(); bad != 0 {
				t.Fatalf("%d reads failed: %v", bad, rep.Run.Outcomes.Map())
			}
			conns := rep.Connections
			if conns == nil {
				t.Fatal("no connections counted over HTTP")
			}
			reads := rep.Run.Scheduled + rep.Warmup.Scheduled
			if got := accepts.Load(); got != conns.Opened {
				t.Errorf("the server accepted %d connections, the run says it opened %d", got, conns.Opened)
			}
			if conns.Requests < reads {
				t.Errorf("%d requests counted for %d reads", conns.Requests, reads)
			}
			res, err := rep.Result(results.Tool{Name: "readbench", Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			churn := res.Connections.Churn
			switch c.name {
			case "kept":
				// A connection per read in flight at once, each reused: how
				// many turns are in flight at once depends on how busy the
				// machine is (on an idle one 2 sessions of 4 reads need 8), so
				// the bound is the old code's failure, a connection per read,
				// by a wide margin.
				if conns.Opened > conns.Requests/2 || conns.ClosedByCut+conns.ClosedByServer+conns.ClosedByClient != 0 || conns.Reused != conns.Requests-conns.Opened {
					t.Errorf("%d reads: %+v: want at most a connection per two requests, each reused, none closed", reads, *conns)
				}
			case "keep_alive false":
				if conns.Opened != conns.Requests || conns.ClosedByClient != conns.Requests || conns.Reused != 0 {
					t.Errorf("%+v: want a connection per request, each closed by readbench", *conns)
				}
			default:
				if conns.Opened != conns.Requests || conns.ClosedByServer < conns.Requests-1 || conns.Reused != 0 {
					t.Errorf("%+v: want a connection per request, closed by the server", *conns)
				}
			}
			if c.want == "" && churn != "" || !strings.Contains(churn, c.want) {
				t.Errorf("churn line %q, want %q", churn, c.want)
			}
		})
	}
}
