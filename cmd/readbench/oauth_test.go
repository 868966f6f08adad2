package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/simserver"
)

// oauthServer is the simulated MCP server with an authorization server
// beside it on one 127.0.0.1 listener: it publishes protected resource
// and authorization server metadata, approves an authorization request at
// once (a 302 back with a code), and issues tokens for client credentials
// (client oauth-test, secret oauthSecret), authorization codes with PKCE
// and refresh tokens. A refused token request quotes the request's form,
// as a careless server might, to prove readbench never repeats it. The
// MCP endpoint demands a token it issued (401 with a challenge without
// one), and remembers the clientInfo of each initialize (or
// server/discover) it let in.
type oauthServer struct {
	url string

	mu          sync.Mutex
	grants      []string // grant_type of each token request
	resources   []string // its resource
	challenges  map[string]string
	clientInfos []string // name/version of each accepted initialize
	refusedMCP  int      // /mcp requests without an issued token
}

const oauthSecret = "0auth-cl1ent-s3cret"

func newOAuthServer(t *testing.T) *oauthServer {
	o := &oauthServer{challenges: map[string]string{}}
	sim := simserver.New(simserver.Options{})
	mux := http.NewServeMux()
	mcpHandler := sim.Handler()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer at-") {
			o.mu.Lock()
			o.refusedMCP++
			o.mu.Unlock()
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+origin(r)+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "a bearer token, please", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		type info struct{ Name, Version string }
		var msg struct {
			Method string `json:"method"`
			Params struct {
				ClientInfo info `json:"clientInfo"` // initialize's
				Meta       struct {
					ClientInfo info `json:"io.modelcontextprotocol/clientInfo"` // server/discover's
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil && (msg.Method == "initialize" || msg.Method == "server/discover") {
			ci := msg.Params.ClientInfo
			if ci.Name == "" {
				ci = msg.Params.Meta.ClientInfo
			}
			o.mu.Lock()
			o.clientInfos = append(o.clientInfos, ci.Name+"/"+ci.Version)
			o.mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		mcpHandler.ServeHTTP(w, r)
	})
	json200 := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		json200(w, map[string]any{"resource": origin(r) + "/mcp", "authorization_servers": []string{origin(r)}, "scopes_supported": []string{"mcp:read"}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json200(w, map[string]any{"issuer": origin(r), "authorization_endpoint": origin(r) + "/authorize", "token_endpoint": origin(r) + "/token",
			"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "none"}, "code_challenge_methods_supported": []string{"S256"},
			"scopes_supported": []string{"mcp:read", "offline_access"}})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		code := fmt.Sprintf("code-%d", len(o.challenges)+1)
		o.mu.Lock()
		o.challenges[code] = q.Get("code_challenge")
		o.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		f := r.PostForm
		o.mu.Lock()
		o.grants = append(o.grants, f.Get("grant_type"))
		o.resources = append(o.resources, f.Get("resource"))
		challenge := o.challenges[f.Get("code")]
		o.mu.Unlock()
		id, secret, _ := r.BasicAuth()
		ok := false
		switch f.Get("grant_type") {
		case "client_credentials":
			ok = id == "oauth-test" && secret == oauthSecret
		case "authorization_code":
			sum := sha256.Sum256([]byte(f.Get("code_verifier")))
			ok = challenge != "" && base64.RawURLEncoding.EncodeToString(sum[:]) == challenge
		case "refresh_token":
			ok = strings.HasPrefix(f.Get("refresh_token"), "rt-")
		}
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client", "error_description": "refused: " + f.Encode() + " " + r.Header.Get("Authorization")})
			return
		}
		json200(w, map[string]any{"access_token": "at-" + f.Get("grant_type") + "-x9", "token_type": "Bearer", "expires_in": 3600,
			"refresh_token": "rt-x9", "scope": f.Get("scope")})
	})
	o.url = peertest.ServeLocal(t, mux).URL
	return o
}

// mcpSeen are the clientInfos of the initializes let in and the count of
// /mcp requests refused, so far.
func (o *oauthServer) mcpSeen() (clientInfos []string, refused int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.clientInfos...), o.refusedMCP
}

func (o *oauthServer) tokenRequests() (grants, resources []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.grants...), append([]string(nil), o.resources...)
}

