//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fallbackSaid is the fallback file a run names when its result could not
// be saved where it was asked.
var fallbackSaid = regexp.MustCompile(`saved to (\S*readbench-unsaved-\S+\.json) instead`)

// fallbackOf returns the fallback file stderr names, checked to hold a
// whole result, and removes it when the test ends ("" when none is named).
func fallbackOf(t *testing.T, stderr string) string {
	t.Helper()
	m := fallbackSaid.FindStringSubmatch(stderr)
	if m == nil {
		return ""
	}
	t.Cleanup(func() { _ = os.Remove(m[1]); _ = os.Remove(strings.TrimSuffix(m[1], ".json") + ".stderr.log") })
	loadResult(t, m[1])
	return m[1]
}

// TestRunFullDisk: a run whose result cannot be saved (a full disk:
// /dev/full answers every write with ENOSPC, no root needed) prints its
// report anyway — with --format json the whole document on stdout —,
// saves the result to a fallback file it names, and exits 4, "measured
// but not saved". It exited 1 with nothing on stdout: the run was lost.
func TestRunFullDisk(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"json", "table"} {
		stdout, stderr, code := readbench(t, t.TempDir(), "run", "--duration", "1s", "--format", format, "--out", "/dev/full")
		if code != exitNotSaved || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("--format %s: exit %d, want %d naming the full disk; stderr:\n%s", format, code, exitNotSaved, stderr)
		}
		if fallbackOf(t, stderr) == "" {
			t.Errorf("--format %s: no fallback file named:\n%s", format, stderr)
		}
		if format == "json" {
			var doc map[string]any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc["schema"] != "readbench/result/v1" {
				t.Errorf("--format json: stdout is not the document (%v):\n%.300s", err, stdout)
			}
		} else if !strings.Contains(stdout, "docs-attachments") {
			t.Errorf("--format table: no report on stdout:\n%.300s", stdout)
		}
	}
}

// TestRunOutExists: --out naming an existing file is refused before the
// run (exit 2), the file left as it was, as record refuses its own;
// --force replaces it. Later runs overwrote it silently.
func TestRunOutExists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "base.json")
	if err := os.WriteFile(out, []byte("an earlier result\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := readbench(t, dir, "run", "--duration", "20s", "--out", out)
	if b, _ := os.ReadFile(out); code != exitUsage || !strings.Contains(stderr, out+" exists (--force replaces it") ||
		strings.Contains(stderr, "reads") || string(b) != "an earlier result\n" {
		t.Errorf("exit %d, the file holds %q; stderr:\n%s", code, b, stderr)
	}
	_, stderr, code = readbench(t, dir, "run", "--duration", "1s", "--quiet", "--out", out, "--force")
	if code == exitUsage || code == exitNotSaved {
		t.Fatalf("--force: exit %d:\n%s", code, stderr)
	}
	loadResult(t, out)
}

// TestRunsSameOutAtOnce: three runs started together with one --out and
// three without: no result vanishes. One takes --out; each other either
// was refused before it ran (exit 2: the file existed by then) or, having
// measured, saved its result to a fallback file it names and exits 4. The
// runs without --out each keep a file in runs/ (the same second's name
// gets -2). All three exited 0 and two results vanished.
func TestRunsSameOutAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "same.json")
	type ran struct {
		stderr string
		code   int
	}
	const n = 3
	got := make([]ran, 2*n)
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := []string{"run", "--duration", "1s", "--quiet", "--no-live"}
			if i < n {
				args = append(args, "--out", out)
			}
			_, stderr, code := readbench(t, dir, args...)
			got[i] = ran{stderr, code}
		}()
	}
	wg.Wait()
	saved, measured := 0, 0
	for _, r := range got[:n] {
		switch r.code {
		case exitUsage:
			if !strings.Contains(r.stderr, "exists (--force replaces it") {
				t.Errorf("exit 2 for another reason:\n%s", r.stderr)
			}
		case exitNotSaved:
			measured++
			if fallbackOf(t, r.stderr) == "" || !strings.Contains(r.stderr, "was saved by another run while this one ran") {
				t.Errorf("exit 4 without a fallback file or its reason:\n%s", r.stderr)
			}
		case 0, exitFail: // exit 1: a busy machine's own verdict on the run; it was saved
			saved++
		default:
			t.Errorf("exit %d:\n%s", r.code, r.stderr)
		}
	}
	if saved != 1 {
		t.Errorf("%d runs saved to --out, %d to a fallback file; want 1 saved: %+v", saved, measured, got[:n])
	}
	loadResult(t, out)
	files, _ := filepath.Glob(filepath.Join(dir, "runs", "*.json"))
	if len(files) != n {
		t.Errorf("runs/ holds %v, want %d results: one per run", files, n)
	}
	for _, r := range got[n:] {
		if r.code != 0 && r.code != exitFail {
			t.Errorf("a run without --out: exit %d:\n%s", r.code, r.stderr)
		}
	}
}
