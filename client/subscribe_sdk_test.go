package client

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// Subscriptions against the official Go SDK's server (v1.8.0), which
// implements both eras: resources/subscribe with its SubscribeHandler, and
// subscriptions/listen. A change is the SDK's own Server.ResourceUpdated,
// called in the test (HTTP, in process) or by the peer's touch tool
// (stdio, a child process).

// Resources of the subscription peers.
const (
	subURI   = "docs://sub/a"
	otherURI = "docs://sub/b"
)

// sdkSubStdioPeer is the SDK subscription server as a stdio child.
const sdkSubStdioPeer = "sdk-sub-stdio"

// sdkSubServer is the SDK's server with two resources, subscriptions on,
// and a tool touch {uri} that announces a change of uri.
func sdkSubServer() *mcp.Server { return peertest.SDKSubscribeServer("sdk-sub-peer", subURI, otherURI) }

// serveSDKSubStdio is the stdio peer of sdkSubServer.
func serveSDKSubStdio() int {
	if err := sdkSubServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "sdk sub peer:", err)
		return 1
	}
	return 0
}

// collector gathers what a subscription delivers, for tests.
type collector struct {
	mu  sync.Mutex
	got []Notification
	ch  chan Notification
}

func newCollector() *collector { return &collector{ch: make(chan Notification, 256)} }

func (c *collector) on(n Notification) {
	c.mu.Lock()
	c.got = append(c.got, n)
	c.mu.Unlock()
	select {
	case c.ch <- n:
	default:
	}
}

func (c *collector) all() []Notification {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Notification(nil), c.got...)
}

// await returns the first notification delivered from now on of method
// (and uri, when set), failing the test after within.
func (c *collector) await(t *testing.T, method, uri string, within time.Duration) Notification {
	t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		select {
		case n := <-c.ch:
			if n.Method == method && (uri == "" || n.URI == uri) {
				return n
			}
		case <-deadline.C:
			t.Fatalf("no %s %s within %s; got %+v", method, uri, within, c.all())
		}
	}
}

// drain forgets what is queued.
func (c *collector) drain() {
	for {
		select {
		case <-c.ch:
		default:
			return
		}
	}
}

// checkSubscription runs the common assertions on an open session: an
// acknowledged subscription to subURI, a notification of its change with
// the right uri (and subscriptionId in 2026-07-28), none after Close.
// touch announces a change of a uri.
func checkSubscription(t *testing.T, s *Session, touch func(uri string)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := newCollector()
	sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, c.on)
	if err != nil {
		t.Fatalf("Subscribe (%s): %v", s.ProtocolVersion(), err)
	}
	sent, ack := sub.AckTimes()
	if !ack.After(sent) {
		t.Errorf("ack at %v, sent at %v: want a positive acknowledgement latency", ack, sent)
	}
	if got := sub.Acked().ResourceSubscriptions; len(got) != 1 || got[0] != subURI {
		t.Errorf("Acked = %v, want [%s]", got, subURI)
	}
	touch(subURI)
	n := c.await(t, protocol.NotifyResourceUpdated, subURI, 10*time.Second)
	if n.Flags != 0 {
		t.Errorf("notification flagged %s: %+v", n.Flags, n)
	}
	if n.At.Before(ack) {
		t.Errorf("arrival %v before the ack %v", n.At, ack)
	}
	if s.Modern() && !sameID(n.SubscriptionID, sub.ID()) {
		t.Errorf("subscriptionId %s, want %d", n.SubscriptionID, sub.ID())
	}
	if err := sub.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if e := sub.End(); e.Reason != EndClosed {
		t.Errorf("End = %+v, want closed", e)
	}
	before := len(c.all())
	touch(subURI)
	time.Sleep(300 * time.Millisecond) // a notification that should not come: give it time to show
	if after := c.all(); len(after) != before {
		t.Errorf("notifications after Close: %+v", after[before:])
	}
}

// TestSubscribeSDKHTTP subscribes to the Go SDK's server over Streamable
// HTTP: stateless in 2026-07-28 (subscriptions/listen, its POST's SSE
// stream), stateful in the handshake era (resources/subscribe, the
// standalone GET stream).
func TestSubscribeSDKHTTP(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stateless bool
		protocol  string
	}{
		{"2026-07-28", true, protocol.V20260728},
		{"2025-11-25", false, protocol.V20251125},
		{"2025-06-18", false, protocol.V20250618},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := sdkSubServer()
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: tc.stateless})
			url := peertest.ServeLocal(t, h).URL + "/mcp"
			s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, tc.protocol)
			checkSubscription(t, s, func(uri string) {
				_ = srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
			})
		})
	}
}

// TestSubscribeSDKStdio subscribes to the Go SDK's server as a stdio
// child, in both eras: the change is its touch tool.
func TestSubscribeSDKStdio(t *testing.T) {
	for _, version := range []string{protocol.V20260728, protocol.V20251125} {
		t.Run(version, func(t *testing.T) {
			s := connectSub(t, targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, sdkSubStdioPeer)}, version)
			checkSubscription(t, s, func(uri string) { touchTool(t, s, uri) })
		})
	}
}

// TestSubscribeSDKSSE subscribes over the Go SDK's HTTP+SSE transport
// (2024-11-05): the notifications come on the session's one stream.
func TestSubscribeSDKSSE(t *testing.T) {
	srv := sdkSubServer()
	url := peertest.ServeLocal(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)).URL
	s := connectSub(t, targets.Target{Kind: targets.SSE, Address: url}, "auto")
	checkSubscription(t, s, func(uri string) {
		_ = srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
	})
}

// connectSub opens a session with the protocol forced (or "auto"),
// closed when the test ends.
func connectSub(t *testing.T, target targets.Target, version string) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, _, err := Connect(ctx, Dial{Target: target, Protocol: version, Client: Implementation{Name: "readbench-test", Version: "1"}})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if version != "auto" && s.ProtocolVersion() != version {
		t.Fatalf("speaking %s, want %s", s.ProtocolVersion(), version)
	}
	return s
}

// touchTool calls the peer's touch tool for uri.
func touchTool(t *testing.T, s *Session, uri string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var res map[string]any
	if err := s.Call(ctx, protocol.MethodToolsCall, map[string]any{"name": "touch", "arguments": map[string]any{"uri": uri}}, &res); err != nil {
		t.Fatalf("touch %s: %v", uri, err)
	}
}
