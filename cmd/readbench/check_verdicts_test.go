package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// TestCheckToolsOnlyServer: the official Go SDK serving only tools
// declares no resources capability. The check says so once, gives every
// row that depends on it "n/a" with the reason, and exits 0 (it used to
// fail four rows).
func TestCheckToolsOnlyServer(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "tools-only", Version: "1.0.0"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes its text"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
	})
	url := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)).URL + "/mcp"
	d, code, stderr := runCheck(t, "--target", url)
	if code != 0 || !d.Pass || d.Summary.Fail != 0 {
		t.Errorf("exit %d, summary %+v: %s", code, d.Summary, stderr)
	}
	d.expect(t, "capabilities", "n/a", "the server declares no resources capability (")
	for _, name := range []string{"resources/list", "read", "listed size", "template read", "not-found error", "not-found shaped", "malformed uri", "cancellation",
		"subscribe ack", "subscription ids", "requested types", "subscribed uri", "unsubscribe stops"} {
		d.expect(t, name, "n/a", "the server declares no resources capability")
	}
	d.expect(t, "read tool", "n/a", "no tool named read")
	stdout, _, code := readbench(t, t.TempDir(), "check", "--target", url)
	if code != 0 || strings.Count(stdout, "declares no resources capability (") != 1 || !strings.Contains(stdout, "15 not applicable") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
}

// TestCheckStatelessLegacyCancelNotApplicable: over Streamable HTTP in the
// handshake era a server that issues no Mcp-Session-Id cannot be told
// which request a notifications/cancelled names: not applicable, not a
// failure.
func TestCheckStatelessLegacyCancelNotApplicable(t *testing.T) {
	t.Parallel()
	d, code, stderr := runCheck(t, "--target", sharedServe(t), "--protocol", "2025-11-25", "--sample", "2")
	if code != 0 || d.Summary.Fail != 0 {
		t.Errorf("exit %d, summary %+v: %s", code, d.Summary, stderr)
	}
	d.expect(t, "cancellation", "n/a", "no Mcp-Session-Id")
}

// TestCheckCancelVerdictsRepeat: identical checks give identical
// cancellation verdicts. The simulated server's delayed read (1 s,
// cancelled at 50 ms, far beyond any round trip) that honours the cancel
// passes every time; one that ignores it (honor_cancel=false) fails every
// time as "ignored the cancel", however long it takes to answer.
func TestCheckCancelVerdictsRepeat(t *testing.T) {
	t.Parallel()
	const runs = 5
	for _, c := range []struct {
		uri, status, want string
	}{
		{"sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=1s", "pass", "no answer within"},
		{"sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=1s&honor_cancel=false", "fail", "ignored the cancel"},
		// Slower than the fixed one-second watch: the check times the read
		// uncancelled first and watches long enough to see the answer.
		{"sim:///readbench-check/slow.txt?mime=text/plain&size=1024&delay=2500ms&honor_cancel=false", "fail", "ignored the cancel"},
	} {
		for i := range runs {
			d, _, _ := runCheck(t, "--sample", "1", "--cancel-uri", c.uri)
			r := d.rows("cancellation")
			if len(r) != 1 || r[0].Status != c.status || !strings.Contains(r[0].Detail, c.want) {
				t.Errorf("%s, run %d of %d: %+v, want %s with %q", c.uri, i+1, runs, r, c.status, c.want)
			}
		}
	}
}
