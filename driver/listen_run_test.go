package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// listenWorkload is a small run with listeners and changes made with the
// simulated server's touch tool: reads of one synthesized class, two
// listeners of extra YAML's making.
func listenWorkload(t *testing.T, target, proto, extra string) *workload.Workload {
	t.Helper()
	// The listeners open during the warmup. Over stdio each is a process
	// started then, which under -race on a saturated machine took longer
	// than half a second to answer its handshake.
	warmup := "500ms"
	if strings.HasPrefix(target, "stdio:") {
		warmup = "3s"
	}
	w, err := yamlfile.Parse("listen.yaml", []byte(fmt.Sprintf(`
name: listen
target: %q
protocol: %s
sessions: 1
load: {rate: 10/s, duration: 2s, warmup: %s}
turn: {attachments: 1, read_timeout: 10s, deadline: 20s}
mix:
  - {class: md, mime: text/markdown, size: 2KiB}
%s`, target, proto, warmup, extra)))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

const touchListen = `
listen: {listeners: 2, streams: 2, uris: [%s], reread: {on: true, honour_ttl: false}}
changes: {rate: 10/s, via: {tool: touch, args: {uri: "{uri}"}}}
`

// runListen runs w and returns its result: Run's, whose tool is the
// client it said it was, and which handed what its listeners recorded to
// Listened before it returned.
func runListen(t *testing.T, w *workload.Workload) *results.Result {
	t.Helper()
	var listened *stats.Listening
	res, err := Run(context.Background(), Options{Workload: w, Logf: t.Logf, Client: client.Implementation{Name: "readbench", Version: "test"},
		Listened: func(l *stats.Listening) { listened = l }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tool.Name != "readbench" || res.Tool.Version != "test" {
		t.Errorf("tool %+v, want the client's name and version", res.Tool)
	}
	if listened == nil || res.Subscriptions == nil {
		t.Errorf("Listened got %v, the result's subscriptions %v: want both", listened, res.Subscriptions)
	}
	if !res.Totals.IdentityOK {
		t.Errorf("read identity broken: %+v", res.Totals)
	}
	s := res.Subscriptions
	if s == nil {
		t.Fatal("no subscriptions block")
	}
	if !s.Notifications.IdentityOK {
		t.Errorf("freshness identity broken: %+v", s.Notifications)
	}
	return res
}

const listenURIs = `"sim:///doc-a.md?mime=text/markdown&size=1KiB", "sim:///doc-b.md?mime=text/markdown&size=1KiB"`

// TestListenSimServer: listeners with changes made by the simulated
// server's touch tool, in both eras over stdio and Streamable HTTP: every
// change is told to every subscription (nothing missed, no violation),
// each notification starts a re-read recorded as a read of the reread
// class, and the streams end closed by readbench.
func TestListenSimServer(t *testing.T) {
	exe := peertest.Command(t, simStdio)[0]
	stateful := peertest.ServeLocal(t, simserver.New(simserver.Options{Stateful: true}).Handler())
	stateless := peertest.ServeLocal(t, simserver.New(simserver.Options{}).Handler())
	for _, c := range []struct {
		name, target, proto, mode string
		streams                   int64
	}{
		{"stdio 2026", "stdio:" + exe, "auto", "listen", 4},
		{"stdio legacy", "stdio:" + exe, protocol.V20251125, "subscribe", 2},
		{"http 2026", stateless.URL + "/mcp", "auto", "listen", 4},
		{"stateful http legacy", stateful.URL + "/mcp", protocol.V20251125, "subscribe", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := runListen(t, listenWorkload(t, c.target, c.proto, fmt.Sprintf(touchListen, listenURIs)))
			s := res.Subscriptions
			n := s.Notifications
			if s.Mode != c.mode || s.Listeners.Listening != 2 || s.Streams.Opened != c.streams || s.Streams.Ended.Closed != c.streams {
				t.Errorf("mode %q listeners %+v streams %+v, want %s with %d streams", s.Mode, s.Listeners, s.Streams, c.mode, c.streams)
			}
			if s.Changes.Made < 10 || s.Changes.Failed != 0 || s.Changes.Via != "tool" {
				t.Errorf("changes %+v", s.Changes)
			}
			if n.Missed != 0 || n.Expected == 0 || n.Notified+n.Coalesced != n.Expected || s.Violations.Total() != 0 {
				t.Errorf("notifications %+v violations %+v", n, s.Violations)
			}
			var reread *results.Class
			for i := range res.Classes {
				if res.Classes[i].Class == "reread" {
					reread = &res.Classes[i]
				}
			}
			made := s.Rereads.Made
			if reread == nil || made == 0 || s.Rereads.SkippedFresh != 0 {
				t.Fatalf("re-reads %+v, class %+v", s.Rereads, reread)
			}
			if reread.Outcomes["ok"] == 0 || s.Notify.Count != n.Notified+n.Coalesced {
				t.Errorf("reread class %+v; notify count %d", reread.Outcomes, s.Notify.Count)
			}
		})
	}
}

// TestListenCacheScope: three listeners of the simulated server over
// Streamable HTTP in the 2026-07-28 era, whose answers carry the
// cacheScope of the URI's scope= (ttlMs 0: the ttl saves nothing). A
// public answer lets a cache shared between the listeners answer the
// others' re-reads of one change: counted (honour_scope false) or not
// sent (true); a private one saves nothing across listeners, and each
// listener re-reads a change once (one stream each).
func TestListenCacheScope(t *testing.T) {
	srv := peertest.ServeLocal(t, simserver.New(simserver.Options{}).Handler())
	const listen = `
listen: {listeners: 3, streams: 1, uris: [%q], reread: {on: true, honour_scope: %v}}
changes: {rate: 10/s, via: {tool: touch, args: {uri: "{uri}"}}}
`
	for _, c := range []struct {
		name   string
		scope  string
		honour bool
	}{
		{"public", "public", false},
		{"public honoured", "public", true},
		{"private honoured", "private", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			uri := "sim:///doc-s.md?mime=text/markdown&size=1KiB&scope=" + c.scope
			res := runListen(t, listenWorkload(t, srv.URL+"/mcp", "auto", fmt.Sprintf(listen, uri, c.honour)))
			s := res.Subscriptions
			rr, n := s.Rereads, s.Notifications
			t.Logf("re-reads %+v for %d notifications", rr, n.Notified)
			started := rr.Made + rr.SkippedFresh + rr.SkippedScope
			if rr.Made == 0 || rr.SkippedFresh != 0 || rr.WouldSkip != 0 || started > n.Notified {
				t.Fatalf("re-reads %+v for %d notifications", rr, n.Notified)
			}
			switch {
			case c.scope == "private":
				if rr.SkippedScope != 0 || rr.WouldSkipScope != 0 {
					t.Errorf("private answers saved re-reads: %+v", rr)
				}
			case c.honour:
				// Each change's three re-reads: one to the server, two
				// answered by the shared cache.
				if rr.SkippedScope == 0 || rr.WouldSkipScope != 0 || rr.SkippedScope > 2*started/3 || rr.SkippedScope < rr.Made/2 {
					t.Errorf("honoured public: %+v", rr)
				}
			default:
				if rr.WouldSkipScope == 0 || rr.SkippedScope != 0 || rr.WouldSkipScope > 2*rr.Made/3 {
					t.Errorf("public: %+v", rr)
				}
			}
		})
	}
}
