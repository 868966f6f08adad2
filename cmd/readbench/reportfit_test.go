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
		verdict  string // the first line's beginning after its mark: the verdict that decided the exit
		health   string // the health line's word (among the opening lines)
	}{
		{"default", "", []string{"-d", "2s"}, "healthy", "healthy"},
		{"thresholds", "", []string{"-d", "2s", "--threshold", "turn.p99<10s,errors<1%,read.p50<1us"}, "1 of 3 thresholds broken", "healthy"},
		{"overloaded", `
name: overload
load: {rate: 20/s, warmup: 500ms, duration: 2s, max_in_flight: 4}
turn: {attachments: 4, read_timeout: 5s, deadline: 200ms}
mix:
  - {class: doc, uri: "sim:///doc?mime=text/plain&size=2000&delay=50ms"}
`, []string{"--target", url}, "overloaded", "overloaded"},
		{"failing", `
name: failing
load: {rate: 10/s, duration: 1s}
mix:
  - {class: broken, uri: "sim:///broken?error=-32603"}
`, nil, "useless", "useless"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"run", "--no-live", "--out", "r.json"}
			if c.workload != "" {
				args = append(args, writeWorkload(t, dir, c.workload))
			}
			brief, stderr, code := readbench(t, dir, append(args, c.args...)...)
			lines := strings.Split(strings.TrimSuffix(brief, "\n"), "\n")
			if len(lines) < 10 || len(lines) > 44 {
				t.Errorf("the report is %d lines, want 44 at most:\n%s\n%s", len(lines), brief, stderr)
			}
			// The verdict that decided the exit first (wrapped, its
			// continuations indented), then the health when it says
			// something else; the verdict alone last, on one line.
			n := 1
			for n < len(lines) && !strings.HasPrefix(lines[n], "readbench ") {
				n++
			}
			_, word, _ := strings.Cut(lines[0], " ")
			healthSaid := false
			for _, l := range lines[:n] {
				_, w, _ := strings.Cut(l, " ")
				healthSaid = healthSaid || strings.HasPrefix(w, c.health+":")
			}
			words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			closing := words(strings.TrimSuffix(lines[len(lines)-1], "…"))
			if !strings.HasPrefix(word, c.verdict) || !healthSaid || !strings.HasPrefix(words(strings.Join(lines[:n], " ")), closing) ||
				strings.HasPrefix(lines[0], "✗") != (code != 0) {
				t.Errorf("exit %d, first lines %q, last %q: want the verdict (%q...) at both ends, ✗ when the exit is not 0, and the health (%s) at the top",
					code, lines[:n], lines[len(lines)-1], c.verdict, c.health)
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
