package main

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
)

// TestHeadersReachTheServerAndNowhereElse: --header and the workload's
// headers go on every request with ${VAR} expanded, and their values
// appear in no result, report or message.
func TestHeadersReachTheServerAndNowhereElse(t *testing.T) {
	const secret = "s3cret-t0ken-value"
	t.Setenv("RB_TEST_TOKEN", secret)
	upstream, err := url.Parse(startServe(t))
	if err != nil {
		t.Fatal(err)
	}
	var refused atomic.Int64 // handlers run concurrently
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: upstream.Scheme, Host: upstream.Host})
	guard := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret || r.Header.Get("X-Team") != "docs" {
			refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, r)
	}))

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
	// A wrong token: the server refuses, the run reports transport
	// failures, and still never prints the value.
	t.Setenv("RB_TEST_TOKEN", "wrong-"+secret)
	stdout, stderr, _ = readbench(t, dir, "run", wl, "--target", guard.URL+upstream.Path,
		"--header", "Authorization: Bearer ${RB_TEST_TOKEN}", "--out", "r2.json")
	if strings.Contains(stdout+stderr, secret) {
		t.Errorf("a refused header's value was printed:\n%s\n%s", stdout, stderr)
	}
	if !strings.Contains(stderr, "401") {
		t.Errorf("the refusal is not explained: %s", stderr)
	}
}
