package main

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/runner"
)

// TestMetricsCredentialsNeverPrinted: the remote-write credentials from
// the environment reach the receiver on every push, and appear nowhere
// readbench writes — not on stdout, not on stderr, not in the result —
// even when the receiver refuses the push and echoes them back.
func TestMetricsCredentialsNeverPrinted(t *testing.T) {
	const password, token = "s3cret-pass-91f2", "tok-7c1d-secret"
	var mu sync.Mutex
	var auths, tokens []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths, tokens = append(auths, r.Header.Get("Authorization")), append(tokens, r.Header.Get("X-Scope-Token"))
		mu.Unlock()
		// A receiver that refuses and echoes what it was sent.
		http.Error(w, "refused: "+r.Header.Get("Authorization")+" "+r.Header.Get("X-Scope-Token"), http.StatusUnauthorized)
	}))
	srv.Start() // httptest listens on 127.0.0.1
	t.Cleanup(srv.Close)
	t.Setenv(runner.EnvMetricsBasicAuth, "bench:"+password)
	t.Setenv(runner.EnvMetricsHeaders, "X-Scope-Token: "+token)

	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "2s", "--rate", "20/s", "--out", out,
		"--metrics", "prometheus-rw="+srv.URL+"/api/v1/write", "--metrics-interval", "500ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	result, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("bench:" + password))
	for name, text := range map[string]string{"stdout": stdout, "stderr": stderr, "result": string(result)} {
		for _, secret := range []string{password, token, basic} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds a credential (%q)", name, secret)
			}
		}
	}
	if !strings.Contains(stderr, "not delivered") {
		t.Errorf("stderr does not say the pushes were refused: %q", stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auths) == 0 || auths[0] != "Basic "+basic || tokens[0] != token {
		t.Errorf("the receiver got Authorization %q and X-Scope-Token %q, want the environment's", auths, tokens)
	}
}
