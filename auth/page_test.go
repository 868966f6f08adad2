package auth

import (
	"errors"
	"strings"
	"testing"
)

// oidcErrorPage is oidc-provider 9.13.3's error page (its default
// renderError), as a headless login without cookies met it.
const oidcErrorPage = `<!DOCTYPE html><html><head><title>oops! something went wrong</title><style>h1{font-weight:100}</style></head>
<body><div class="container"><h1>oops! something went wrong</h1><pre><strong>error</strong>: invalid_request</pre>` +
	`<pre><strong>error_description</strong>: interaction session id cookie not found</pre></div></body></html>`

func TestPageReason(t *testing.T) {
	for _, c := range []struct {
		name, contentType, body, want string
	}{
		{"oidc-provider error page", "text/html; charset=utf-8", oidcErrorPage, `"invalid_request: interaction session id cookie not found"`},
		{"OAuth error object", "application/json", `{"error":"invalid_client","error_description":"client is invalid"}`, `"invalid_client: client is invalid"`},
		{"error code only", "text/html", `<p>error=access_denied</p>`, `"access_denied"`},
		{"a title", "text/html", `<html><title>Bad Request</title><body>nope</body></html>`, `"Bad Request"`},
		{"nothing to quote", "text/plain", `nope`, ``},
		{"JSON without error", "application/json", `{"message":"x"}`, ``},
		{"cut", "application/json", `{"error":"x","error_description":"` + strings.Repeat("y", 500) + `"}`, `"x: ` + strings.Repeat("y", maxReason-3) + `…"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pageReason(c.contentType, []byte(c.body)); got != c.want {
				t.Errorf("pageReason = %s, want %s", got, c.want)
			}
		})
	}
}

func TestPageKind(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`<form action="/interaction/x/login" method="post"><input required type="password" name="password"></form>`, "a login page"},
		{`<form action="/interaction/x/confirm" method="post"><button>Continue</button></form>`, "a page with a form (a consent page?)"},
		{`<p>hello</p>`, ""},
	} {
		if got := pageKind([]byte(c.body)); got != c.want {
			t.Errorf("pageKind(%.40q) = %q, want %q", c.body, got, c.want)
		}
	}
}

func TestWantsConsentPrompt(t *testing.T) {
	for _, c := range []struct {
		name  string
		md    Metadata
		scope []string
		want  bool
	}{
		{"OpenID provider, offline_access", Metadata{OpenID: true}, []string{"mcp:read", "offline_access"}, true},
		{"prompt values with consent", Metadata{Prompts: []string{"none", "consent"}}, []string{"offline_access"}, true},
		{"OpenID provider, no offline_access", Metadata{OpenID: true}, []string{"mcp:read"}, false},
		{"plain OAuth server", Metadata{}, []string{"offline_access"}, false},
	} {
		if got := c.md.wantsConsentPrompt(c.scope); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCachedSecret(t *testing.T) {
	t.Setenv("RB_TEST_SECRET_SET", "from-env")
	for _, c := range []struct {
		name, given, env, want, errHas string
	}{
		{"given now", "given", "RB_TEST_SECRET_SET", "given", ""},
		{"from the variable the login named", "", "RB_TEST_SECRET_SET", "from-env", ""},
		{"the variable unset", "", "RB_TEST_SECRET_UNSET", "", "$RB_TEST_SECRET_UNSET"},
		{"none", "", "", "", "--oauth-client-secret"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := cachedSecret(Config{ClientSecret: c.given}, &Entry{Target: "http://127.0.0.1/mcp", ClientID: "x", ClientSecretEnv: c.env})
			if got != c.want || (c.errHas == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), c.errHas) || !errors.Is(err, ErrNoSecret))) {
				t.Errorf("cachedSecret = %q, %v; want %q and an error naming %q", got, err, c.want, c.errHas)
			}
		})
	}
}
