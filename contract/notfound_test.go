package contract

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

// tableServer is the official Go SDK's server shaped like an sqlite MCP
// server: two listed tables (sqlite://main/TABLE/schema) and their
// template, and a template videos://{id} whose variable is the whole
// authority. A missing table or video is answered as missing says:
// "internal" answers -32603 "Table … not found" (what sqlite and video
// servers send), "sdk" the SDK's own ResourceNotFoundError.
func tableServer(missing string, stateless bool) func(t *testing.T) string {
	return func(t *testing.T) string {
		s := mcp.NewServer(&mcp.Implementation{Name: "tables", Version: "1.0.0"}, &mcp.ServerOptions{HasResources: true})
		answer := func(uri, what, name string) error {
			if missing == "sdk" {
				return mcp.ResourceNotFoundError(uri)
			}
			return &jsonrpc.Error{Code: protocol.CodeInternal, Message: fmt.Sprintf("%s %s not found", what, name)}
		}
		json := func(uri, text string) *mcp.ReadResourceResult {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: text}}}
		}
		table := func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			name := strings.TrimSuffix(strings.TrimPrefix(r.Params.URI, "sqlite://main/"), "/schema")
			if name != "users" && name != "orders" {
				return nil, answer(r.Params.URI, "Table", name)
			}
			return json(r.Params.URI, `[{"name":"id","type":"INTEGER"}]`), nil
		}
		for _, name := range []string{"users", "orders"} {
			uri := "sqlite://main/" + name + "/schema"
			s.AddResource(&mcp.Resource{URI: uri, Name: name, MIMEType: "application/json"}, table)
		}
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "sqlite://main/{table}/schema", Name: "schema", MIMEType: "application/json"}, table)
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "videos://{id}", Name: "video", MIMEType: "application/json"},
			func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				if id := strings.TrimPrefix(r.Params.URI, "videos://"); id != "42" {
					return nil, answer(r.Params.URI, "Video", id)
				}
				return json(r.Params.URI, `{"title":"launch"}`), nil
			})
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
		return peertest.ServeLocal(t, h).URL + "/mcp"
	}
}

// mcpGoVideos is mcp-go's server with one listed page and the template
// videos://{id}; a missing video is answered with the handler's error
// missing, which mcp-go 1.2.1 sends as -32603 whatever it is (its router
// answers a URI no template matches with the era's not-found code).
func mcpGoVideos(missing error) func(t *testing.T) string {
	return func(t *testing.T) string {
		s := mcpgoserver.NewMCPServer("videos", "1.0.0", mcpgoserver.WithResourceCapabilities(false, false))
		s.AddResource(mcpgo.NewResource("docs://guide/page.md", "page", mcpgo.WithMIMEType("text/markdown")),
			func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
				return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "docs://guide/page.md", MIMEType: "text/markdown", Text: "# Page\n"}}, nil
			})
		s.AddResourceTemplate(mcpgo.NewResourceTemplate("videos://{id}", "video", mcpgo.WithTemplateMIMEType("application/json")),
			func(_ context.Context, r mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
				if r.Params.URI != "videos://42" {
					return nil, missing
				}
				return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: r.Params.URI, MIMEType: "application/json", Text: `{"title":"launch"}`}}, nil
			})
		return peertest.ServeLocal(t, mcpgoserver.NewStreamableHTTPServer(s)).URL + "/mcp"
	}
}

// anyEcho is the Go SDK's server with one opaque listed resource (no
// segment to change) and a template every instance of which exists.
func anyEcho(t *testing.T) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1.0.0"}, nil)
	s.AddResource(&mcp.Resource{URI: "urn:readbench:page", Name: "page", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "urn:readbench:page", MIMEType: "text/plain", Text: "page"}}}, nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "echo://{text}", Name: "echo", MIMEType: "text/plain"},
		func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: r.Params.URI}}}, nil
		})
	return peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)).URL + "/mcp"
}

// uriRow is one row a check must have: its name and URI, its status and a
// part of its detail.
type uriRow struct {
	name, uri string
	status    results.CheckStatus
	detail    string
}

