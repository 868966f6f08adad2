package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/simserver"
)

// TestHeadersReachTheServerAndNowhereElse: --header and the workload's
// headers go on every request with ${VAR} expanded, and their values
// appear in no result, report or message.
func TestHeadersReachTheServerAndNowhereElse(t *testing.T) {
	const secret = "s3cret-t0ken-value"
	t.Setenv("RB_TEST_TOKEN", secret)
	// The simulated server in this process, behind a guard that refuses
	// a request without both headers.
	srv := simserver.New(simserver.Options{})
	var refused atomic.Int64 // handlers run concurrently
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	guard := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret || r.Header.Get("X-Team") != "docs" {
			refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	upstream := &url.URL{Path: "/mcp"}

	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: headers
headers: {X-Team: docs}
load: {rate: 10/s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=100"}
`)
	stdout, stderr, code := readbench(t, dir, "run", wl, "--target", guard.URL+upstream.Path,
		"--header", "Authorization: Bearer ${RB_TEST_TOKEN}", "--out", "r.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	onlyGood(t, r)
	if n := refused.Load(); n != 0 {
		t.Errorf("%d requests lacked the headers", n)
	}
	saved, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	for what, text := range map[string]string{"result": string(saved), "stdout": stdout, "stderr": stderr} {
		if strings.Contains(text, secret) {
			t.Errorf("the header value leaked into the %s", what)
		}
	}
	// Every rendering of the saved result, and the contract check in both
	// formats, against the same guarded server.
	outputs := map[string]string{}
	for _, format := range []string{"table", "markdown", "json", "html", "hlog"} {
		out, errOut, code := readbench(t, dir, "report", "--format", format, "r.json")
		if code != 0 || out == "" {
			t.Errorf("report --format %s: exit %d: %s", format, code, errOut)
		}
		outputs["report --format "+format] = out + errOut
	}
	for _, format := range []string{"table", "json"} {
		out, errOut, code := readbench(t, dir, "check", "--target", guard.URL+upstream.Path, "--format", format,
			"--header", "Authorization: Bearer ${RB_TEST_TOKEN}", "--header", "X-Team: docs")
		if code != 0 || !strings.Contains(out, "resources/list") {
			t.Errorf("check --format %s through the guard: exit %d:\n%s\n%s", format, code, out, errOut)
		}
		outputs["check --format "+format] = out + errOut
	}
	for what, text := range outputs {
		if strings.Contains(text, secret) {
			t.Errorf("the header value leaked into %s", what)
		}
	}

	// A wrong token: the server refuses, the run says its header was
	// refused (unauthorized: readbench cannot renew it), and still never
	// prints the value.
	t.Setenv("RB_TEST_TOKEN", "wrong-"+secret)
	stdout, stderr, _ = readbench(t, dir, "run", wl, "--target", guard.URL+upstream.Path,
		"--header", "Authorization: Bearer ${RB_TEST_TOKEN}", "--out", "r2.json")
	if strings.Contains(stdout+stderr, secret) {
		t.Errorf("a refused header's value was printed:\n%s\n%s", stdout, stderr)
	}
	if !strings.Contains(stderr, "401") || !strings.Contains(stderr, "cannot renew a pasted header") {
		t.Errorf("the refusal is not explained: %s", stderr)
	}
}

// TestURLPasswordNeverPrinted: a target URL's password is masked in every
// message, here the failures of a run and a check against a port where
// nothing listens (Streamable HTTP and HTTP+SSE).
func TestURLPasswordNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "pa55-in-url"
	dir := t.TempDir()
	for _, c := range [][]string{
		{"run", "--target", "http://bench:" + secret + "@127.0.0.1:1/mcp", "--duration", "1s", "--out", "r.json"},
		{"run", "--target", "sse+http://bench:" + secret + "@127.0.0.1:1/sse", "--duration", "1s", "--out", "r.json"},
		{"check", "--target", "http://bench:" + secret + "@127.0.0.1:1/mcp"},
	} {
		stdout, stderr, code := readbench(t, dir, c...)
		if code == 0 {
			t.Errorf("%v: exit 0 against a closed port", c)
		}
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%v printed the URL's password:\n%s\n%s", c, stdout, stderr)
		}
		if !strings.Contains(stderr, "bench:") {
			t.Errorf("%v: the message does not name the target: %s", c, stderr)
		}
	}
}

// TestStdioSecretsNeverPrinted: a secret given to a stdio server as a
// NAME=value argument (`stdio:env MYSQL_PASS=… node server.js`) is masked
// in what check prints and in what run saves and prints; the server is
// still started with it (the run reads, so env got the real value).
func TestStdioSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-in-argv"
	dir := t.TempDir()
	target := "stdio:env MYSQL_PASS=" + secret + " API_TOKEN=" + secret + " " + binary + " serve --stdio"
	for _, c := range [][]string{
		{"check", "--target", target},
		{"check", "--target", target, "--format", "json"},
		{"run", "--target", target, "--rate", "20/s", "--duration", "1s", "--out", "r.json"},
	} {
		stdout, stderr, code := readbench(t, dir, c...)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s", c, code, stderr)
		}
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%v printed the secret:\n%s\n%s", c, stdout, stderr)
		}
		if c[0] == "check" && !strings.Contains(stdout, "MYSQL_PASS=xxxxx") {
			t.Errorf("%v: the target is not named with the secret masked:\n%s", c, stdout)
		}
	}
	saved, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved), secret) || !strings.Contains(string(saved), "API_TOKEN=xxxxx") {
		t.Errorf("the result saves the secret, or not the masked target:\n%.2000s", saved)
	}
}
