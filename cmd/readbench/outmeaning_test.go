package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFolderOutLooksLikeAFile: capacity's and ab's --out is a folder; a
// file name there is refused before anything is made or run, naming the
// folder flag and the way to the file. Before, `--format html --out
// cap.html` made a folder cap.html and sent the page to stdout.
func TestFolderOutLooksLikeAFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"capacity", "--slo", "errors<1%", "--format", "html", "--out", filepath.Join(dir, "cap.html")}, "--format html > "},
		{[]string{"ab", "--base", "embedded", "--new", "embedded", "--format", "json", "--out", filepath.Join(dir, "ab.json")}, "--format json > "},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"readbench"}, tc.args...), &stdout, &stderr)
		out := tc.args[len(tc.args)-1]
		if code != exitUsage || !strings.Contains(stderr.String(), "looks like a file name") || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("readbench %s: exit %d, want %d saying it looks like a file name and %q:\n%s", tc.args[0], code, exitUsage, tc.want, stderr.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("readbench %s made %s", tc.args[0], out)
		}
	}
}

// TestRunFormatHTML: `run --format html` prints the HTML report of the
// run it made, the page `report --format html` renders, in one step.
// Before, run refused the format (exit 2).
func TestRunFormatHTML(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--rate", "5/s", "--warmup", "0s", "--format", "html", "--out", "r.json")
	if code != 0 && code != 1 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if !strings.HasPrefix(strings.TrimSpace(stdout), "<!DOCTYPE html>") || !strings.Contains(stdout, "</html>") || !strings.Contains(stdout, "docs-attachments") {
		t.Errorf("stdout is not the run's HTML page:\n%.400s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.json")); err != nil {
		t.Errorf("the result was not saved: %v", err)
	}
}
