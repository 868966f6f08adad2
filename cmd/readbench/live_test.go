package main

import (
	"strings"
	"testing"
)

// TestLiveOffATerminal: stderr that is not a terminal never gets the
// view. --live says so in one line and the run is otherwise as without
// it; with --quiet not even that; --live with --no-live is bad usage.
func TestLiveOffATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--live", "--out", "r.json")
	const note = "readbench: --live: stderr is not a terminal; no live view\n"
	if code != exitOK || !strings.HasPrefix(stderr, note) || strings.Count(stderr, note) != 1 {
		t.Errorf("--live on a pipe: exit %d, stderr:\n%s", code, stderr)
	}
	if rest := strings.TrimPrefix(stderr, note); rest != "result saved to r.json\n" {
		t.Errorf("--live on a pipe: stderr beyond the note is %q, want what a run without it writes", rest)
	}
	if strings.Contains(stdout+stderr, "\x1b") || !strings.Contains(stdout, "readbench 0.1.0-dev: docs-attachments") {
		t.Errorf("--live on a pipe: want the plain report, got:\n%s", stdout)
	}
	_, stderr, code = readbench(t, dir, "run", "--duration", "1s", "--live", "--quiet", "--out", "r.json", "--force")
	if code != exitOK || stderr != "" {
		t.Errorf("--live --quiet on a pipe: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = readbench(t, dir, "run", "--duration", "1s", "--live", "--no-live", "--out", "r.json", "--force")
	if code != exitUsage || !strings.Contains(stderr, "give --live or --no-live, not both") {
		t.Errorf("--live --no-live: exit %d, stderr %q", code, stderr)
	}
}
