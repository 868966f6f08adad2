package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// inspectorCLI runs the MCP Inspector's command line (pinned in
// peers/package.json) against url with args, as a person checking a
// server does, and returns what it printed and whether it succeeded.
func inspectorCLI(t *testing.T, node, cli, url string, args ...string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, node, append([]string{cli, url}, args...)...))
	// It looks for its package.json at ../package.json from the working
	// folder but imports it from its own: run it where both are the same.
	cmd.Dir = filepath.Dir(cli)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("inspector %v: %v\n%s", args, ctx.Err(), out)
	}
	return string(out), err == nil
}

// TestRecordInspectorCLI: the MCP Inspector's command line
// (@modelcontextprotocol/inspector-cli), a client no one here wrote, lists
// and reads through `readbench record` in front of the TypeScript SDK's
// server (stateful, SSE answers), one process and one session per
// command. It gets its answers unchanged through the proxy, and the
// recording holds each read as what it was: its own session and turn (a
// turn of one read, grouped `single`, with a confidence), the outcome,
// size and digest the server gave, and the methods every session sent.
func TestRecordInspectorCLI(t *testing.T) {
	node := needs.Tool(t, "node", installNode)
	sdk := sdkServer(t)
	cli := npmPeer(t, "@modelcontextprotocol/inspector-cli", "@modelcontextprotocol", "inspector-cli", "build", "index.js")
	dir := t.TempDir()
	upstream := startHTTPPeer(t, node, sdk, "http", "{port}", "stateful", "sse")
	proxy, stop := startRecord(t, dir, upstream, "rec.jsonl")

	if out, ok := inspectorCLI(t, node, cli, proxy, "--method", "resources/list"); !ok || !strings.Contains(out, "doc://text/1k") {
		t.Fatalf("inspector resources/list through the proxy failed:\n%s", out)
	}
	reads := []struct {
		uri   string
		ok    bool
		bytes int64
	}{
		{"doc://text/1k", true, 1024},
		{"doc://blob/4k", true, 4096},
		{"doc://missing/renamed.md", false, 0},
	}
	for _, r := range reads {
		out, ok := inspectorCLI(t, node, cli, proxy, "--method", "resources/read", "--uri", r.uri)
		if ok != r.ok || (ok && !strings.Contains(out, fmt.Sprintf("%q", r.uri))) {
			t.Errorf("inspector resources/read %s through the proxy: succeeded %v, want %v:\n%s", r.uri, ok, r.ok, out)
		}
	}
	stop()

	rec, text := loadRecording(t, filepath.Join(dir, "rec.jsonl"))
	if len(rec.Reads) != len(reads) {
		t.Fatalf("%d reads recorded, want %d:\n%s", len(rec.Reads), len(reads), text)
	}
	sessions, turns := map[string]bool{}, map[int]bool{}
	for i, rd := range rec.Reads {
		want := reads[i]
		outcome := map[bool]string{true: "ok", false: "not_found"}[want.ok]
		if rd.URI != want.uri || rd.Outcome != outcome || rd.Bytes != want.bytes || (want.ok != strings.HasPrefix(rd.Digest, "sha256:")) {
			t.Errorf("read %d recorded %+v, want %s %s %d bytes", i, rd, want.uri, outcome, want.bytes)
		}
		if rd.GroupedBy != "single" || rd.Confidence == nil {
			t.Errorf("read %s: grouped_by %q, confidence %v, want a turn of one read (single) with a confidence", rd.URI, rd.GroupedBy, rd.Confidence)
		}
		sessions[rd.Session], turns[rd.Turn] = true, true
	}
	if len(sessions) != len(reads) || len(turns) != len(reads) {
		t.Errorf("the reads of %d inspector processes on %d sessions in %d turns, want one each:\n%s", len(reads), len(sessions), len(turns), text)
	}
	if m := rec.Methods; m == nil || m.Counts["initialize"] != int64(1+len(reads)) || m.Counts["resources/list"] != 1 || m.Counts["resources/read"] != int64(len(reads)) {
		t.Errorf("methods %+v, want %d initialize, 1 resources/list, %d resources/read", rec.Methods, 1+len(reads), len(reads))
	}
}
