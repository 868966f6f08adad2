package contract

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

// toolsOnlyServer is the official Go SDK's server with one tool and no
// resources: its initialize declares tools and no resources capability.
func toolsOnlyServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "tools-only", Version: "1.0.0"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes its text"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
	})
	return s
}

// TestCheckToolsOnlyServer: a server that declares no resources
// capability is reported so once, its resource rows are not applicable
// with that reason, and nothing fails (the check used to fail four rows).
func TestCheckToolsOnlyServer(t *testing.T) {
	s := toolsOnlyServer()
	url := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)).URL + "/mcp"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := Check(ctx, Options{Target: targets.Target{Kind: targets.HTTP, Address: url}})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]results.CheckStatus{}
	for _, c := range rep.Checks {
		t.Logf("%-16s %-4s %s %s", c.Name, c.Status, c.URI, c.Detail)
		status[c.Name] = c.Status
		if c.Status == results.CheckNA && !strings.Contains(c.Detail, "declares no") && !strings.Contains(c.Detail, "no tool named read") {
			t.Errorf("%s: n/a without the reason: %q", c.Name, c.Detail)
		}
	}
	if rep.Failed() {
		t.Error("a server without resources fails the check")
	}
	for _, name := range []string{"capabilities", "resources/list", "read", "not-found error", "malformed uri", "cancellation", "read tool"} {
		if status[name] != results.CheckNA {
			t.Errorf("%s: %q, want n/a", name, status[name])
		}
	}
	if n := strings.Count(fmtChecks(rep), "the server declares no resources capability ("); n != 1 {
		t.Errorf("the missing capability is stated %d times in full, want once", n)
	}
}

func fmtChecks(rep *Findings) string {
	var b strings.Builder
	for _, c := range rep.Checks {
		b.WriteString(c.Name + " " + c.Detail + "\n")
	}
	return b.String()
}
