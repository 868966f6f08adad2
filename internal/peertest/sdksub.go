package peertest

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SDKSubscribeServer is the official Go SDK's server named name, with
// uris as text/plain resources, subscriptions on in both eras (its
// SubscribeHandler for resources/subscribe, and subscriptions/listen) and
// a tool touch {uri} that announces a change of uri with
// Server.ResourceUpdated: the peer no one here wrote on which the
// subscription tests of the client, the contract check and the command
// line change documents.
func SDKSubscribeServer(name string, uris ...string) *mcp.Server {
	return SDKSubscribeServerScoped(name, "", uris...)
}

// SDKSubscribeServerScoped is SDKSubscribeServer whose resources/read
// answers (2026-07-28) carry cacheScope scope ("public" or "private"),
// set with the SDK's own ServerOptions.SetCacheable; "" leaves the SDK's
// default, public. The re-read tests use it to see what a cache honouring
// the scope saves, against a server no one here wrote.
func SDKSubscribeServerScoped(name, scope string, uris ...string) *mcp.Server {
	var s *mcp.Server
	opts := &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	}
	if scope != "" {
		opts.SetCacheable = func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			if _, ok := req.(*mcp.ReadResourceRequest); ok {
				c.CacheScope = scope
			}
		}
	}
	s = mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, opts)
	for _, u := range uris {
		s.AddResource(&mcp.Resource{URI: u, Name: u, MIMEType: "text/plain"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "v"}}}, nil
		})
	}
	type touchArgs struct {
		URI string `json:"uri"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "touch", Description: "announce a change of uri"}, func(ctx context.Context, _ *mcp.CallToolRequest, a touchArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: a.URI})
	})
	return s
}
