package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// inspectorCLI is the MCP Inspector's command line (@modelcontextprotocol/
// inspector-cli, pinned in peers/package.json): a client no one here
// wrote, each run one session of one request.
func inspectorCLI(t *testing.T) string {
	return npmPeer(t, "@modelcontextprotocol/inspector-cli", "@modelcontextprotocol", "inspector-cli", "build", "index.js")
}

// TestRecordInspectorCLI: the MCP Inspector's CLI, pointed at the record
// proxy in front of the TypeScript SDK's server, reads three documents
// (one per run, each a session of its own), one with an Authorization
// header: the recording has each read ok with the server's size, on
// three sessions, and no header.
func TestRecordInspectorCLI(t *testing.T) {
	t.Parallel()
	node := needs.Tool(t, "node", installNode)
	cli := inspectorCLI(t)
	dir := t.TempDir()
	upstream := startHTTPPeer(t, node, sdkServer(t), "http", "{port}", "stateful", "sse")
	proxy, stop := startRecord(t, dir, upstream, "rec.jsonl")
	reads := []struct {
		uri    string
		header []string
	}{
		{"doc://text/1k", nil},
		{"doc://blob/4k", []string{"--header", "Authorization: Bearer s3cr3t-insp"}},
		{"doc://text/64k", nil},
	}
	for _, rd := range reads {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		args := append([]string{cli, proxy, "--transport", "http", "--method", "resources/read", "--uri", rd.uri}, rd.header...)
		cmd := testproc.Own(t, exec.CommandContext(ctx, node, args...))
		cmd.Dir = filepath.Dir(cli) // it finds its package.json from the working folder (../package.json)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("inspector-cli %s: %v\n%s", rd.uri, err, out)
		}
		if !strings.Contains(string(out), rd.uri) {
			t.Errorf("inspector-cli %s printed no answer for it:\n%.400s", rd.uri, out)
		}
	}
	stop()
	rec, text := loadRecording(t, filepath.Join(dir, "rec.jsonl"))
	if strings.Contains(text, "s3cr3t-insp") || strings.Contains(strings.ToLower(text), "authorization") {
		t.Errorf("the recording holds the Authorization header:\n%s", text)
	}
	sessions := map[string]bool{}
	want := map[string]int64{"doc://text/1k": 1024, "doc://blob/4k": 4096, "doc://text/64k": 65536}
	for _, rd := range rec.Reads {
		sessions[rd.Session] = true
		if rd.Outcome != "ok" || rd.Bytes != want[rd.URI] {
			t.Errorf("recorded %s: %s, %d bytes; want ok, %d", rd.URI, rd.Outcome, rd.Bytes, want[rd.URI])
		}
		delete(want, rd.URI)
	}
	if len(rec.Reads) != 3 || len(sessions) != 3 || len(want) != 0 {
		t.Errorf("%d reads on %d sessions recorded (missing %v), want 3 on 3:\n%s", len(rec.Reads), len(sessions), want, text)
	}
}
