package main

import (
	"strings"
	"testing"
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
