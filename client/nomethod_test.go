package client

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// TestServersWithoutResources: what real servers that serve no resources
// answer a read, and what it is classified as. The official Go SDK's
// server handles resources/read whatever it serves, and answers a URI it
// has not got with -32602 "Resource not found": not found. mcp-go's server without resource
// capabilities has no resources/read and answers -32601 "resources not
// supported": method not found, its words notwithstanding (the TypeScript
// SDK's -32601 "Method not found", which says "not found", is run end to
// end in cmd/readbench).
func TestServersWithoutResources(t *testing.T) {
	sdk := mcp.NewServer(&mcp.Implementation{Name: peertest.Name, Version: peertest.Version}, nil)
	sdkURL := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk }, nil)).URL
	mcpgo := server.NewMCPServer(peertest.Name, peertest.Version, server.WithToolCapabilities(false))
	mcpgoURL := peertest.ServeLocal(t, server.NewStreamableHTTPServer(mcpgo)).URL + "/mcp"
	for _, c := range []struct {
		name, url string
		code      int
		want      stats.Outcome
	}{
		{"go-sdk", sdkURL, -32602, stats.NotFound},
		{"mcp-go", mcpgoURL, -32601, stats.MethodNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, _, err := Connect(ctx, Dial{Target: targets.Target{Kind: targets.HTTP, Address: c.url}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			a, err := s.testRead(ctx, "docs://readme")
			if err != nil {
				t.Fatal(err)
			}
			if a.read.Code != c.code || a.read.Outcome != c.want {
				t.Errorf("code %d, kind %v (%s); want %d, %v", a.read.Code, a.read.Outcome, a.read.Detail, c.code, c.want)
			}
		})
	}
}
