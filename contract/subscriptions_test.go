package contract

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/targets"
)

// simSub serves the simulated server over Streamable HTTP with opts, on
// 127.0.0.1: stateless (2026-07-28 listen) unless opts.Stateful (legacy
// subscriptions on the session's GET stream).
func simSub(opts simserver.Options) func(t *testing.T) string {
	return func(t *testing.T) string {
		return peertest.ServeLocal(t, simserver.New(opts).Handler()).URL + "/mcp"
	}
}

// sdkSub is the official Go SDK's server (v1.8.0) with two resources,
// subscriptions on (both eras: its SubscribeHandler, and
// subscriptions/listen) and a tool touch {uri} that announces a change,
// served over Streamable HTTP, stateless or not.
func sdkSub(stateless bool) func(t *testing.T) string {
	return func(t *testing.T) string {
		s := peertest.SDKSubscribeServer("sdk-sub", "docs://sub/a", "docs://sub/b")
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
		return peertest.ServeLocal(t, h).URL + "/mcp"
	}
}

// mcpGoSub is mcp-go's server (legacy resources/subscribe over Streamable
// HTTP) with two resources and a tool touch {uri} that announces a change
// the way mcp-go offers: to every client, whatever it subscribed to (its
// default subscribe handler tracks no subscriber).
//
// mcp-go hands a session's notifications to whichever of its requests
// takes them first: the GET stream, or the forwarder of a POST, which
// drops what it takes once its request is over and may outlive it by a
// scheduling slice. A change announced once can so vanish on a busy
// machine, and the rows would judge mcp-go's race rather than its
// routing. So one sender announces the changes in the order they were
// made, each after its touch request is over and again (up to 10 times,
// 300 ms apart) until the GET stream has written it.
func mcpGoSub(t *testing.T) string {
	srv := server.NewMCPServer("mcpgo-sub", "1.0.0", server.WithResourceCapabilities(true, false), server.WithToolCapabilities(false))
	for _, u := range []string{"docs://sub/a", "docs://sub/b"} {
		srv.AddResource(mcpgo.NewResource(u, u, mcpgo.WithMIMEType("text/plain")), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: u, MIMEType: "text/plain", Text: "v"}}, nil
		})
	}
	type touched struct {
		done <-chan struct{} // the touch request is over
		uri  string
	}
	touches := make(chan touched, 16)
	written := make(chan []byte, 16) // what the GET stream wrote of updates
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			var c touched
			select {
			case c = <-touches:
			case <-stop:
				return
			}
			<-c.done
			want := []byte(strconv.Quote(c.uri))
		announce:
			for range 10 {
				srv.SendNotificationToAllClients(protocol.NotifyResourceUpdated, map[string]any{"uri": c.uri})
				timeout := time.After(300 * time.Millisecond)
				for {
					select {
					case p := <-written:
						if bytes.Contains(p, want) {
							break announce
						}
					case <-timeout:
						continue announce
					case <-stop:
						return
					}
				}
			}
		}
	}()
	t.Cleanup(func() { close(stop); wg.Wait() })
	srv.AddTool(mcpgo.NewTool("touch", mcpgo.WithString("uri", mcpgo.Required())), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		touches <- touched{ctx.Done(), req.GetString("uri", "")}
		return mcpgo.NewToolResultText("ok"), nil
	})
	h := server.NewStreamableHTTPServer(srv)
	return peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w = &updateWriter{ResponseWriter: w, written: written}
		}
		h.ServeHTTP(w, r)
	})).URL + "/mcp"
}

// updateWriter is a GET stream's response writer that passes on to
// written a copy of each write telling of an update.
type updateWriter struct {
	http.ResponseWriter
	written chan<- []byte
}

// Write passes p on, and a copy to written when p tells of an update.
func (w *updateWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	if bytes.Contains(p, []byte(protocol.NotifyResourceUpdated)) {
		select {
		case w.written <- bytes.Clone(p):
		default:
		}
	}
	return n, err
}

