package contract

import (
	"context"
	"net/http"
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
func mcpGoSub(t *testing.T) string {
	srv := server.NewMCPServer("mcpgo-sub", "1.0.0", server.WithResourceCapabilities(true, false), server.WithToolCapabilities(false))
	for _, u := range []string{"docs://sub/a", "docs://sub/b"} {
		srv.AddResource(mcpgo.NewResource(u, u, mcpgo.WithMIMEType("text/plain")), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: u, MIMEType: "text/plain", Text: "v"}}, nil
		})
	}
	srv.AddTool(mcpgo.NewTool("touch", mcpgo.WithString("uri", mcpgo.Required())), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		// Once the call's request is over: a notification sent during it
		// may ride on the call's own response stream, where mcp-go puts
		// what a session is sent while a request of it is open.
		go func() {
			<-ctx.Done()
			srv.SendNotificationToAllClients(protocol.NotifyResourceUpdated, map[string]any{"uri": req.GetString("uri", "")})
		}()
		return mcpgo.NewToolResultText("ok"), nil
	})
	return peertest.ServeLocal(t, server.NewStreamableHTTPServer(srv)).URL + "/mcp"
}

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
