package driver

import (
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// The driver is also tested against github.com/mark3labs/mcp-go, the other
// widely used Go MCP server library: the same peertest.Docs, the same
// assertions (checkSDKRun), over Streamable HTTP, stdio and the legacy
// HTTP+SSE transport.

func TestRunAgainstMCPGoHTTP(t *testing.T) {
	cases := []struct {
		name, proto, want string
		opts              []server.StreamableHTTPOption
	}{
		{"default-auto", "auto", protocol.V20260728, nil},
		{"stateful-auto", "auto", protocol.V20260728, []server.StreamableHTTPOption{server.WithStateful(true)}}, // dual-era: modern requests are served statelessly
		// A server limited to handshake versions answers the modern probe with
		// 400 and UnsupportedProtocolVersion: readbench initializes with the
		// newest version the error lists.
		{"handshake-only-auto", "auto", protocol.V20250618, []server.StreamableHTTPOption{server.WithStateful(true), server.WithStreamableHTTPProtocolVersions(protocol.V20250618, protocol.V20250326)}},
		{"stateful-2025-03-26", protocol.V20250326, protocol.V20250326, []server.StreamableHTTPOption{server.WithStateful(true)}},
		{"stateless-2025-06-18", protocol.V20250618, protocol.V20250618, []server.StreamableHTTPOption{server.WithStateLess(true)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // correctness, not timing: peers may share the machine
			hs := peertest.ServeLocal(t, server.NewStreamableHTTPServer(peertest.MCPGoServer(), c.opts...))
			checkSDKRun(t, runSDK(t, sdkWorkload(t, hs.URL+"/mcp", c.proto)), c.want)
		})
	}
}

func TestRunAgainstMCPGoStdio(t *testing.T) {
	exe := peertest.Command(t, peertest.MCPGoStdio)[0]
	for _, c := range []struct{ proto, want string }{
		{"auto", protocol.V20260728},
		{protocol.V20251125, protocol.V20251125},
		{protocol.V20241105, protocol.V20241105},
	} {
		t.Run(c.proto, func(t *testing.T) {
			checkSDKRun(t, runSDK(t, sdkWorkload(t, "stdio:"+exe, c.proto)), c.want)
		})
	}
}

func TestRunAgainstMCPGoSSE(t *testing.T) {
	for _, c := range []struct{ proto, want string }{
		{"auto", protocol.V20241105},
		{protocol.V20250618, protocol.V20250618},
	} {
		t.Run(c.proto, func(t *testing.T) {
			t.Parallel() // correctness, not timing: peers may share the machine
			hs := peertest.ServeLocal(t, server.NewSSEServer(peertest.MCPGoServer()))
			checkSDKRun(t, runSDK(t, sdkWorkload(t, "sse+"+hs.URL+"/sse", c.proto)), c.want)
		})
	}
}
