package driver

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/readbench/readbench/protocol"
)

// The driver is also tested against github.com/mark3labs/mcp-go, the other
// widely used Go MCP server library: the same sdkDocs, the same assertions
// (checkSDKRun), over Streamable HTTP, stdio and the legacy HTTP+SSE
// transport.

// newMCPGoServer serves sdkDocs under the name and version checkSDKRun
// expects, with the same small delay as the SDK peer.
func newMCPGoServer() *server.MCPServer {
	s := server.NewMCPServer("sdk-peer", "9.9.9", server.WithResourceCapabilities(false, false))
	for i, d := range sdkDocs {
		content := sdkContent(i)
		s.AddResource(mcpgo.NewResource(d.uri, d.uri, mcpgo.WithMIMEType(d.mime)), func(ctx context.Context, _ mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			select {
			case <-time.After(2 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if d.binary {
				return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: d.uri, MIMEType: d.mime, Blob: base64.StdEncoding.EncodeToString(content)}}, nil
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: d.uri, MIMEType: d.mime, Text: string(content)}}, nil
		})
	}
	return s
}

// serveMCPGoStdio is the child side of TestRunAgainstMCPGoStdio: TestMain
// runs it when the test binary is re-executed as the mcp-go peer.
func serveMCPGoStdio() int {
	if err := server.NewStdioServer(newMCPGoServer()).Listen(context.Background(), os.Stdin, os.Stdout); err != nil && err != context.Canceled {
		fmt.Fprintln(os.Stderr, "mcp-go peer:", err)
		return 1
	}
	return 0
}

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
			hs := serveLocal(t, server.NewStreamableHTTPServer(newMCPGoServer(), c.opts...))
			checkSDKRun(t, runSDK(t, sdkWorkload(t, hs.URL+"/mcp", c.proto)), c.want)
		})
	}
}

func TestRunAgainstMCPGoStdio(t *testing.T) {
	t.Setenv(sdkPeerEnv, mcpgoStdioPeer)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
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
			hs := serveLocal(t, server.NewSSEServer(newMCPGoServer()))
			checkSDKRun(t, runSDK(t, sdkWorkload(t, "sse+"+hs.URL+"/sse", c.proto)), c.want)
		})
	}
}

// TestNonASCIIURIAgainstMCPGo reads a URI that needs the base64 sentinel
// in Mcp-Name from mcp-go's modern Streamable HTTP server, which decodes
// the header and checks it against the body, as the specification says.
func TestNonASCIIURIAgainstMCPGo(t *testing.T) {
	s := server.NewMCPServer("sdk-peer", "9.9.9", server.WithResourceCapabilities(false, false))
	s.AddResource(mcpgo.NewResource(nonASCIIURI, "café", mcpgo.WithMIMEType("text/markdown")), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: nonASCIIURI, MIMEType: "text/markdown", Text: "# Café\n"}}, nil
	})
	hs := serveLocal(t, server.NewStreamableHTTPServer(s))
	sess := &session{t: newHTTPTransport(hs.URL+"/mcp", nil)}
	defer sess.close()
	if err := sess.handshake(context.Background(), "auto"); err != nil || !sess.modern {
		t.Fatalf("handshake: %v (modern %v)", err, sess.modern)
	}
	mustRead(t, sess, nonASCIIURI)
}
