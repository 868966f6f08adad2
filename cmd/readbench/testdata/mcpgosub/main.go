// Command mcpgosub is mcp-go's server (github.com/mark3labs/mcp-go) over
// stdio with two resources, legacy resources/subscribe, and the tool
// touch {uri}, which announces a change of uri to the session: the stdio
// peer of listen_peers_test.go (TestListenMCPGo), built by the test.
package main

import (
	"context"
	"fmt"
	"os"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	srv := server.NewMCPServer("mcpgo-listen-peer", "1.0.0", server.WithResourceCapabilities(true, false), server.WithToolCapabilities(false))
	for _, u := range []string{"docs://watched/a", "docs://watched/b"} {
		srv.AddResource(mcpgo.NewResource(u, u, mcpgo.WithMIMEType("text/plain")), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: u, MIMEType: "text/plain", Text: "v"}}, nil
		})
	}
	srv.AddTool(mcpgo.NewTool("touch", mcpgo.WithString("uri", mcpgo.Required())), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		srv.SendNotificationToAllClients("notifications/resources/updated", map[string]any{"uri": req.GetString("uri", "")})
		return mcpgo.NewToolResultText("ok"), nil
	})
	if err := server.ServeStdio(srv); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgosub:", err)
		os.Exit(1)
	}
}
