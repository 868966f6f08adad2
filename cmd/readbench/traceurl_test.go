package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceURLIsChecked: every command that renders a run's report takes
// --trace-url, and one without {trace_id} is a usage error (exit 2) that
// says what is missing, before anything runs or is read.
func TestTraceURLIsChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--trace-url", "https://grafana.example/explore"},
		{"replay", "--trace-url", "https://grafana.example/explore", "rec.jsonl"},
		{"report", "--trace-url", "https://grafana.example/explore", "r.json"},
		{"compare", "--trace-url", "https://grafana.example/explore", "a.json", "b.json"},
		{"ab", "--trace-url", "https://grafana.example/explore", "--base", "embedded", "--new", "embedded"},
		{"report", "--trace-url", "javascript:alert({trace_id})", "r.json"},
	} {
		_, stderr, code := readbench(t, dir, args...)
		if code != 2 || !strings.Contains(stderr, args[0]+": --trace-url: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming --trace-url", args, code, stderr)
		}
	}
	if _, stderr, _ := readbench(t, dir, "report", "--trace-url", "https://x.example/", "r.json"); !strings.Contains(stderr, "no {trace_id}") {
		t.Errorf("the error does not say what is missing: %q", stderr)
	}
}

// TestReportLinksTraces: report --trace-url links each slow read's trace
// id on the page and in markdown; without it the page links nothing.
func TestReportLinksTraces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "results", "testdata", "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	slow := map[string]any{"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "uri": "docs://a.md", "intended": "2026-11-30T02:28:49.123Z",
		"latency_ms": 120.5, "outcome": "timeout", "lower_bound": true}
	doc["classes"].([]any)[0].(map[string]any)["slow_reads"] = map[string]any{
		"slowest": []any{slow}, "broke_bound": []any{slow}, "broke_bound_seen": 1}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "r.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	tmpl := "https://grafana.example/explore?traceId={trace_id}"
	link := "https://grafana.example/explore?traceId=4bf92f3577b34da6a3ce929d0e0e4736"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "--format", "html", "--trace-url", tmpl, "r.json"}, `<a href="` + link + `">4bf92f3577b34da6a3ce929d0e0e4736</a>`},
		{[]string{"report", "--format", "markdown", "--trace-url", tmpl, "r.json"}, "[4bf92f3577b34da6a3ce929d0e0e4736](" + link + ")"},
		{[]string{"report", "--format", "html", "r.json"}, "<td>4bf92f3577b34da6a3ce929d0e0e4736</td>"},
		{[]string{"report", "r.json"}, "slowest    cut at 121ms timeout trace 4bf92f3577b34da6a3ce929d0e0e4736 docs://a.md"},
	} {
		out, stderr, code := readbench(t, dir, c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d (%s), output lacks %q", c.args, code, stderr, c.want)
		}
	}
}
