package main

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
)

// TestAimRefusedBeforeAnyConnection: run, check and init refuse a target
// other than loopback that nothing allows, at once, with exit 2 and the
// way to allow it; the name is never even resolved (example.invalid
// resolves nowhere, and a lookup would say "no such host").
func TestAimRefusedBeforeAnyConnection(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--target", "https://example.invalid/mcp", "--duration", "1s"},
		{"check", "--target", "https://example.invalid/mcp"},
		{"init", "--target", "sse+https://example.invalid/sse"},
	} {
		start := time.Now()
		_, stderr, code := readbench(t, dir, args...)
		if code != 2 || !strings.Contains(stderr, "--allow-host example.invalid") || !strings.Contains(stderr, "allow_hosts: [example.invalid]") {
			t.Errorf("%v: exit %d: %s; want 2 and how to allow the host", args, code, stderr)
		}
		if strings.Contains(stderr, "no such host") || strings.Contains(stderr, "lookup") || strings.Contains(stderr, "dial") || time.Since(start) > 5*time.Second {
			t.Errorf("%v: the refusal came after a network attempt (%v): %s", args, time.Since(start), stderr)
		}
	}
	// Allowed, but credentials would cross the network in clear text.
	wl := writeWorkload(t, dir, `
name: aim
target: http://example.invalid/mcp
allow_hosts: [example.invalid]
headers: {Authorization: "Bearer s3cret-in-file"}
load: {rate: 1/s, duration: 1s}
mix: [{class: a, uri: "docs://a"}]
`)
	_, stderr, code := readbench(t, dir, "run", wl)
	if code != 2 || !strings.Contains(stderr, "the header Authorization would go to example.invalid in clear text") ||
		!strings.Contains(stderr, "--insecure-credentials") || strings.Contains(stderr, "s3cret") {
		t.Errorf("credentials over http: exit %d: %s", code, stderr)
	}
}

// TestAimAllowedHostIsReached: a host named by --allow-host is loaded:
// this machine's own non-loopback address, where nothing listens, so the
// run fails to connect (exit 1) instead of being refused; no traffic
// leaves the machine.
func TestAimAllowedHostIsReached(t *testing.T) {
	t.Parallel()
	own := ownAddress(t)
	dir := t.TempDir()
	target := "http://" + own + ":1/mcp"
	_, stderr, code := readbench(t, dir, "run", "--target", target, "--duration", "1s")
	if code != 2 {
		t.Fatalf("not allowed: exit %d: %s", code, stderr)
	}
	_, stderr, code = readbench(t, dir, "run", "--target", target, "--allow-host", own, "--duration", "1s")
	if code != 1 || !strings.Contains(stderr, "connection refused") {
		t.Errorf("allowed: exit %d: %s; want 1, connection refused", code, stderr)
	}
}

// ownAddress is an IPv4 address of this machine that is not loopback.
func ownAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		needs.Missing(t, "the machine's interface addresses ("+err.Error()+")", "a network interface besides loopback")
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	needs.Missing(t, "an IPv4 address of this machine that is not loopback", "a network interface besides loopback")
	return ""
}