// Flush keeps the stream an SSE stream: mcp-go streams only to a writer
// that flushes.
func (w *updateWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestCheckSubscriptionRows: each subscription rule broken on purpose (a
// simulated server's --subscription-fault) fails exactly its row; a
// clean simulated server and the official Go SDK's pass every row in
// both eras (the ids row n/a in the handshake era, which has none);
// mcp-go, whose changes go to every session, fails the unsubscribe row; a
// server without sessions cannot take a legacy subscription: n/a.
func TestCheckSubscriptionRows(t *testing.T) {
	const pass, fail, skip, na = results.CheckPass, results.CheckFail, results.CheckSkip, results.CheckNA
	legacy := protocol.V20251125
	all := func(ack, ids, types, uri, stops results.CheckStatus) map[string]results.CheckStatus {
		return map[string]results.CheckStatus{rowSubAck: ack, rowSubIDs: ids, rowSubTypes: types, rowSubURI: uri, rowSubStopped: stops}
	}
	for _, c := range []struct {
		name  string
		serve func(t *testing.T) string
		proto string
		want  map[string]results.CheckStatus
	}{
		{"clean 2026", simSub(simserver.Options{}), "auto", all(pass, pass, pass, pass, pass)},
		{"clean legacy", simSub(simserver.Options{Stateful: true}), legacy, all(pass, na, pass, pass, pass)},
		{"stateless legacy: no session to subscribe on", simSub(simserver.Options{}), legacy, all(na, na, na, na, na)},
		{"no_ack", simSub(simserver.Options{SubscriptionFault: simserver.WireNoAck}), "auto", all(fail, skip, skip, skip, skip)},
		{"notify_before_ack", simSub(simserver.Options{SubscriptionFault: simserver.WireNotifyBeforeAck}), "auto", all(fail, pass, pass, pass, pass)},
		{"wrong_subscription_id", simSub(simserver.Options{SubscriptionFault: simserver.WireWrongSubscriptionID}), "auto", all(pass, fail, pass, pass, pass)},
		{"unrequested", simSub(simserver.Options{SubscriptionFault: simserver.WireUnrequested}), "auto", all(pass, pass, fail, pass, pass)},
		{"other_uri 2026", simSub(simserver.Options{SubscriptionFault: simserver.WireOtherURI}), "auto", all(pass, pass, pass, fail, pass)},
		{"other_uri legacy", simSub(simserver.Options{Stateful: true, SubscriptionFault: simserver.WireOtherURI}), legacy, all(pass, na, pass, fail, pass)},
		{"ignore_unsubscribe legacy", simSub(simserver.Options{Stateful: true, SubscriptionFault: simserver.WireIgnoreUnsubscribe}), legacy, all(pass, na, pass, pass, fail)},
		{"Go SDK 2026", sdkSub(true), "auto", all(pass, pass, pass, pass, pass)},
		{"Go SDK legacy", sdkSub(false), legacy, all(pass, na, pass, pass, pass)},
		// mcp-go announces a change to every session: after the
		// unsubscribe it still tells of the first document.
		{"mcp-go legacy", mcpGoSub, legacy, all(pass, na, pass, pass, fail)},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := Check(ctx, Options{Target: targets.Target{Kind: targets.HTTP, Address: c.serve(t)}, Protocol: c.proto, Sample: 1, Timeout: 3 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]results.Check{}
			for _, r := range rep.Checks {
				if _, ok := c.want[r.Name]; ok {
					if _, twice := got[r.Name]; twice {
						t.Errorf("row %s twice", r.Name)
					}
					got[r.Name] = r
				}
			}
			for name, st := range c.want {
				if r, ok := got[name]; !ok || r.Status != st {
					t.Errorf("%s: %s (%s), want %s", name, r.Status, r.Detail, st)
				}
			}
		})
	}
}