// TestLoginAndOAuthRun: readbench login --headless gets in with the
// authorization code flow and with client credentials, prints the
// resource, scope and expiry, caches the tokens 0600; run obtains its
// token from the flags or from the cache; and no secret or token appears
// in any output, the result, or the error of a refused client.
func TestLoginAndOAuthRun(t *testing.T) {
	o := newOAuthServer(t)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("RB_OAUTH_SECRET", oauthSecret)
	t.Setenv("RB_OAUTH_WRONG", "wr0ng-s3cret-value")
	target := o.url + "/mcp"
	secrets := []string{oauthSecret, "wr0ng-s3cret-value", "at-", "rt-x9", "code-",
		base64.StdEncoding.EncodeToString([]byte("oauth-test:wr0ng-s3cret-value"))} // as a Basic Authorization header carries it
	outputs := map[string]string{}

	stdout, stderr, code := readbench(t, dir, "login", "--target", target, "--headless", "--oauth-client-id", "oauth-public")
	outputs["login --headless"] = stdout + stderr
	if code != 0 {
		t.Fatalf("login --headless: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"resource " + target, "mcp:read offline_access", "expires "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("login printed %q, want %q in it", stdout, want)
		}
	}
	// login got in with the client a run uses: its initialize (or
	// server/discover) says so.
	if infos, _ := o.mcpSeen(); len(infos) == 0 || infos[0] != "readbench/"+version {
		t.Errorf("login's authenticated initializes came as %q, want one from readbench/%s (the run's client)", infos, version)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "readbench", "tokens", "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d cached logins, want 1", len(files))
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("the cached login's mode is %v, want 0600", fi.Mode().Perm())
	}

	wl := writeWorkload(t, dir, `
name: oauth
load: {rate: 10/s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=100"}
auth:
  oauth: {client_id: oauth-test, client_secret: "${RB_OAUTH_SECRET}", scope: "mcp:read"}
`)
	plain := filepath.Join(dir, "plain.yaml")
	if err := os.WriteFile(plain, []byte("load: {rate: 10/s, duration: 1s}\nmix:\n  - {class: md, uri: \"sim:///h?mime=text/markdown&size=100\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		grant string
	}{
		{"run with the workload's client", []string{"run", wl, "--target", target, "--out", "cc.json"}, "client_credentials"},
		{"run with the cached login", []string{"run", wl, "--target", target, "--oauth-grant", "authorization_code", "--out", "ac.json"}, ""},
		{"run with no OAuth asked: the cached login", []string{"run", plain, "--target", target, "--out", "plain.json"}, ""},
		{"check with client credentials", []string{"check", "--target", target, "--oauth-client-id", "oauth-test",
			"--oauth-client-secret", "${RB_OAUTH_SECRET}"}, "client_credentials"},
		{"login with client credentials", []string{"login", "--target", target, "--oauth-grant", "client_credentials",
			"--oauth-client-id", "oauth-test", "--oauth-client-secret", "${RB_OAUTH_SECRET}"}, "client_credentials"},
	} {
		before, _ := o.tokenRequests()
		stdout, stderr, code := readbench(t, dir, c.args...)
		outputs[c.name] = stdout + stderr
		if code != 0 {
			t.Errorf("%s: exit %d\n%s%s", c.name, code, stdout, stderr)
			continue
		}
		grants, resources := o.tokenRequests()
		if strings.HasPrefix(c.name, "run with no OAuth") && !strings.Contains(stderr, "using the login cached for "+target) {
			t.Errorf("%s: stderr does not say the cached login is used:\n%s", c.name, stderr)
		}
		if c.grant == "" {
			if len(grants) != len(before) {
				t.Errorf("%s: %d token requests, want none (the cached token is valid)", c.name, len(grants)-len(before))
			}
			continue
		}
		if len(grants) != len(before)+1 || grants[len(grants)-1] != c.grant || resources[len(resources)-1] != target {
			t.Errorf("%s: token requests %v for %v, want one more %s for %s", c.name, grants, resources, c.grant, target)
		}
	}
	// Every read of those runs carried the token, and was ok; without one
	// (no OAuth, no cached login) the server refuses the run.
	for _, f := range []string{"cc.json", "ac.json", "plain.json"} {
		if r := loadResult(t, filepath.Join(dir, f)); r.Totals.Outcomes["ok"] == 0 {
			t.Errorf("%s: outcomes %v, want reads ok", f, r.Totals.Outcomes)
		} else {
			onlyGood(t, r)
		}
	}
	_, refusedBefore := o.mcpSeen()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "empty-cache"))
	stdout, stderr, code = readbench(t, dir, "run", plain, "--target", target, "--out", "none.json")
	outputs["run with no token"] = stdout + stderr
	if _, refused := o.mcpSeen(); code != 1 || refused == refusedBefore || !strings.Contains(stderr, "demands authorization") {
		t.Errorf("a run with no token: exit %d, %d requests refused; want 1, refused, saying the server demands authorization:\n%s", code, refused-refusedBefore, stderr)
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	for _, f := range []string{"cc.json", "ac.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		outputs[f] = string(b)
	}
	if !strings.Contains(outputs["cc.json"], `"client_secret"`) || !strings.Contains(outputs["cc.json"], `"client_id": "oauth-test"`) {
		t.Errorf("the result's workload does not keep its auth block, the secret redacted:\n%.2000s", outputs["cc.json"])
	}

	// A refused client: exit 1, the authorization named, no secret even
	// though the server quoted the request.
	for _, args := range [][]string{
		{"run", wl, "--target", target, "--oauth-client-secret", "${RB_OAUTH_WRONG}", "--out", "bad.json"},
		{"login", "--target", target, "--oauth-grant", "client_credentials", "--oauth-client-id", "oauth-test", "--oauth-client-secret", "${RB_OAUTH_WRONG}"},
		{"check", "--target", target, "--oauth-client-id", "oauth-test", "--oauth-client-secret", "${RB_OAUTH_WRONG}"},
	} {
		stdout, stderr, code := readbench(t, dir, args...)
		outputs[strings.Join(args, " ")] = stdout + stderr
		if code != 1 || !strings.Contains(stderr, "token endpoint answered 401") {
			t.Errorf("%v: exit %d, want 1 naming the token endpoint's refusal:\n%s%s", args, code, stdout, stderr)
		}
	}
	for what, text := range outputs {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%q appears in the output of %s:\n%s", s, what, text)
			}
		}
	}
}

// origin is the test server's own origin as a request to it names it: a
// handler reads it from the request rather than from oauthServer.url,
// which is set after the server starts (the race detector cannot see that
// the child process that sends the request learned the URL after it).
func origin(r *http.Request) string { return "http://" + r.Host }
