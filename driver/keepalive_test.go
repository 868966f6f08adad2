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
	"github.com/readbench/readbench/internal/hostload"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload/yamlfile"
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
			w, err := yamlfile.Parse("keep.yaml", []byte(fmt.Sprintf(`
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
			window := hostload.Watch()
			rep := runSDK(t, w)
			res, err := rep.result(results.Tool{Name: "readbench", Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			// The machine was contended when readbench says so, or when the
			// test's own window says so (readbench's host.cpu_pressure is
			// over the measured phase alone).
			busy, verdict := contended(res)
			busy = busy || window.Busy()
			conns := rep.Meta.Connections
			if conns == nil {
				t.Fatal("no connections counted over HTTP")
			}
			// The connections are counted over the warmup too.
			all := rep.MeasuredPhase.Outcomes
			all.Add(&rep.Warmup.Outcomes)
			outcomes := all.Map()
			// Reads the turn deadline cancelled or readbench dropped are the
			// machine's only on a contended one: on a quiet machine a 2 ms
			// server never meets a 5 s deadline.
			cancelled, dropped := outcomes["cancelled"], outcomes["dropped"]
			if bad := all.Errors(); bad != 0 && (!busy || bad != cancelled+dropped) {
				t.Fatalf("%d reads failed: %v; %s; %s", bad, outcomes, verdict, window)
			}
			reads := rep.MeasuredPhase.Scheduled + rep.Warmup.Scheduled
			if got := accepts.Load(); got != conns.Opened {
				t.Errorf("the server accepted %d connections, the run says it opened %d", got, conns.Opened)
			}
			if conns.Requests < reads-cancelled-dropped {
				t.Errorf("%d requests counted for %d reads (%d cancelled, %d dropped)", conns.Requests, reads, cancelled, dropped)
			}
			// Only a request cut before its answer was whole costs its
			// connection to readbench's cuts: a cancelled read, or one of
			// the sessions' own requests (handshake, cancel, end) the
			// deadline cut on a contended machine.
			own := max(conns.Requests-(reads-dropped), 0)
			if conns.ClosedByCut > cancelled+own {
				t.Errorf("%+v: %d connections closed by cuts for %d cancelled reads and %d other requests", *conns, conns.ClosedByCut, cancelled, own)
			}
			// The churn line names the larger cause of closes, when they
			// are material; cut reads' closes are the machine's on a
			// contended one.
			const cut = "reads cut before their answer was whole"
			churn := res.Connections.Churn
			churnOK := c.want == "" && churn == "" || c.want != "" && strings.Contains(churn, c.want)
			switch c.name {
			case "kept":
				// Each connection reused, none closed but for a cut read's.
				// How many are opened is how many reads are in flight at
				// once: 8 for 2 sessions of 4 reads on a quiet machine, where
				// the old code's failure, a connection per read, is twice the
				// bound; on a contended one late turns overlap, and as many
				// connections as reads in flight is the pool's right answer.
				// A connection dialled for a read the deadline then cancelled
				// goes to the pool unused: a later request counts it as
				// reused, one more than requests less opened.
				if off := conns.Reused - (conns.Requests - conns.Opened); conns.ClosedByServer+conns.ClosedByClient != 0 || off < 0 || off > cancelled {
					t.Errorf("%d reads: %+v: want each connection reused, none closed but for cut reads; %s", reads, *conns, window)
				}
				if !busy && conns.Opened > conns.Requests/2 {
					t.Errorf("%d reads: %+v: want at most a connection per two requests; %s; %s", reads, *conns, verdict, window)
				}
				churnOK = churnOK || busy && strings.Contains(churn, cut)
			case "keep_alive false":
				if conns.Opened != conns.Requests || conns.ClosedByClient+conns.ClosedByCut != conns.Requests || conns.Reused != 0 {
					t.Errorf("%+v: want a connection per request, each closed by readbench; %s", *conns, window)
				}
			default:
				if conns.Opened != conns.Requests || conns.ClosedByServer+conns.ClosedByCut < conns.Requests-1 || conns.Reused != 0 {
					t.Errorf("%+v: want a connection per request, closed by the server; %s", *conns, window)
				}
				if conns.ClosedByCut >= conns.ClosedByServer {
					churnOK = strings.Contains(churn, cut)
				}
			}
			if !churnOK {
				t.Errorf("churn line %q, want %q; %+v; %s", churn, c.want, *conns, verdict)
			}
		})
	}
}

// contended is what a run's result says of the machine (hostload.Says).
func contended(res *results.Result) (bool, string) {
	return hostload.Says(res.Host.CPUPressure, res.GeneratorBound, res.Generator.Saturation)
}
