package main

import (
	"fmt"
	"testing"
	"time"
)

// videoServer returns the entry point of @modelcontextprotocol/server-video-resource
// (pinned in peers/): an MCP Apps server (the TypeScript SDK v2) listing a
// ui:// player page and six videos under the template videos://{id},
// whose one variable is the URI's whole authority. Its read callback
// throws for an id it does not have, so a missing video is answered
// -32603 "Video not found: ID…", while the SDK's router answers a URI no
// template matches -32602 "Resource not found". A listed video is
// fetched from the network when read; the test below reads none.
func videoServer(t *testing.T) string {
	return npmPeer(t, "@modelcontextprotocol/server-video-resource", "@modelcontextprotocol", "server-video-resource", "dist", "index.js")
}

// TestCheckVideoResourceServer: check and run against the video-resource
// server of issue 47's audit (item 1), over stdio and stateless
// Streamable HTTP. The generic not-found probe matches no template and
// gets the router's -32602, which alone would pass; the shaped probe of
// videos://{id} (no path segment: its authority is the variable) gets
// the server's real -32603, which fails "not-found shaped" and, with it,
// "not-found error", naming what a host gets. A run with expect:
// not_found on a missing video counts every such read internal, never
// expected_error: check and run agree. No listed video is read (they are
// fetched from the network): --sample 1 reads the player page, listed
// first, and the template read row is given a value of its own.
func TestCheckVideoResourceServer(t *testing.T) {
	t.Parallel()
	const probe = "videos://readbench-no-such-7f3a9c"
	for _, c := range []struct {
		name   string
		target func(t *testing.T, node string) string
	}{
		{"stdio", func(t *testing.T, node string) string { return "stdio:" + node + " " + videoServer(t) + " --stdio" }},
		{"http-stateless", func(t *testing.T, node string) string { return startHTTPPeer(t, node, videoServer(t)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			target := c.target(t, pinnedNode(t))
			d, code, stderr := runCheck(t, "--target", target, "--sample", "1", "--template-value", "id=readbench-gone")
			d.expectRow(t, readRow{"not-found shaped", probe, "fail",
				`error -32603 "Video not found: readbench-no-such-7f3a9c.`})
			d.expectRow(t, readRow{"not-found shaped", probe, "fail",
				"a run counts this answer internal, not not_found (a class's expect: not_found is not met)"})
			d.expect(t, "not-found error", "fail",
				`but a missing resource of the server's own shape gets error -32603 "Video not found: readbench-no-such-7f3a9c.`)
			d.expect(t, "not-found error", "fail", "("+probe+"): a host gets that, not this")
			d.expectRow(t, readRow{"read", "ui://video-player/mcp-app.html", "pass", "1 entry"})
			if code != 1 {
				t.Errorf("check exit %d, want 1: %s", code, stderr)
			}

			r, _ := runFor(t, target, fmt.Sprintf(`
name: missing-video
load: {rate: 10/s, turns: 6}
turn: {attachments: 2, read_timeout: 10s}
mix:
  - {class: player, uri: "ui://video-player/mcp-app.html"}
  - {class: missing, uri: %q, expect: not_found}
`, "videos://readbench-gone"), 2*time.Minute)
			seen := false
			for _, cl := range r.Classes {
				if cl.Class != "missing" {
					continue
				}
				seen = true
				if n := cl.Outcomes["internal"]; n == 0 || n != sumOutcomes(cl.Outcomes) {
					t.Errorf("missing: outcomes %v, want every read internal (-32603), as check's row says", cl.Outcomes)
				}
			}
			if !seen {
				t.Errorf("no class missing in the result")
			}
		})
	}
}
