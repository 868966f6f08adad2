package driver

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// deleteCounter counts the DELETEs that end Streamable HTTP sessions.
type deleteCounter struct{ n atomic.Int64 }

func (d *deleteCounter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && r.Header.Get("Mcp-Session-Id") != "" {
			d.n.Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

// churnWorkload: 2 sessions, 20 turns of one read, a new session every 5
// turns on it: each session slot serves 10 turns on 2 sessions, so 4
// sessions are opened, 2 replaced.
func churnWorkload(t *testing.T, target, proto, mix string) *workload.Workload {
	t.Helper()
	w, err := yamlfile.Parse("churn.yaml", []byte(fmt.Sprintf(`
name: churn
target: %q
protocol: %q
sessions: 2
load: {rate: 40/s, turns: 20, session_turns: 5}
turn: {attachments: 1, read_timeout: 60s}
mix:
  - %s
`, target, proto, mix)))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

const (
	sdkDoc = `{class: md, uri: "docs://onboarding/engineering"}`
	simDoc = `{class: md, mime: text/markdown, size: 2KiB}`
)

// checkChurn: N turns per session give the expected handshakes, a first
// read per session opened, every read ok, and (deletes ≥ 0) a DELETE for
// every session the server issued an id to.
func checkChurn(t *testing.T, w *workload.Workload, deletes *deleteCounter, wantDeletes int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, err := measure(ctx, Options{Workload: w, Client: client.Implementation{Name: "readbench-test", Version: "0"}})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.MeasuredPhase
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	if run.Outcomes[stats.OK] != 20 {
		t.Errorf("outcomes %v, want 20 ok", run.Outcomes.Map())
	}
	if s := rep.Meta.Sessions; s.Opened != 4 || s.Replaced != 2 || s.ReplaceFailed != 0 || s.Connected != 2 {
		t.Errorf("sessions %+v: want 4 opened, 2 replaced", s)
	}
	if run.Handshake.Count() != 4 || run.FirstRead.Count() != 4 {
		t.Errorf("handshake %d, first_read %d: want 4 each (one per session opened)", run.Handshake.Count(), run.FirstRead.Count())
	}
	if deletes != nil && deletes.n.Load() != wantDeletes {
		t.Errorf("%d DELETEs, want %d (every session closed, replaced or at the end)", deletes.n.Load(), wantDeletes)
	}
}

func TestChurnSDKHTTP(t *testing.T) {
	for _, c := range []struct {
		name, proto string
		opts        mcp.StreamableHTTPOptions
		deletes     int64
	}{
		{"stateful-legacy", protocol.V20251125, mcp.StreamableHTTPOptions{JSONResponse: true}, 4},
		{"stateless-2026", "auto", mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}, 0}, // a fresh client each time, no session to end
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &deleteCounter{}
			srv := peertest.SDKServer(time.Millisecond)
			hs := peertest.ServeLocal(t, d.wrap(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &c.opts)))
			checkChurn(t, churnWorkload(t, hs.URL, c.proto, sdkDoc), d, c.deletes)
		})
	}
}

func TestChurnMCPGo(t *testing.T) {
	t.Run("stateful-http", func(t *testing.T) {
		d := &deleteCounter{}
		hs := peertest.ServeLocal(t, d.wrap(server.NewStreamableHTTPServer(peertest.MCPGoServer(), server.WithStateful(true))))
		checkChurn(t, churnWorkload(t, hs.URL+"/mcp", protocol.V20250326, sdkDoc), d, 4)
	})
	t.Run("stdio", func(t *testing.T) {
		exe := peertest.Command(t, peertest.MCPGoStdio)[0]
		checkChurn(t, churnWorkload(t, "stdio:"+exe, "auto", sdkDoc), nil, 0)
	})
}

func TestChurnSimServer(t *testing.T) {
	t.Run("stateful-http", func(t *testing.T) {
		d := &deleteCounter{}
		hs := peertest.ServeLocal(t, d.wrap(simserver.New(simserver.Options{Stateful: true}).Handler()))
		checkChurn(t, churnWorkload(t, hs.URL, protocol.V20251125, simDoc), d, 4)
	})
	t.Run("stdio", func(t *testing.T) {
		exe := peertest.Command(t, simStdio)[0]
		checkChurn(t, churnWorkload(t, "stdio:"+exe, "auto", simDoc), nil, 0)
	})
}

// TestChurnByLifetime: a session older than load.session_lifetime is
// replaced at its next turn.
func TestChurnByLifetime(t *testing.T) {
	srv := peertest.SDKServer(0)
	hs := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	w, err := yamlfile.Parse("life.yaml", []byte(fmt.Sprintf(`
name: life
target: %q
load: {rate: 5/s, turns: 6, session_lifetime: 1ms}
turn: {attachments: 1, read_timeout: 60s}
mix: [%s]
`, hs.URL, sdkDoc)))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measure(context.Background(), Options{Workload: w})
	if err != nil {
		t.Fatal(err)
	}
	// Turns 200 ms apart on a 1 ms lifetime: a turn after the first opens a
	// new session and reads first on it. On a busy machine a replacement
	// can take longer than the gap, and the turns due meanwhile share the
	// one it opens: fewer replacements, but still a first read on each
	// session opened.
	s, first := rep.Meta.Sessions, rep.MeasuredPhase.FirstRead.Count()
	if s.Opened != s.Replaced+1 || s.Replaced < 3 || first < s.Replaced || first > s.Replaced+1 {
		t.Errorf("sessions %+v, first_read %d: want every turn after the first on a new session, each with its first read", s, first)
	}
}

// TestChurnWaitShowsInLag: a turn due on a session being replaced waits
// for the new one, and the wait is in its read's lag (and so its
// latency), never hidden: every handshake here takes 300 ms.
func TestChurnWaitShowsInLag(t *testing.T) {
	const slow = 300 * time.Millisecond
	h := simserver.New(simserver.Options{Stateful: true}).Handler()
	hs := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" { // a legacy initialize
			time.Sleep(slow)
		}
		h.ServeHTTP(w, r)
	}))
	w, err := yamlfile.Parse("wait.yaml", []byte(fmt.Sprintf(`
name: wait
target: %q
protocol: %q
load: {rate: 20/s, turns: 6, session_turns: 2}
turn: {attachments: 1, read_timeout: 60s}
mix: [%s]
`, hs.URL, protocol.V20251125, simDoc)))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := measure(context.Background(), Options{Workload: w})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.MeasuredPhase
	if rep.Meta.Sessions.Replaced != 2 || run.Handshake.Count() != 3 || run.Handshake.Mean() < slow-time.Millisecond {
		t.Errorf("sessions %+v, %d handshakes of %v on average: want 2 replaced, 3 handshakes of %v or more", rep.Meta.Sessions, run.Handshake.Count(), run.Handshake.Mean(), slow)
	}
	if run.Lag.Max() < slow-10*time.Millisecond || run.Read.Max() < slow {
		t.Errorf("lag max %v, read max %v: the turns that waited for a new session do not show it", run.Lag.Max(), run.Read.Max())
	}
}
