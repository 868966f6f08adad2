package auth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fixture is an MCP server and its authorization server on one
// 127.0.0.1 httptest server: /mcp refuses a request without a token it
// issued, the metadata documents are served where docs says, and /token
// issues tokens (client credentials and refresh).
type fixture struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	docs      map[string]any // path → JSON document; others 404
	gets      []string       // metadata paths asked for, in order
	forms     []url.Values   // token requests' forms
	auths     []string       // token requests' Authorization headers
	issued    map[string]bool
	expiresIn int
	refresh   bool                      // issue refresh tokens
	tokenHook func(n int, f url.Values) // runs before the n-th (1-based) token request is answered
	challenge string
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, docs: map[string]any{}, issued: map[string]bool{}, expiresIn: 3600}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	f.challenge = `Bearer resource_metadata="` + f.srv.URL + `/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`
	return f
}

func (f *fixture) url(p string) string { return f.srv.URL + p }

// standard serves the usual documents: path-inserted PRM, root AS.
func (f *fixture) standard(methods ...string) {
	f.docs["/.well-known/oauth-protected-resource/mcp"] = map[string]any{
		"resource": f.url("/mcp"), "authorization_servers": []string{f.srv.URL}, "scopes_supported": []string{"mcp:read"},
	}
	f.docs["/.well-known/oauth-authorization-server"] = map[string]any{
		"issuer": f.srv.URL, "token_endpoint": f.url("/token"), "authorization_endpoint": f.url("/authorize"),
		"token_endpoint_auth_methods_supported": methods,
	}
}

func (f *fixture) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/mcp":
		f.mu.Lock()
		ok := f.issued[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		ch := f.challenge
		f.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", ch)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)
	case r.URL.Path == "/echo": // a token endpoint that quotes the request in its refusal
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client", "error_description": r.PostForm.Encode()})
	case r.URL.Path == "/token":
		_ = r.ParseForm()
		f.mu.Lock()
		f.forms = append(f.forms, r.PostForm)
		f.auths = append(f.auths, r.Header.Get("Authorization"))
		n, hook := len(f.forms), f.tokenHook
		f.mu.Unlock()
		if hook != nil {
			hook(n, r.PostForm)
		}
		tok := fmt.Sprintf("token-%d", n)
		f.mu.Lock()
		f.issued[tok] = true
		ans := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": f.expiresIn, "scope": r.PostForm.Get("scope")}
		if f.refresh {
			ans["refresh_token"] = fmt.Sprintf("refresh-%d", n)
		}
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(ans)
	default:
		f.mu.Lock()
		f.gets = append(f.gets, r.URL.Path)
		doc, ok := f.docs[r.URL.Path]
		f.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	}
}

func (f *fixture) tokenForms() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.forms...)
}
