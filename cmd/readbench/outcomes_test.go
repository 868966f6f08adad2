package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// noResourcesServer returns the command of peers/no-resources.cjs: a real
// server on the official TypeScript SDK (pinned in peers/) that declares
// tools and no resources, so the SDK answers resources/read with -32601
// "Method not found".
func noResourcesServer(t *testing.T) []string {
	t.Helper()
	needs.Tool(t, "node", installNode)
	needs.File(t, filepath.Join(peersModules(t), "@modelcontextprotocol", "sdk", "package.json"),
		"@modelcontextprotocol/sdk", installPeers)
	script, err := filepath.Abs("../../peers/no-resources.cjs")
	if err != nil {
		t.Fatal(err)
	}
	return []string{"node", script}
}

// TestRunServerWithoutResourcesRead: against a server without
// resources/read every read is method_not_found (not not_found, whatever
// the message says), a class expecting not_found does not pass, the run
// says once that the server does not implement resources/read, never
// advises re-listing, and exits 1 (nothing was read) after saving.
func TestRunServerWithoutResourcesRead(t *testing.T) {
	t.Parallel()
	cmd := noResourcesServer(t)
	dir := t.TempDir()
	wl := filepath.Join(dir, "w.yaml")
	err := os.WriteFile(wl, []byte(fmt.Sprintf(`
name: no-resources
target: {stdio: [%q, %q]}
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s}
mix:
  - {class: doc, uri: "docs://readme"}
  - {class: gone, uri: "docs://renamed", expect: not_found}
`, cmd[0], cmd[1])), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
	if code != exitFail || !strings.Contains(stderr, "useless run: no read succeeded") ||
		!strings.Contains(stderr, "the server does not implement resources/read") {
		t.Errorf("exit %d, want %d saying the server does not implement resources/read:\n%s", code, exitFail, stderr)
	}
	if n := strings.Count(stderr, "does not implement the method readbench reads with"); n != 1 {
		t.Errorf("the missing method is logged %d times, want once:\n%s", n, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	if got := r.Totals.Outcomes["method_not_found"]; got == 0 || got != r.Totals.Scheduled {
		t.Errorf("outcomes %v: want every one of %d reads method_not_found", r.Totals.Outcomes, r.Totals.Scheduled)
	}
	for _, c := range r.Classes {
		if c.Outcomes["expected_error"] != 0 || c.Outcomes["not_found"] != 0 {
			t.Errorf("class %s: %v: a missing method is neither not found nor expected", c.Class, c.Outcomes)
		}
	}
	if !strings.Contains(stdout, "no method  the server does not implement resources/read") {
		t.Errorf("the report does not say the server lacks resources/read:\n%s", stdout)
	}
	if strings.Contains(stdout, "re-list") {
		t.Errorf("the report advises re-listing for a missing method:\n%s", stdout)
	}
}

// TestRunUselessExits1: a run in which every read failed exits 1 with one
// line saying why, after saving the result, although no threshold broke.
func TestRunUselessExits1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(wl, []byte("load: {rate: 20/s, duration: 1s}\nmix:\n  - {class: gone, uri: \"docs://gone\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json", "--threshold", "errors<=100%", "-q")
	if code != exitFail || strings.Count(stderr, "useless run") != 1 || !strings.Contains(stderr, "most of them not_found (100.0%)") {
		t.Errorf("exit %d, want %d and one line saying every read failed:\n%s", code, exitFail, stderr)
	}
	if r := loadResult(t, filepath.Join(dir, "r.json")); r.Totals.Outcomes["not_found"] == 0 {
		t.Errorf("outcomes %v", r.Totals.Outcomes)
	}
}

// TestRunNothingSentExits1: turns whose deadline passes before any read
// can start send no read (every one dropped): exit 1 saying so, after
// saving the result. A 1 ns deadline makes it so on any machine; a rate
// too high to start, as this test once used, stops being one as the
// generator gets faster.
func TestRunNothingSentExits1(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(wl, []byte("name: nothing-sent\nload: {rate: 100/s, duration: 200ms}\nturn: {attachments: 2, deadline: 1ns}\nmix:\n  - {class: md, mime: text/markdown, size: 1KiB}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json", "-q")
	if code != exitFail || !strings.Contains(stderr, "useless run: no read was sent") {
		t.Errorf("exit %d, want %d saying no read was sent:\n%s", code, exitFail, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	if r.Totals.Outcomes["dropped"] != r.Totals.Scheduled {
		t.Errorf("outcomes %v of %d scheduled: want all dropped", r.Totals.Outcomes, r.Totals.Scheduled)
	}
}

// TestUsageExitIs2: a usage error exits 2 for every command, an unknown
// command included (urfave/cli alone exits 3 for it).
func TestUsageExitIs2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"nosuchcommand"}, `unknown command "nosuchcommand"`},
		{[]string{"nosuchcommand", "--help"}, `unknown command "nosuchcommand"`},
		{[]string{"--nosuch"}, "flag provided but not defined"},
		{[]string{"run", "--nosuch"}, "flag provided but not defined"},
		{[]string{"check", "--nosuch"}, "flag provided but not defined"},
		{[]string{"compare", "--nosuch"}, "flag provided but not defined"},
		{[]string{"merge", "--nosuch"}, "flag provided but not defined"},
		{[]string{"capacity", "--nosuch"}, "flag provided but not defined"},
		{[]string{"report", "--nosuch"}, "flag provided but not defined"},
	} {
		if _, stderr, code := readbench(t, dir, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	if stdout, _, code := readbench(t, dir); code != exitOK || !strings.Contains(stdout, "COMMANDS:") {
		t.Errorf("no command: exit %d, want the help and 0:\n%s", code, stdout)
	}
}

// wantExit is the exit code a run with result r must end with when nothing
// else failed: 1 when it was useless (no read succeeded), or, held to no
// threshold, when most of it failed (more than half of its turns did not
// complete, or more than half of the reads it sent answered an
// unexpected error: docs/measurement.md, how a run ends); 0 otherwise, so
// a test of a run whose every read is cancelled or an error can still
// check its exit.
func wantExit(r result) int {
	t := r.Totals
	if t.Outcomes["ok"]+t.Outcomes["expected_error"] == 0 {
		return exitFail
	}
	if len(r.Thresholds) > 0 {
		return exitOK
	}
	var unexpected int64
	for name, n := range t.Outcomes {
		switch name {
		case "ok", "expected_error", "timeout", "cancelled", "dropped":
		default:
			unexpected += n
		}
	}
	e := t.TurnEnds
	if 2*(e.Cut+e.Failed+e.Dropped) > t.Turns || 2*unexpected > t.Scheduled-t.Outcomes["dropped"] {
		return exitFail
	}
	return exitOK
}

// failSays says whether stderr holds the line a run that exits 1 on what
// it measured ends with: useless, or most of it failed.
func failSays(stderr string) bool {
	return strings.Contains(stderr, "useless run") || strings.Contains(stderr, "no thresholds set: most of the run failed")
}
