package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// slowStdioWorkload writes a workload of n stdio sessions of `readbench
// serve --stdio` behind a start that takes 200 ms, every fourth child
// (counted in a folder, so children started at once still count
// distinctly) never answering: n/4 sessions fail their 2 s handshake
// timeout, whatever the machine's speed.
func slowStdioWorkload(t *testing.T, dir string, n int, minSessions string) string {
	t.Helper()
	count := filepath.Join(dir, "children")
	if err := os.Mkdir(count, 0o755); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`i=0; while ! mkdir %q/n$i 2>/dev/null; do i=$((i+1)); done; if [ $((i %% 4)) = 3 ]; then exec sleep 60; fi; sleep 0.2; exec %q serve --stdio`, count, binary)
	y := fmt.Sprintf(`name: slow-stdio
target: {stdio: [sh, -c, %q]}
sessions: %d
load: {rate: 20/s, duration: 1s, handshake_timeout: 2s%s}
turn: {attachments: 1, read_timeout: 30s}
mix:
  - {class: md, mime: text/markdown, size: 1KiB}
`, script, n, minSessions)
	path := filepath.Join(dir, "slow.yaml")
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSlowStdioSessions: 40 stdio sessions of a slow-starting server,
// ten of which never answer, connect a few at a time; without
// min_sessions the run exits 1 saying how many of how many connected and
// why, never a bare "context deadline exceeded"; with min_sessions 30
// it goes on, records the shortfall and says it in its report.
func TestSlowStdioSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "run", slowStdioWorkload(t, dir, 40, ""), "--quiet", "--out", "fail.json")
	if code != 1 || !strings.Contains(stderr, "30 of 40 sessions connected, 10 failed: 10× no answer within the handshake timeout of 2s") {
		t.Fatalf("exit %d, want 1 and the count of sessions connected:\n%s", code, stderr)
	}
	dir2 := t.TempDir()
	stdout, stderr, code := readbench(t, dir2, "run", slowStdioWorkload(t, dir2, 40, ", min_sessions: 30"), "--out", "r.json")
	if code != 0 {
		t.Fatalf("min_sessions 30 of 40: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "the run went on with 30 of 40 sessions: 10 failed to connect") {
		t.Errorf("the report does not say the run went on with fewer sessions:\n%s", stdout)
	}
	raw := rawResult(t, filepath.Join(dir2, "r.json"))
	s, _ := raw["sessions"].(map[string]any)
	if s["asked"] != 40.0 || s["connected"] != 30.0 || s["failed"] != 10.0 {
		t.Errorf("sessions block %v: want 40 asked, 30 connected, 10 failed", s)
	}
	if h, _ := raw["handshake"].(map[string]any); h["count"] != 30.0 {
		t.Errorf("handshake block %v: want one per session connected", h)
	}
}
