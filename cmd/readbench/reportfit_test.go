package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRunReportFitsAScreen: the report a run ends with fits a 120x40
// terminal (44 lines at most, 120 columns; the report keeps to 100) with
// the run's health as its first and last line and the thresholds'
// verdict next to it, for the default scenario, a run
// with thresholds, an overloaded run and a failing one; --full prints the
// detail the brief one leaves out.
func TestRunReportFitsAScreen(t *testing.T) {
	t.Parallel()
	url := startServe(t, "--workers", "2")
	for _, c := range []struct {
		name     string
		workload string // "" for the default scenario
		args     []string
		verdict  string // the thresholds' verdict line's beginning
		health   string // the health line's word (its first line, after the mark)
	}{
		{"default", "", []string{"-d", "2s"}, "- no thresholds set", "healthy"},
		{"thresholds", "", []string{"-d", "2s", "--threshold", "turn.p99<10s,errors<1%,read.p50<1us"}, "✗ 1 of 3 thresholds broken", "healthy"},
		{"overloaded", `
name: overload
load: {rate: 20/s, warmup: 500ms, duration: 2s, max_in_flight: 4}
turn: {attachments: 4, read_timeout: 5s, deadline: 200ms}
mix:
  - {class: doc, uri: "sim:///doc?mime=text/plain&size=2000&delay=50ms"}
`, []string{"--target", url}, "- ", "overloaded"},
		{"failing", `
name: failing
load: {rate: 10/s, duration: 1s}
mix:
  - {class: broken, uri: "sim:///broken?error=-32603"}
`, nil, "- ", "useless"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"run", "--no-live", "--out", "r.json"}
			if c.workload != "" {
				args = append(args, writeWorkload(t, dir, c.workload))
			}
			brief, stderr, _ := readbench(t, dir, append(args, c.args...)...)
			lines := strings.Split(strings.TrimSuffix(brief, "\n"), "\n")
			if len(lines) < 10 || len(lines) > 44 {
				t.Errorf("the report is %d lines, want 44 at most:\n%s\n%s", len(lines), brief, stderr)
			}
			// The health line first and last (wrapped, its continuations
			// indented), the thresholds' verdict next to it at both ends.
			n := 1
			for n < len(lines) && strings.HasPrefix(lines[n], "  ") {
				n++
			}
			_, word, _ := strings.Cut(lines[0], " ")
			if !strings.HasPrefix(word, c.health+":") || strings.Join(lines[:n], "\n") != strings.Join(lines[len(lines)-n:], "\n") ||
				!strings.HasPrefix(lines[n], c.verdict) || !strings.HasPrefix(lines[len(lines)-n-1], c.verdict) {
				t.Errorf("first lines %q, last %q: want the health (%s) then the verdict (%q...), and the reverse at the end",
					lines[:min(n+1, len(lines))], lines[max(len(lines)-n-1, 0):], c.health, c.verdict)
			}
			for i, l := range lines {
				if n := utf8.RuneCountInString(l); n > 100 {
					t.Errorf("line %d is %d columns: %q", i+1, n, l)
				}
			}
			for _, detail := range []string{"reads and bytes", "advice (", "\n service time ", "\ncache "} {
				if strings.Contains(brief, detail) {
					t.Errorf("the brief report has the detail %q", detail)
				}
			}
			full, _, _ := readbench(t, dir, "report", "r.json", "--full")
			for _, detail := range []string{"reads and bytes", "advice (", "\n service time ", "\ncancelled ", "\ntimeline "} {
				if !strings.Contains(full, detail) {
					t.Errorf("report --full lacks %q:\n%s", detail, full)
				}
			}
			if again, _, _ := readbench(t, dir, "report", "r.json"); again != brief {
				t.Errorf("report of the saved result differs from the run's:\n%s\n---\n%s", again, brief)
			}
		})
	}
	dir := t.TempDir()
	full, stderr, code := readbench(t, dir, "run", "-d", "1s", "--no-live", "--full", "--out", "r.json")
	if code != 0 || !strings.Contains(full, "reads and bytes") || !strings.Contains(full, "advice (") {
		t.Errorf("run --full (exit %d) has no detail:\n%s\n%s", code, full, stderr)
	}
}
