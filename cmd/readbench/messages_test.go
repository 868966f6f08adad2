package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestHandshakeTimeoutFlag: a server that never answers is reported when
// --handshake-timeout expires, by every command that opens a session, and
// the message names the limit and the flag.
func TestHandshakeTimeoutFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	silent := "stdio:sleep 30"
	for _, args := range [][]string{
		{"check", "--format", "json", "--target", silent, "--handshake-timeout", "300ms"},
		{"run", "--target", silent, "--handshake-timeout", "300ms", "--duration", "1s", "--out", "r.json"},
		{"init", "--target", silent, "--handshake-timeout", "300ms"},
	} {
		stdout, stderr, code := readbench(t, dir, args...)
		if code == 0 || !strings.Contains(stdout+stderr, "handshake timeout of 300ms (--handshake-timeout sets it") {
			t.Errorf("%s: exit %d, want the handshake timeout named:\n%s\n%s", args[0], code, stdout, stderr)
		}
	}
	if _, stderr, code := readbench(t, dir, "run", "--handshake-timeout", "0s"); code != exitUsage || !strings.Contains(stderr, "--handshake-timeout must be above 0") {
		t.Errorf("--handshake-timeout 0s: exit %d\n%s", code, stderr)
	}
}

// TestHandshakeTimeoutKey: a workload's load.handshake_timeout bounds
// opening a session to a server that never answers: the run fails within
// seconds (not the default 30 s), naming the limit and the key that sets
// it; --handshake-timeout overrides the key and is named instead. Stderr
// is no terminal here: no connecting line is drawn.
func TestHandshakeTimeoutKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: silent
target: "stdio:sleep 30"
load: {rate: 5/s, duration: 1s, handshake_timeout: 300ms}
mix: [{class: a, uri: "docs://a"}]
`)
	start := time.Now()
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
	took := time.Since(start)
	want := "handshake timeout of 300ms (load.handshake_timeout in the workload sets it, --handshake-timeout overrides it"
	if code != exitFail || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want %d and %q:\n%s\n%s", code, exitFail, want, stdout, stderr)
	}
	if took > 20*time.Second {
		t.Errorf("the run took %v to fail: the key did not bound the handshake", took)
	}
	if strings.Contains(stderr, "connecting to") {
		t.Errorf("a connecting line on a stderr that is no terminal:\n%q", stderr)
	}
	_, stderr, code = readbench(t, dir, "run", wl, "--handshake-timeout", "500ms", "--out", "r.json")
	if want := "handshake timeout of 500ms (--handshake-timeout sets it"; code != exitFail || !strings.Contains(stderr, want) {
		t.Errorf("with the flag: exit %d, want %q:\n%s", code, want, stderr)
	}
}

// TestNotAnMCPServerSaysSo: run against programs that are no MCP server
// says what happened in words a newcomer can act on.
func TestNotAnMCPServerSaysSo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for target, want := range map[string]string{
		"stdio:cat": "the server echoed readbench's own server/discover request back instead of answering it: is this an MCP server?",
		"stdio:ls":  "the server exited (exit status 0) before answering server/discover",
	} {
		_, stderr, code := readbench(t, dir, "run", "--target", target, "--duration", "1s", "--out", "r.json")
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %q", target, code, stderr, want)
		}
	}
}

// TestInterruptMessagePerCommand: only a run is told it saves what it
// measured; a server stopped by SIGTERM is shutting down.
func TestInterruptMessagePerCommand(t *testing.T) {
	cases := []struct {
		command string
		sig     os.Signal
		want    string
	}{
		{"run", os.Interrupt, "readbench: interrupted: stopping; a run saves what it measured"},
		{"run", syscall.SIGTERM, "readbench: terminated (SIGTERM): stopping; a run saves what it measured"},
		{"serve", syscall.SIGTERM, "readbench serve: terminated (SIGTERM): shutting down"},
		{"serve", os.Interrupt, "readbench serve: interrupted: shutting down"},
		{"check", os.Interrupt, "readbench: interrupted: stopping (interrupt again to quit at once)"},
	}
	for _, c := range cases {
		if got := (&interrupts{command: c.command}).stopping(c.sig); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s, %v: %q, want %q", c.command, c.sig, got, c.want)
		}
	}
}

// TestServeSIGTERM: `readbench serve` stopped by its supervisor says it
// is shutting down, not that a run saves what it measured.
func TestServeSIGTERM(t *testing.T) {
	t.Parallel()
	cmd := testproc.Own(t, exec.Command(binary, "serve", "--listen", "127.0.0.1:0"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "/mcp") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	_ = cmd.Wait()
	out := strings.Join(lines, "\n")
	if strings.Contains(out, "a run saves") || !strings.Contains(out, "readbench serve: terminated (SIGTERM): shutting down") {
		t.Errorf("serve's stderr after SIGTERM:\n%s", out)
	}
}
