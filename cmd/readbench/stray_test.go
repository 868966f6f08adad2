//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStdioServerLogsOnStdout: a stdio server that prints log lines on
// stdout is told so at once, its lines quoted. One that only prints fails
// its handshake in seconds (it used to wait the whole 30 s handshake
// timeout, then never mention the lines); one that prints a banner and
// then serves runs, and the run's log says what it printed.
func TestStdioServerLogsOnStdout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return "stdio:" + p
	}
	junk := script("junk.sh", "echo 'Starting server...'\necho 'Listening on stdio'\nexec cat >/dev/null\n")
	banner := script("banner.sh", "echo 'Weather MCP server v1.0'\nexec "+binary+" serve --stdio\n")

	start := time.Now()
	_, stderr, code := readbench(t, dir, "run", "--target", junk, "--duration", "2s", "--out", "j.json")
	want := "the server printed 2 lines that are not JSON-RPC on stdout: `Starting server...`, `Listening on stdio`; servers must log to stderr"
	if took := time.Since(start); code != exitFail || !strings.Contains(stderr, want) || took > 10*time.Second {
		t.Errorf("a server that only logs on stdout: exit %d after %v, stderr:\n%s\nwant exit 1 within 10 s and %q", code, took, stderr, want)
	}

	_, stderr, code = readbench(t, dir, "run", "--target", banner, "--duration", "1s", "--out", "b.json")
	want = "readbench: the server printed 1 line that is not JSON-RPC on stdout: `Weather MCP server v1.0`; servers must log to stderr"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("a server that prints a banner, then serves: exit %d, stderr:\n%s\nwant exit 0 and %q", code, stderr, want)
	}
}
