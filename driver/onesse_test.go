package driver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/targets"
)

// refuseSecondSSE is the SDK's SSE handler behind a guard that takes one
// SSE client at a time, as servers that keep one global stream do: a GET
// while another stream is open is refused with 409.
func refuseSecondSSE(srv *mcp.Server) http.Handler {
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var open atomic.Bool
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if !open.CompareAndSwap(false, true) {
				http.Error(w, "an SSE client is already connected", http.StatusConflict)
				return
			}
			defer open.Store(false)
		}
		h.ServeHTTP(w, r)
	})
}

// globalSSE is a server written the way single-client examples are: one
// global SDK transport, made by the first GET, to which every POST goes.
// A later GET is told the same endpoint, so its messages reach the server
// but their answers go down the first client's stream.
func globalSSE(srv *mcp.Server) http.Handler {
	var claimed atomic.Bool
	ready := make(chan struct{}) // closed once the first GET's transport is connected
	var global *mcp.SSEServerTransport
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if !claimed.CompareAndSwap(false, true) {
			fmt.Fprint(w, "event: endpoint\ndata: /message\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		// Published to the POSTs only once Connect has set the
		// transport up: a POST served while it did raced with it.
		tr := &mcp.SSEServerTransport{Endpoint: "/message", Response: w}
		ss, err := srv.Connect(r.Context(), tr, nil)
		if err != nil {
			return
		}
		defer ss.Close()
		global = tr
		close(ready)
		<-r.Context().Done()
	})
	mux.HandleFunc("POST /message", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-ready:
			global.ServeHTTP(w, r)
		case <-r.Context().Done():
		}
	})
	return mux
}

// oneSSERun runs two sessions of the SDK peer workload against h with a
// short handshake timeout (a session whose answers go elsewhere waits it
// out) and returns the run's error and what it logged.
func oneSSERun(t *testing.T, h http.Handler, minSessions int) (error, []string) {
	t.Helper()
	hs := peertest.ServeLocal(t, h)
	w := sdkWorkload(t, "sse+"+hs.URL+"/sse", "auto")
	w.Load.HandshakeTimeout = 2 * time.Second
	w.Load.MinSessions = minSessions
	w.Turn.ReadTimeout = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var mu sync.Mutex
	var logged []string
	_, err := measure(ctx, Options{Workload: w, Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(f, a...))
	}})
	mu.Lock()
	defer mu.Unlock()
	return err, logged
}

const oneSSEHint = "held its HTTP+SSE stream: the server may serve one SSE client at a time; try sessions: 1"

// TestOneSSEClientServerHint: two sessions over HTTP+SSE against a server
// that serves one SSE client at a time (a second GET refused; or told the
// endpoint of one global SDK transport, whose answers go down the first
// stream) fail with the likely cause named, not with advice that the
// server starts slowly: one session connected, so it is up.
func TestOneSSEClientServerHint(t *testing.T) {
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"refused", refuseSecondSSE(peertest.SDKServer(0))},
		{"global-transport", globalSSE(peertest.SDKServer(0))},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err, _ := oneSSERun(t, c.h, 0)
			if err == nil || !strings.Contains(err.Error(), "1 of 2 sessions connected, 1 failed") ||
				!strings.Contains(err.Error(), oneSSEHint) || strings.Contains(err.Error(), "starts slowly") {
				t.Fatalf("err = %v\nwant the session that failed, the one that held the stream, and no slow-start advice", err)
			}
			if !strings.Contains(err.Error(), "session 1 of 2 failed while session 2") && !strings.Contains(err.Error(), "session 2 of 2 failed while session 1") {
				t.Errorf("err = %v: want the sessions named", err)
			}
		})
	}
	t.Run("min-sessions-logged", func(t *testing.T) {
		t.Parallel()
		err, logged := oneSSERun(t, globalSSE(peertest.SDKServer(0)), 1)
		if err != nil {
			t.Fatalf("min_sessions 1: %v", err)
		}
		said := false // the session that held the stream may also have been told of the other's answers
		for _, l := range logged {
			said = said || strings.HasPrefix(l, "connect: 1 of 2 sessions connected") && strings.Contains(l, oneSSEHint) && !strings.Contains(l, "starts slowly")
		}
		if !said {
			t.Errorf("logged %q: want the hint with the shortfall", logged)
		}
	})
}

// TestOneSSEClientNoFalseHint: the hint is not given where it does not
// fit: a server serving many SSE clients (the SDK's own handler) connects
// both sessions and logs nothing of it; a server slow to start whose
// every session times out keeps the slow-start advice.
func TestOneSSEClientNoFalseHint(t *testing.T) {
	t.Run("multi-client", func(t *testing.T) {
		t.Parallel()
		srv := peertest.SDKServer(0)
		err, logged := oneSSERun(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range logged {
			if strings.Contains(l, "one SSE client") {
				t.Errorf("logged %q", l)
			}
		}
	})
	t.Run("slow-start", func(t *testing.T) {
		t.Parallel()
		srv := peertest.SDKServer(0)
		started := make(chan struct{})
		defer close(started) // before the server's cleanup closes it
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "initialize" { // still starting: the answer comes long after the handshake timeout
					select {
					case <-started:
					case <-ctx.Done():
					}
				}
				return next(ctx, method, req)
			}
		})
		err, _ := oneSSERun(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil), 0)
		if err == nil || !strings.Contains(err.Error(), "0 of 2 sessions connected") || !strings.Contains(err.Error(), "starts slowly") ||
			strings.Contains(err.Error(), "one SSE client") {
			t.Fatalf("err = %v: want the slow-start advice alone", err)
		}
	})
}

// TestOneSSEClientPattern: the hint needs HTTP+SSE, exactly one session
// connected and at least one failed.
func TestOneSSEClientPattern(t *testing.T) {
	sse := targets.Target{Kind: targets.SSE}
	bad := errors.New("refused")
	for _, c := range []struct {
		name string
		t    targets.Target
		errs []error
		want string
	}{
		{"one-held", sse, []error{nil, bad, bad}, "2 of 3 sessions failed while session 1 held"},
		{"later-held", sse, []error{bad, nil}, "session 1 of 2 failed while session 2 held"},
		{"two-held", sse, []error{nil, bad, nil}, ""},
		{"none-held", sse, []error{bad, bad}, ""},
		{"all-held", sse, []error{nil, nil}, ""},
		{"streamable-http", targets.Target{Kind: targets.HTTP}, []error{nil, bad}, ""},
		{"stdio", targets.Target{Kind: targets.Stdio}, []error{nil, bad}, ""},
	} {
		_, hint := oneSSEClient(c.t, c.errs)
		if (c.want == "") != (hint == "") || !strings.Contains(hint, c.want) {
			t.Errorf("%s: hint %q, want %q", c.name, hint, c.want)
		}
	}
}
