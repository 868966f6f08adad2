package record

import (
	"strings"
	"testing"
)

// TestSwapOrigin: only URLs on the upstream's origin are put on the
// proxy's: not another port that begins with the same digits, not a URL
// that merely contains the origin further on.
func TestSwapOrigin(t *testing.T) {
	const up, here = "http://127.0.0.1:80", "http://127.0.0.1:9000"
	for _, tc := range []struct{ in, want string }{
		{`Bearer resource_metadata="http://127.0.0.1:80/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`,
			`Bearer resource_metadata="http://127.0.0.1:9000/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`},
		{"http://127.0.0.1:80", here},
		{"http://127.0.0.1:80?x=1", here + "?x=1"},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{`realm="http://127.0.0.1:8080", a="http://127.0.0.1:80/x"`, `realm="http://127.0.0.1:8080", a="http://127.0.0.1:9000/x"`},
		{"", ""},
	} {
		if got := swapOrigin(tc.in, up, here); got != tc.want {
			t.Errorf("swapOrigin(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestForeignAuthorizationServer (issue 47, item 9): an authorization
// server on another origin, learnt from the upstream's metadata only, is
// stood for under /readbench-as/n: discovery paths by both rules for an
// issuer with a path, its endpoints, and the URLs each way.
func TestForeignAuthorizationServer(t *testing.T) {
	const up, as, here = "http://127.0.0.1:80", "http://127.0.0.1:4000", "http://127.0.0.1:9000"
	p := &HTTP{upOrigin: up, upPath: "/mcp"}
	prm := p.swapJSON([]byte(`{"resource":"`+up+`/mcp","authorization_servers":["`+as+`"]}`), here, true)
	if want := `{"authorization_servers":["` + here + `/readbench-as/1"],"resource":"` + here + `/mcp"}`; string(prm) != want {
		t.Errorf("protected resource metadata: %s, want %s", prm, want)
	}
	meta := p.swapJSON([]byte(`{"issuer":"`+as+`","token_endpoint":"`+as+`/token","authorization_servers":["http://127.0.0.1:5000"]}`), here, false)
	if want := `{"authorization_servers":["http://127.0.0.1:5000"],"issuer":"` + here + `/readbench-as/1","token_endpoint":"` + here + `/readbench-as/1/token"}`; string(meta) != want {
		t.Errorf("the provider's metadata: %s, want %s (a provider names no server to stand for)", meta, want)
	}
	for _, tc := range []struct {
		path, origin, rest string
		ok                 bool
	}{
		{"/readbench-as/1/token", as, "/token", true},
		{"/readbench-as/1", as, "/", true},
		{"/.well-known/oauth-authorization-server/readbench-as/1", as, "/.well-known/oauth-authorization-server", true},
		{"/.well-known/openid-configuration/readbench-as/1", as, "/.well-known/openid-configuration", true},
		{"/readbench-as/1/.well-known/openid-configuration", as, "/.well-known/openid-configuration", true},
		{"/readbench-as/2/token", "", "", false},
		{"/readbench-as/10/token", "", "", false},
		{"/.well-known/oauth-protected-resource/mcp", "", "", false},
		{"/token", "", "", false},
	} {
		origin, rest, ok := p.foreign.route(tc.path)
		if origin != tc.origin || rest != tc.rest || ok != tc.ok {
			t.Errorf("route(%s) = %q %q %v, want %q %q %v", tc.path, origin, rest, ok, tc.origin, tc.rest, tc.ok)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{here + "/mcp", up + "/mcp"},
		{here + "/readbench-as/1/token", as + "/token"},
		{here + "/readbench-as/1", as},
		{"http://127.0.0.1:33333/callback", "http://127.0.0.1:33333/callback"},
	} {
		if got := p.toServer(tc.in, here); got != tc.want {
			t.Errorf("toServer(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got, want := p.toClient(`Bearer error="invalid_token", resource_metadata="`+up+`/.well-known/oauth-protected-resource/mcp", as="`+as+`"`, here),
		`Bearer error="invalid_token", resource_metadata="`+here+`/.well-known/oauth-protected-resource/mcp", as="`+here+`/readbench-as/1"`; got != want {
		t.Errorf("toClient: %s, want %s", got, want)
	}
}

// FuzzForeignRoute: a path a client sends never panics the router, and
// what it routes is a path on a learnt origin.
func FuzzForeignRoute(f *testing.F) {
	for _, s := range []string{"/readbench-as/1/token", "/.well-known/openid-configuration/readbench-as/1", "/readbench-as/", "/.well-known/", "/.well-known//readbench-as/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		var fo foreignOrigins
		fo.prefix("http://127.0.0.1:4000", true)
		origin, rest, ok := fo.route(path)
		if ok && (origin != "http://127.0.0.1:4000" || !strings.HasPrefix(rest, "/")) {
			t.Errorf("route(%q) = %q %q", path, origin, rest)
		}
	})
}