// TestNotFoundUnderTemplates: the not-found rows judge the code a host
// gets for a missing resource under the server's own templates. A server
// whose template answers -32603 "Table … not found" (a run counts it
// internal) fails the shaped probe, and the generic probe's -32602 (the
// SDK's router: no template matches readbench's own URI) no longer
// passes on its own; a template whose variable is the authority
// (videos://{id}) gets a probe too. A server that answers a missing
// resource the SDK's way (ResourceNotFoundError) passes in both eras;
// mcp-go 1.2.1, which sends any error of a template's handler as -32603
// (its own ErrResourceNotFound too), fails as the sqlite-like server
// does. A template every instance of which exists cannot be probed, and
// the generic -32602 it leaves alone is a skip, not a pass.
func TestNotFoundUnderTemplates(t *testing.T) {
	const (
		table  = "sqlite://main/readbench-no-such-7f3a9c/schema"
		video  = "videos://readbench-no-such-7f3a9c"
		legacy = "a " + protocol.LatestLegacy + " server answers -32002"
	)
	internal := func(what, era string) string {
		return `error -32603 "` + what + ` readbench-no-such-7f3a9c not found"; ` + era + "; a run counts this answer internal, not not_found"
	}
	const modern = "a 2026-07-28 server answers -32602 (-32002 is retired)"
	cases := []struct {
		name  string
		serve func(t *testing.T) string
		opts  Options
		fail  []string
		rows  []uriRow
	}{
		{name: "sqlite-like -32603, handshake era", serve: tableServer("internal", false), opts: Options{TemplateValues: map[string]string{"id": "42"}},
			fail: []string{"not-found error", "not-found shaped"},
			rows: []uriRow{
				{"not-found error", "sqlite://main/readbench-check/no-such-resource-7f3a9c", results.CheckFail,
					"a missing resource of the server's own shape gets error -32603 \"Table readbench-no-such-7f3a9c not found\" (" + table + ")"},
				{"not-found shaped", table, results.CheckFail, internal("Table", legacy)},
				{"not-found shaped", video, results.CheckFail, internal("Video", legacy)},
				{"template read", "videos://{id}", results.CheckPass, "read videos://42"},
			}},
		{name: "sqlite-like -32603, 2026-07-28", serve: tableServer("internal", true),
			fail: []string{"not-found error", "not-found shaped"},
			rows: []uriRow{
				{"not-found error", "sqlite://main/readbench-check/no-such-resource-7f3a9c", results.CheckFail, `error -32602 "Resource not found"; but a missing resource`},
				{"not-found shaped", table, results.CheckFail, internal("Table", modern)},
				{"not-found shaped", video, results.CheckFail, internal("Video", modern)},
			}},
		{name: "SDK ResourceNotFoundError, handshake era", serve: tableServer("sdk", false),
			rows: []uriRow{
				{"not-found error", "sqlite://main/readbench-check/no-such-resource-7f3a9c", results.CheckPass, "probes of the server's own shapes got a not-found error too"},
				{"not-found shaped", table, results.CheckPass, `error -32602 "Resource not found" (-32602, as the SDKs answer`},
				{"not-found shaped", video, results.CheckPass, `error -32602 "Resource not found"`},
			}},
		{name: "SDK ResourceNotFoundError, 2026-07-28", serve: tableServer("sdk", true),
			rows: []uriRow{
				{"not-found error", "sqlite://main/readbench-check/no-such-resource-7f3a9c", results.CheckPass, `error -32602 "Resource not found"`},
				{"not-found shaped", table, results.CheckPass, `error -32602 "Resource not found"`},
				{"not-found shaped", video, results.CheckPass, `error -32602 "Resource not found"`},
			}},
		{name: "mcp-go handler error, 2026-07-28", serve: mcpGoVideos(errors.New("no such video")),
			fail: []string{"not-found error", "not-found shaped"},
			rows: []uriRow{
				{"not-found error", "docs://guide/readbench-check/no-such-resource-7f3a9c", results.CheckFail, `gets error -32603 "no such video" (` + video + ")"},
				{"not-found shaped", video, results.CheckFail, `error -32603 "no such video"; a 2026-07-28 server answers -32602 (-32002 is retired); a run counts this answer internal`},
				{"not-found shaped", "docs://guide/readbench-no-such-7f3a9c.md", results.CheckPass, "-32602"},
			}},
		// mcp-go 1.2.1 sends any error of a template's handler as -32603,
		// its own ErrResourceNotFound too: a host gets internal.
		{name: "mcp-go ErrResourceNotFound from a template handler", serve: mcpGoVideos(mcpgoserver.ErrResourceNotFound),
			fail: []string{"not-found error", "not-found shaped"},
			rows: []uriRow{
				{"not-found error", "docs://guide/readbench-check/no-such-resource-7f3a9c", results.CheckFail, `gets error -32603 "resource not found" (` + video + ")"},
				{"not-found shaped", video, results.CheckFail, `error -32603 "resource not found"; a 2026-07-28 server answers -32602 (-32002 is retired); a run counts this answer internal`},
			}},
		{name: "template of which every instance exists", serve: anyEcho,
			rows: []uriRow{
				{"not-found error", "urn:readbench-check/no-such-resource-7f3a9c", results.CheckSkip,
					"matches none of the server's templates: it may be the router's answer for a URI no template matches"},
				{"not-found shaped", "echo://readbench-no-such-7f3a9c", results.CheckSkip, "every instance of this template may exist"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			o := tc.opts
			o.Target = targets.Target{Kind: targets.HTTP, Address: tc.serve(t)}
			rep, err := Check(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, c := range rep.Checks {
				t.Logf("%-24s %-4s %s %s", c.Name, c.Status, c.URI, c.Detail)
				if c.Status == results.CheckFail && !slices.Contains(failed, c.Name) {
					failed = append(failed, c.Name)
				}
			}
			if !slices.Equal(failed, tc.fail) {
				t.Errorf("failed %v, want %v", failed, tc.fail)
			}
			for _, w := range tc.rows {
				i := slices.IndexFunc(rep.Checks, func(c results.Check) bool { return c.Name == w.name && c.URI == w.uri })
				switch {
				case i < 0:
					t.Errorf("no %s row for %s", w.name, w.uri)
				case rep.Checks[i].Status != w.status || !strings.Contains(rep.Checks[i].Detail, w.detail):
					t.Errorf("%s %s: %s %q, want %s with %q", w.name, w.uri, rep.Checks[i].Status, rep.Checks[i].Detail, w.status, w.detail)
				}
			}
		})
	}
}
