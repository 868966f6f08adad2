package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportFormats runs a short run and re-renders it in every format.
func TestReportFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--quiet", "--out", "r.json"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	table, _, code := readbench(t, dir, "report", "r.json")
	if code != 0 || !strings.Contains(table, "all reads") {
		t.Fatalf("table: exit %d:\n%s", code, table)
	}
	two, _, _ := readbench(t, dir, "report", "r.json", "r.json")
	if strings.Count(two, " all reads ") != 2 { // the brief latency table's row, twice
		t.Errorf("two results: %d 'all reads' rows", strings.Count(two, " all reads "))
	}
	full, _, _ := readbench(t, dir, "report", "r.json", "r.json", "--full")
	if strings.Count(full, " all reads ") != 4 || !strings.Contains(full, "reads and bytes") { // the latency and bytes tables' rows, twice
		t.Errorf("two results, --full: %d 'all reads' rows", strings.Count(full, " all reads "))
	}
	md, _, code := readbench(t, dir, "report", "--format", "markdown", "r.json")
	if code != 0 || !strings.Contains(md, "| class | count | p50 |") {
		t.Errorf("markdown: exit %d:\n%s", code, md)
	}
	js, _, code := readbench(t, dir, "report", "--format", "json", "r.json", "r.json")
	var arr []map[string]any
	if err := json.Unmarshal([]byte(js), &arr); code != 0 || err != nil || len(arr) != 2 {
		t.Errorf("json: exit %d, %v, %d documents", code, err, len(arr))
	}
	hlog, _, code := readbench(t, dir, "report", "--format", "hlog", "r.json")
	if code != 0 || !strings.Contains(hlog, "Tag=read,") || !strings.Contains(hlog, "#[StartTime: ") {
		t.Errorf("hlog: exit %d:\n%s", code, hlog)
	}
	if _, stderr, code := readbench(t, dir, "report", "--format", "html", "--out", "r.html", "r.json"); code != 0 {
		t.Fatalf("html: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil || !strings.Contains(string(page), `data-chart="percentile-spectrum"`) {
		t.Errorf("html: %v", err)
	}
}

func TestReportBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"schema": 1`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"report"},
		{"report", "--format", "pdf", "bad.json"},
		{"report", "bad.json"},
		{"report", "missing.json"},
	} {
		_, stderr, code := readbench(t, dir, args...)
		if code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}
