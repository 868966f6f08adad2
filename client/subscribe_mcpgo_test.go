package client

import (
	"context"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// TestSubscribeMCPGo subscribes to mcp-go's server (v1.2.1, legacy
// resources/subscribe over Streamable HTTP and its standalone GET stream).
// mcp-go's default subscribe handler tracks no subscriber, so a change
// announced with SendNotificationToAllClients reaches every session: a
// real server that sends an uri the session never subscribed to
// (flagged UnsubscribedURI) and keeps sending after the unsubscribe
// (counted by Unrouted, never delivered).
func TestSubscribeMCPGo(t *testing.T) {
	srv := server.NewMCPServer("mcpgo-sub-peer", "1.0.0", server.WithResourceCapabilities(true, false))
	for _, u := range []string{subURI, otherURI} {
		srv.AddResource(mcpgo.NewResource(u, u, mcpgo.WithMIMEType("text/plain")), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: u, MIMEType: "text/plain", Text: "v"}}, nil
		})
	}
	url := peertest.ServeLocal(t, server.NewStreamableHTTPServer(srv)).URL + "/mcp"
	s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, protocol.V20251125)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := newCollector()
	sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, c.on)
	if err != nil {
		t.Fatal(err)
	}
	if sent, ack := sub.AckTimes(); !ack.After(sent) {
		t.Errorf("ack at %v, sent at %v", ack, sent)
	}
	touch := func(uri string) {
		srv.SendNotificationToAllClients(protocol.NotifyResourceUpdated, map[string]any{"uri": uri})
	}
	touch(subURI)
	if n := c.await(t, protocol.NotifyResourceUpdated, subURI, 10*time.Second); n.Flags != 0 {
		t.Errorf("flags %s on a notification of a subscribed uri", n.Flags)
	}
	touch(otherURI)
	if n := c.await(t, protocol.NotifyResourceUpdated, otherURI, 10*time.Second); n.Flags != UnsubscribedURI {
		t.Errorf("flags %q on a notification of an uri not subscribed, want unsubscribed-uri", n.Flags)
	}
	if err := sub.Close(ctx); err != nil {
		t.Fatal(err)
	}
	before := len(c.all())
	touch(subURI)
	deadline := time.Now().Add(10 * time.Second)
	for s.Unrouted().NoSubscription == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if u := s.Unrouted(); u.NoSubscription != 1 {
		t.Errorf("Unrouted = %+v, want the notification after the unsubscribe counted", u)
	}
	if after := c.all(); len(after) != before {
		t.Errorf("delivered after Close: %+v", after[before:])
	}
}
