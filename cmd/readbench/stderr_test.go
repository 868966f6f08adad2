package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// TestCrashingServerStderrQuoted: a TypeScript SDK server that crashes as
// server-postgres 0.6.2 did when its database restarted (an unhandled
// 'error' event: the cause, then ~120 lines of the error object's dump)
// is reported with its cause in a short quote, said once however many
// reads and sessions it left unanswered, and the whole stderr is in the
// log whose path the run prints. Before, readbench printed the last 4 KiB
// of the dump three times (318 lines) and never the cause.
func TestCrashingServerStderrQuoted(t *testing.T) {
	t.Parallel()
	node := needs.Tool(t, "node", installNode)
	sdkServer(t) // the SDK is installed
	crash, err := filepath.Abs("../../peers/sdk-crash.mjs")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w := `load: {rate: 20/s, duration: 2s}
sessions: 2
mix:
  - {class: doc, uri: "doc://text/1k"}
`
	if err := os.WriteFile(filepath.Join(dir, "w.yaml"), []byte(w), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := readbench(t, dir, "run", "w.yaml", "--target", "stdio:"+node+" "+crash+" 5", "--out", "r.json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (every read after the crash failed):\n%s", code, stderr)
	}
	for _, want := range []string{"Unhandled 'error' event", "Error: terminating connection due to administrator command",
		"138 lines", "Node.js v", "the whole of it is in the server's stderr log", "the server's stderr saved to r.stderr.log"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "Unhandled 'error' event"); n != 1 {
		t.Errorf("the quote is printed %d times, want once", n)
	}
	if n := strings.Count(stderr, "\n"); n > 30 {
		t.Errorf("%d lines on stderr, want at most 30:\n%s", n, stderr)
	}
	log, err := os.ReadFile(filepath.Join(dir, "r.stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "setting_39"); n != 2 || !strings.Contains(string(log), "terminating connection") {
		t.Errorf("the log does not hold both servers' whole stderr (%d dumps):\n%.1000s", n, log)
	}
}
