package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestRecordOAuthThroughProxy: a client pointed at the record proxy in
// front of an OAuth-protected server (serve --oauth) discovers, logs in
// and reads through the proxy, never sent past it to the upstream: the
// challenge's resource_metadata, the protected resource metadata (its
// resource and authorization server) and the authorization server's
// metadata name the proxy; the resource indicator the client sends is
// the upstream's again on its way there, so the token is one the
// upstream accepts. readbench login --headless (dynamic registration,
// authorization code with PKCE, RFC 9207's iss) then a run through the
// proxy, whose reads are recorded ok.
func TestRecordOAuthThroughProxy(t *testing.T) {
	t.Parallel()
	srv := startOAuthServe(t)
	dir := t.TempDir()
	endpoint, stop := startRecord(t, dir, srv.url, "rec.jsonl")
	proxy := strings.TrimSuffix(endpoint, "/mcp")
	hc := &http.Client{Timeout: 30 * time.Second}
	for _, tc := range []struct {
		name, method, path string
		status             int
		check              func(h http.Header, body []byte) string
	}{
		{"challenge", http.MethodPost, "/mcp", http.StatusUnauthorized, func(h http.Header, _ []byte) string {
			if ch := h.Get("WWW-Authenticate"); !strings.Contains(ch, `resource_metadata="`+proxy+"/.well-known/oauth-protected-resource/mcp") {
				return "WWW-Authenticate " + ch + " does not name the proxy's metadata"
			}
			return ""
		}},
		{"protected resource metadata", http.MethodGet, "/.well-known/oauth-protected-resource/mcp", http.StatusOK, func(_ http.Header, body []byte) string {
			var m struct {
				Resource string   `json:"resource"`
				AS       []string `json:"authorization_servers"`
			}
			if json.Unmarshal(body, &m) != nil || m.Resource != endpoint || len(m.AS) != 1 || m.AS[0] != proxy {
				return "names " + string(body) + ", want the resource " + endpoint + " and the authorization server " + proxy
			}
			return ""
		}},
		{"authorization server metadata", http.MethodGet, "/.well-known/oauth-authorization-server", http.StatusOK, func(_ http.Header, body []byte) string {
			var m struct {
				Issuer string `json:"issuer"`
				Token  string `json:"token_endpoint"`
			}
			if json.Unmarshal(body, &m) != nil || m.Issuer != proxy || m.Token != proxy+"/token" {
				return "names " + string(body) + ", want the issuer " + proxy + " and its token endpoint"
			}
			return ""
		}},
	} {
		req, err := http.NewRequest(tc.method, proxy+tc.path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %s %s through the proxy: %d, want %d", tc.name, tc.method, tc.path, resp.StatusCode, tc.status)
			continue
		}
		if why := tc.check(resp.Header, body); why != "" {
			t.Errorf("%s: %s", tc.name, why)
		}
	}
	env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	run := func(args ...string) {
		cmd := testproc.Own(t, exec.Command(binary, args...))
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", args[0], err, out)
		}
	}
	run("login", "--target", endpoint, "--headless", "--no-browser")
	wl := writeWorkload(t, dir, "load: {rate: 10/s, duration: 1s, warmup: 0s}\nmix:\n  - {class: md, uri: \"sim:///h?mime=text/markdown&size=200\"}\n")
	run("run", wl, "--target", endpoint, "--out", "r.json", "-q")
	stop()
	recordedAllOK(t, dir)
	if c := parseServeCounts(t, srv.stop()); c.authorizationCode != 1 || c.refused != 0 || c.accepted == 0 {
		t.Errorf("the upstream issued %d authorization_code tokens, refused %d token requests, accepted %d requests; want 1, 0 and some", c.authorizationCode, c.refused, c.accepted)
	}
}

// TestRecordOAuthThroughProxyForeignProvider (issue 47, item 9): the
// authorization server on another origin than the upstream, one that
// binds tokens to the resource (oidc-provider 9.13.3, RFC 8707, in front
// of the TypeScript SDK server that checks the token's audience): the
// proxy stands for it too, under a path of its own origin, so the
// resource a client asks a token for is put back to the upstream's on
// its way to the provider. A run through the proxy (client credentials)
// gets a token the upstream accepts: its reads recorded ok. Before, the
// provider was left for the client to reach directly, was asked for a
// token for the proxy's URL, and refused it ("unknown resource").
func TestRecordOAuthThroughProxyForeignProvider(t *testing.T) {
	t.Parallel()
	p := startOIDC(t, oidcOptions{ttl: 30})
	dir := t.TempDir()
	endpoint, stop := startRecord(t, dir, p.target, "rec.jsonl")
	proxy := strings.TrimSuffix(endpoint, "/mcp")
	hc := &http.Client{Timeout: 30 * time.Second}
	resp, err := hc.Get(proxy + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	var prm struct {
		Resource string   `json:"resource"`
		AS       []string `json:"authorization_servers"`
	}
	if json.Unmarshal(body, &prm) != nil || prm.Resource != endpoint || len(prm.AS) != 1 || !strings.HasPrefix(prm.AS[0], proxy+"/") {
		t.Errorf("the protected resource metadata through the proxy names %s; want the resource %s and an authorization server on the proxy", body, endpoint)
	}
	wl := writeWorkload(t, dir, oidcWorkload(1, 2))
	stdout, stderr, code := readbenchEnv(t, dir, []string{"RB_OIDC_SECRET=" + oidcCCSecret}, "run", wl, "--target", endpoint,
		"--oauth-client-id", oidcCCClient, "--oauth-client-secret", "${RB_OIDC_SECRET}", "--out", "r.json", "-q")
	stop()
	if code != 0 {
		t.Errorf("run through the proxy: exit %d\n%s%s", code, stdout, stderr)
	}
	text := recordedAllOK(t, dir)
	noSecrets(t, map[string]string{"run": stdout + stderr, "recording": text}, oidcCCSecret)
}

// recordedAllOK asserts that dir/rec.jsonl recorded some reads, every one
// ok, and returns the recording's text.
func recordedAllOK(t *testing.T, dir string) string {
	t.Helper()
	rec, text := loadRecording(t, filepath.Join(dir, "rec.jsonl"))
	ok := 0
	for _, rd := range rec.Reads {
		if rd.Outcome == "ok" {
			ok++
		}
	}
	if len(rec.Reads) == 0 || ok != len(rec.Reads) {
		t.Errorf("%d of %d recorded reads ok, want all, and some:\n%s", ok, len(rec.Reads), text)
	}
	return text
}
