package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// startTables serves the official Go SDK's server shaped like an sqlite
// MCP server (stateful Streamable HTTP, the handshake era): the tables
// users and orders listed as sqlite://main/TABLE/schema, and their
// template. A missing table is answered -32603 "Table … not found" (as
// sqlite servers do) or, with sdk, the SDK's ResourceNotFoundError.
func startTables(t *testing.T, sdk bool) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tables", Version: "1.0.0"}, nil)
	table := func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		name := strings.TrimSuffix(strings.TrimPrefix(r.Params.URI, "sqlite://main/"), "/schema")
		switch {
		case name == "users" || name == "orders":
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, MIMEType: "application/json", Text: `[{"name":"id"}]`}}}, nil
		case sdk:
			return nil, mcp.ResourceNotFoundError(r.Params.URI)
		}
		return nil, &jsonrpc.Error{Code: -32603, Message: fmt.Sprintf("Table %s not found", name)}
	}
	for _, name := range []string{"users", "orders"} {
		s.AddResource(&mcp.Resource{URI: "sqlite://main/" + name + "/schema", Name: name, MIMEType: "application/json"}, table)
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "sqlite://main/{table}/schema", Name: "schema", MIMEType: "application/json"}, table)
	return peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)).URL + "/mcp"
}

// TestCheckAndRunAgreeOnAMissingTable: check and run judge the same
// answer for a missing table alike. A server whose template answers
// -32603 fails check's not-found rows (which say a run counts it
// internal), and a run with expect: not_found on that URI counts it
// internal, never expected; a server that answers the SDK's
// ResourceNotFoundError passes both rows, and the run meets expect.
func TestCheckAndRunAgreeOnAMissingTable(t *testing.T) {
	t.Parallel()
	const missing = "sqlite://main/readbench-no-such-7f3a9c/schema"
	for _, c := range []struct {
		name    string
		sdk     bool
		status  string
		detail  string
		outcome string
	}{
		{"-32603", false, "fail", `error -32603 "Table readbench-no-such-7f3a9c not found"; a 2025-11-25 server answers -32002; a run counts this answer internal`, "internal"},
		{"ResourceNotFoundError", true, "pass", `error -32602 "Resource not found"`, "expected_error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			target := startTables(t, c.sdk)
			d, code, stderr := runCheck(t, "--target", target)
			d.expectRow(t, readRow{"not-found shaped", missing, c.status, c.detail})
			d.expect(t, "not-found error", c.status, "")
			if wantCode := map[string]int{"pass": 0, "fail": 1}[c.status]; code != wantCode {
				t.Errorf("check exit %d, want %d: %s", code, wantCode, stderr)
			}
			r, _ := runFor(t, target, fmt.Sprintf(`
name: missing-table
load: {rate: 20/s, turns: 6}
turn: {attachments: 2, read_timeout: 5s}
mix:
  - {class: users, uri: "sqlite://main/users/schema"}
  - {class: missing, uri: %q, expect: not_found}
`, missing), time.Minute)
			for _, cl := range r.Classes {
				if cl.Class != "missing" {
					continue
				}
				if n := cl.Outcomes[c.outcome]; n == 0 || n != sumOutcomes(cl.Outcomes) {
					t.Errorf("missing: outcomes %v, want every read %s", cl.Outcomes, c.outcome)
				}
			}
		})
	}
}
