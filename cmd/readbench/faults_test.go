package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Faults, end to end: the simulated server's URI and server options make
// reads slow, deaf to cancellation, or the server die; each must land in
// its own outcome and the identity must hold.

func writeWorkload(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFaultOutcomes(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	cases := []struct {
		name   string
		target string
		body   string
		check  func(t *testing.T, r result, raw map[string]any)
	}{
		{"deadline cancels and an honouring server stays quiet", "embedded", `
name: cut
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=100&delay=400ms"}
`, func(t *testing.T, r result, raw map[string]any) {
			if !allCutOrDropped(r) {
				t.Errorf("outcomes %v", r.Totals.Outcomes)
			}
			// An honouring server stops a read it reads the cancel of; on a
			// machine whose CPUs are all taken, its delay can end before it
			// is scheduled to read the cancel, and the answer it then sends
			// is late by the machine, which the result says it was.
			machine := watchMachine()
			machine.result(raw)
			if c := raw["cancellation"].(map[string]any); c["late_answers"].(float64) != 0 && !machine.Busy() {
				t.Errorf("an honouring server sent late answers on a quiet machine (%s): %v", machine, c)
			}
		}},
		{"a server that ignores cancellation shows late answers", "embedded", `
name: deaf
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: deaf, uri: "sim:///deaf?mime=text/plain&size=1000&delay=200ms&honor_cancel=false"}
`, func(t *testing.T, r result, raw map[string]any) {
			c := raw["cancellation"].(map[string]any)
			if !allCutOrDropped(r) || c["late_answers"].(float64) == 0 || c["wasted_bytes"].(float64) < 1000 {
				t.Errorf("outcomes %v, cancellation %v", r.Totals.Outcomes, c)
			}
		}},
		{"HTTP 2026-07-28: cancelling closes the stream", url, `
name: cut-http
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=100&delay=400ms"}
`, func(t *testing.T, r result, raw map[string]any) {
			if !allCutOrDropped(r) {
				t.Errorf("outcomes %v", r.Totals.Outcomes)
			}
		}},
		{"the read timeout separates slow from never", "embedded", `
name: timeout
load: {rate: 20/s, duration: 1s}
turn: {attachments: 1, read_timeout: 100ms}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=100&delay=400ms"}
  - {class: fast, uri: "sim:///fast?mime=text/plain&size=100"}
`, func(t *testing.T, r result, raw map[string]any) {
			if r.Classes[0].Outcomes["timeout"] != r.Classes[0].Outcomes["timeout"]+r.Classes[0].Outcomes["ok"] || r.Classes[0].Outcomes["timeout"] == 0 {
				t.Errorf("slow: %v", r.Classes[0].Outcomes)
			}
			if r.Classes[1].Outcomes["ok"] == 0 || r.Classes[1].Outcomes["timeout"] != 0 {
				t.Errorf("fast: %v", r.Classes[1].Outcomes)
			}
		}},
		{"beyond max_in_flight turns are dropped, never started late", "embedded", `
name: dropped
load: {rate: 50/s, duration: 1s, max_in_flight: 2}
turn: {attachments: 3, read_timeout: 5s}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=100&delay=300ms"}
`, func(t *testing.T, r result, raw map[string]any) {
			if r.Totals.Outcomes["dropped"] == 0 || r.Totals.Outcomes["ok"] == 0 || r.Totals.Outcomes["dropped"]%3 != 0 {
				t.Errorf("outcomes %v", r.Totals.Outcomes)
			}
		}},
		{"cache hints (ttlMs, cacheScope) are captured per class", "embedded", `
name: cache
load: {rate: 20/s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: hinted, uri: "sim:///c?mime=text/plain&size=10&ttl=60000&scope=private"}
`, func(t *testing.T, r result, raw map[string]any) {
			c := raw["classes"].([]any)[0].(map[string]any)["cache"].(map[string]any)
			ok := float64(r.Totals.Outcomes["ok"])
			if ok == 0 || c["hinted"] != ok || c["min_ttl_ms"] != 60000.0 || c["max_ttl_ms"] != 60000.0 || c["private"] != ok {
				t.Errorf("cache %v for %v ok reads", c, ok)
			}
			// One URI, fresh for a minute: every read after the first answer
			// is one a host honouring the hints would not have sent.
			if skip := c["would_not_send"].(float64); skip < ok-2 || skip >= ok {
				t.Errorf("would_not_send %v of %v reads", skip, ok)
			}
		}},
		{"turn latency is kept per turn size", "embedded", `
name: sizes
load: {rate: 30/s, duration: 1s}
turn: {attachments: {1: 1, 3: 1}, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///s?mime=text/plain&size=10"}
`, func(t *testing.T, r result, raw map[string]any) {
			sizes := raw["turn_sizes"].([]any)
			if len(sizes) != 2 || sizes[0].(map[string]any)["attachments"] != 1.0 || sizes[1].(map[string]any)["attachments"] != 3.0 {
				t.Errorf("turn_sizes %v", sizes)
			}
		}},
		{"error codes map to outcomes", "embedded", `
name: errors
load: {rate: 20/s, duration: 1s}
turn: {attachments: 3, read_timeout: 5s}
mix:
  - {class: internal, uri: "sim:///e?error=-32603"}
  - {class: other, uri: "sim:///e?error=-32000"}
  - {class: neither, uri: "sim:///n?mime=text/plain&size=10&fault=neither"}
`, func(t *testing.T, r result, raw map[string]any) {
			want := []string{"internal", "rpc_error", "protocol"}
			for i, c := range r.Classes {
				if c.Outcomes[want[i]] == 0 || c.Outcomes[want[i]] != sumOutcomes(c.Outcomes) {
					t.Errorf("class %s: %v, want all %s", c.Class, c.Outcomes, want[i])
				}
			}
			if s := raw["shape"].(map[string]any); s["neither"].(float64) == 0 {
				t.Errorf("shape %v", s)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			wl := writeWorkload(t, dir, c.body)
			stdout, stderr, code := readbench(t, dir, "run", wl, "--target", c.target, "--out", "r.json")
			r := loadResult(t, filepath.Join(dir, "r.json"))
			// A run in which no read succeeded (every one cancelled, or an
			// error) is useless, and one most of whose reads failed fails
			// on its health: saved, then exit 1 saying so.
			want := wantExit(r)
			if code != want || (want == exitFail && !failSays(stderr)) {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, want, stdout, stderr)
			}
			c.check(t, r, rawResult(t, filepath.Join(dir, "r.json")))
		})
	}
}

// TestServerDiesMidRun: a stdio server that exits mid-run becomes counted
// transport outcomes at once, not a hang, and the run still saves its
// result, then fails on its health (most reads failed). (The server counts answers as it writes them, so a few reads in
// flight at the crash may still be answered: hence the loose bound.)
func TestServerDiesMidRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, fmt.Sprintf(`
name: crash
target: {stdio: [%q, serve, --stdio, --crash-after, "15"]}
load: {rate: 20/s, duration: 2s}
turn: {attachments: 2, read_timeout: 30s}
mix:
  - {class: md, uri: "sim:///a?mime=text/markdown&size=100&delay=5ms"}
`, binary))
	// About 15 of 80 reads succeed: most fail on transport, so the run,
	// held to no threshold, is failing and exits 1 naming the outcome
	// (it exited 0 before runs stated their health).
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
	if code != exitFail || !strings.Contains(stderr, "✗ failing:") || !strings.Contains(stderr, "transport: the connection or the server process failed") {
		t.Fatalf("exit %d, want %d saying the run is failing on transport\n%s\n%s", code, exitFail, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "✗ failing:") {
		t.Errorf("the report does not open with the health line:\n%.300s", stdout)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	if ok, tr := r.Totals.Outcomes["ok"], r.Totals.Outcomes["transport"]; ok < 10 || ok > 20 || tr == 0 || ok+tr != r.Totals.Scheduled {
		t.Errorf("outcomes %v", r.Totals.Outcomes)
	}
}

func sumOutcomes(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// allCutOrDropped reports whether every read of r was cancelled by its
// turn's deadline, or dropped because that deadline had passed before it
// could be sent (a busy machine's lag can exceed a 100 ms deadline), and
// most were sent and cancelled.
func allCutOrDropped(r result) bool {
	cut, dropped := r.Totals.Outcomes["cancelled"], r.Totals.Outcomes["dropped"]
	return cut+dropped == r.Totals.Scheduled && cut >= r.Totals.Scheduled/2
}
