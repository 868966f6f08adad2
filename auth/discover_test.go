package auth

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
)

// TestDiscoverOrder: the documents are looked for in the order the MCP
// authorization specification gives, and the first found is used.
func TestDiscoverOrder(t *testing.T) {
	const prmPath, prmRoot = "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"
	for _, c := range []struct {
		name      string
		challenge bool                                               // the challenge names the PRM URL
		asPath    string                                             // the issuer's path
		docs      func(f *fixture, as map[string]any) map[string]any // path → document
		wantGets  []string
		defaulted bool
	}{
		{"challenge's PRM, root OAuth metadata", true, "", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{"/custom/prm": prm(f, ""), "/.well-known/oauth-authorization-server": as}
		}, []string{"/custom/prm", "/.well-known/oauth-authorization-server"}, false},
		{"path-inserted PRM first", false, "", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{prmPath: prm(f, ""), prmRoot: map[string]any{"resource": "wrong"}, "/.well-known/oauth-authorization-server": as}
		}, []string{prmPath, "/.well-known/oauth-authorization-server"}, false},
		{"root PRM after the path-inserted one", false, "", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{prmRoot: prm(f, ""), "/.well-known/openid-configuration": as}
		}, []string{prmPath, prmRoot, "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}, false},
		{"issuer with a path: OAuth path-inserted", false, "/tenant", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{prmPath: prm(f, "/tenant"), "/.well-known/oauth-authorization-server/tenant": as}
		}, []string{prmPath, "/.well-known/oauth-authorization-server/tenant"}, false},
		{"issuer with a path: OIDC path-inserted, then path-appended", false, "/tenant", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{prmPath: prm(f, "/tenant"), "/tenant/.well-known/openid-configuration": as}
		}, []string{prmPath, "/.well-known/oauth-authorization-server/tenant", "/.well-known/openid-configuration/tenant", "/tenant/.well-known/openid-configuration"}, false},
		{"2025-03-26: no PRM, the origin's metadata", false, "", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{"/.well-known/oauth-authorization-server": as}
		}, []string{prmPath, prmRoot, "/.well-known/oauth-authorization-server"}, false},
		{"2025-03-26: nothing, the default endpoints", false, "", func(f *fixture, as map[string]any) map[string]any {
			return map[string]any{}
		}, []string{prmPath, prmRoot, "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			as := map[string]any{"issuer": f.url(c.asPath), "token_endpoint": f.url("/tok"), "authorization_endpoint": f.url("/auth")}
			f.docs = c.docs(f, as)
			var ch Challenge
			if c.challenge {
				ch.ResourceMetadata = f.url("/custom/prm")
			}
			md, err := Discover(context.Background(), http.DefaultClient, f.url("/mcp"), ch)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.gets, c.wantGets) {
				t.Errorf("asked for\n %v\nwant\n %v", f.gets, c.wantGets)
			}
			if md.Defaulted != c.defaulted {
				t.Errorf("Defaulted = %v", md.Defaulted)
			}
			want := f.url("/tok")
			if c.defaulted {
				want = f.url("/token")
				if md.AS.AuthorizationEndpoint != f.url("/authorize") || md.AS.RegistrationEndpoint != f.url("/register") {
					t.Errorf("default endpoints %+v", md.AS)
				}
			}
			if md.AS.TokenEndpoint != want || md.Resource != f.url("/mcp") {
				t.Errorf("token endpoint %q, resource %q", md.AS.TokenEndpoint, md.Resource)
			}
		})
	}
}

func prm(f *fixture, asPath string) map[string]any {
	return map[string]any{"resource": f.url("/mcp"), "authorization_servers": []string{f.url(asPath)}}
}

// TestDiscoverRefuses: metadata for another resource or another issuer
// is an error, never a token request.
func TestDiscoverRefuses(t *testing.T) {
	for _, c := range []struct {
		name     string
		resource string
		issuer   string
		mismatch bool
	}{
		{"resource of another server", "https://elsewhere.example.com/mcp", "", true},
		{"resource of another path", "/other", "", true},
		{"issuer other than the one named", "/mcp", "https://evil.example.com", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			res := c.resource
			if res[0] == '/' {
				res = f.url(res)
			}
			iss := c.issuer
			if iss == "" {
				iss = f.srv.URL
			}
			f.docs["/.well-known/oauth-protected-resource/mcp"] = map[string]any{"resource": res, "authorization_servers": []string{f.srv.URL}}
			f.docs["/.well-known/oauth-authorization-server"] = map[string]any{"issuer": iss, "token_endpoint": f.url("/token")}
			_, err := Discover(context.Background(), http.DefaultClient, f.url("/mcp"), Challenge{})
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrResourceMismatch) != c.mismatch {
				t.Errorf("err = %v; resource mismatch %v", err, c.mismatch)
			}
		})
	}
}

func TestHTTPSOrLoopback(t *testing.T) {
	for _, c := range []struct {
		endpoint string
		ok       bool
	}{
		{"", true}, {"https://as.example.com/token", true}, {"http://127.0.0.1:8080/token", true}, {"http://localhost/token", true},
		{"http://[::1]:9/token", true}, {"http://as.example.com/token", false}, {"http://10.0.0.1/token", false}, {"ftp://as/token", false},
	} {
		if err := httpsOrLoopback(c.endpoint); (err == nil) != c.ok {
			t.Errorf("httpsOrLoopback(%q) = %v, want ok %v", c.endpoint, err, c.ok)
		}
	}
}

func TestResourceCovers(t *testing.T) {
	for _, c := range []struct {
		resource, server string
		want             bool
	}{
		{"https://h/mcp", "https://h/mcp", true},
		{"https://h/mcp/", "https://h/mcp", true},
		{"https://H/mcp", "https://h/mcp", true},
		{"https://h", "https://h/mcp", true},
		{"https://h/mc", "https://h/mcp", false},
		{"http://h/mcp", "https://h/mcp", false},
		{"https://h:8443/mcp", "https://h/mcp", false},
		{"https://h/mcp/sub", "https://h/mcp", false},
	} {
		if got := resourceCovers(c.resource, mustURL(t, c.server)); got != c.want {
			t.Errorf("resourceCovers(%q, %q) = %v", c.resource, c.server, got)
		}
	}
}

// FuzzParseMetadata: any bytes decode or fail cleanly as either document.
func FuzzParseMetadata(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"resource":"https://x/mcp","authorization_servers":["https://as"]}`,
		`{"issuer":"https://as","token_endpoint":"https://as/token","token_endpoint_auth_methods_supported":["private_key_jwt"]}`, `[`, `{"scopes_supported":7}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := parseMetadata[prmDoc](b); err == nil && p == nil {
			t.Fatal("nil document without an error")
		}
		if a, err := parseMetadata[asDoc](b); err == nil && a == nil {
			t.Fatal("nil document without an error")
		}
	})
}
