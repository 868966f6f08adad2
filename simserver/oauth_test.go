package simserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// assertion signs a private_key_jwt client assertion for the fixture's
// token endpoint.
func assertion(t *testing.T, f *oauthFixture, key *ecdsa.PrivateKey, id, jti string) string {
	t.Helper()
	now := f.clock.Now()
	s, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.RegisteredClaims{
		Issuer: id, Subject: id, Audience: jwt.ClaimStrings{f.base + "/token"}, ID: jti,
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Minute)),
	}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOAuthClientCredentials gets a token with each client
// authentication method through golang.org/x/oauth2's clientcredentials,
// and reads a resource with it through the official SDK's client.
func TestOAuthClientCredentials(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f := startOAuth(t, OAuthOptions{TokenTTL: 3 * time.Second, Clients: []OAuthClient{
		{ID: "bench", Secret: "s3cret:with&odd=chars"},
		{ID: "signer", PublicKey: &key.PublicKey},
	}})
	cases := []struct {
		name string
		cfg  clientcredentials.Config
	}{
		{"client_secret_basic", clientcredentials.Config{ClientID: "bench", ClientSecret: "s3cret:with&odd=chars", AuthStyle: oauth2.AuthStyleInHeader}},
		{"client_secret_post", clientcredentials.Config{ClientID: "bench", ClientSecret: "s3cret:with&odd=chars", AuthStyle: oauth2.AuthStyleInParams}},
		{"private_key_jwt", clientcredentials.Config{ClientID: "signer", AuthStyle: oauth2.AuthStyleInParams, EndpointParams: url.Values{
			"client_assertion_type": {assertionType}, "client_assertion": {assertion(t, f, key, "signer", "j1")},
		}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.TokenURL = f.base + "/token"
			c.cfg.EndpointParams = withValues(c.cfg.EndpointParams, "resource", f.mcp)
			tok, err := c.cfg.Token(f.ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if tok.RefreshToken != "" || tok.Expiry.IsZero() || tok.Extra("scope") != "mcp:read" {
				t.Fatalf("token: refresh %q, expiry %v, scope %v", tok.RefreshToken, tok.Expiry, tok.Extra("scope"))
			}
			hc := oauth2.NewClient(f.ctx(t), oauth2.StaticTokenSource(tok))
			if err := sdkRead(t, f.mcp, hc); err != nil {
				t.Fatalf("SDK read with a token: %v", err)
			}
		})
	}
	if got := f.a.Counts().ClientCredentials; got != 3 {
		t.Errorf("client_credentials tokens: %d, want 3", got)
	}
	// The same assertion twice is a replay.
	replay := cases[2].cfg
	replay.TokenURL = f.base + "/token"
	if _, err := replay.Token(f.ctx(t)); err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Errorf("replayed assertion: %v, want invalid_client", err)
	}
}

func withValues(v url.Values, k, val string) url.Values {
	out := url.Values{} // not maps.Clone: v may be nil, and Set needs a map
	maps.Copy(out, v)
	out.Set(k, val)
	return out
}

// TestOAuthUnauthenticated: the official SDK's client without a token gets
// 401, and the challenge names the metadata, whose chain leads to the
// authorization server.
func TestOAuthUnauthenticated(t *testing.T) {
	f := startOAuth(t, OAuthOptions{})
	err := sdkRead(t, f.mcp, f.httpClient)
	if err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("SDK read without a token: %v, want a 401", err)
	}
	status, ch := f.post(t, "")
	if status != http.StatusUnauthorized || param(ch, "resource_metadata") != f.base+"/.well-known/oauth-protected-resource/mcp" ||
		param(ch, "scope") != "mcp:read" || param(ch, "error") != "" {
		t.Fatalf("no token: %d %+v", status, ch)
	}
	ctx := f.ctx(t)
	prm, err := oauthex.GetProtectedResourceMetadata(ctx, param(ch, "resource_metadata"), f.mcp, f.httpClient)
	if err != nil {
		t.Fatal(err)
	}
	if len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != f.base || !slices.Equal(prm.ScopesSupported, []string{"mcp:read"}) {
		t.Fatalf("authorization servers %q, scopes %q", prm.AuthorizationServers, prm.ScopesSupported)
	}
	if _, err := oauthex.GetProtectedResourceMetadata(ctx, f.base+"/.well-known/oauth-protected-resource", f.mcp, f.httpClient); err != nil {
		t.Fatalf("root fallback: %v", err)
	}
	// A browser-based client's preflight.
	pre, _ := http.NewRequest(http.MethodOptions, param(ch, "resource_metadata"), nil)
	resp, err := f.httpClient.Do(pre)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("preflight of the resource metadata: %d", resp.StatusCode)
	}
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		asm, err := oauthex.GetAuthServerMeta(ctx, f.base+p, f.base, f.httpClient)
		if err != nil || asm == nil {
			t.Fatalf("%s: %v", p, err)
		}
		if asm.TokenEndpoint != f.base+"/token" || !slices.Contains(asm.ScopesSupported, "offline_access") || asm.RegistrationEndpoint != f.base+"/register" || asm.CodeChallengeMethodsSupported[0] != "S256" {
			t.Fatalf("%s: %+v", p, asm)
		}
	}
	if got := f.a.Counts().Unauthorized; got < 2 {
		t.Errorf("401s counted: %d", got)
	}
}

// TestOAuthRefused: tokens the resource must refuse on every request.
func TestOAuthRefused(t *testing.T) {
	f := startOAuth(t, OAuthOptions{TokenTTL: 3 * time.Second, Scopes: []string{"mcp:read", "mcp:other"},
		RequiredScopes: []string{"mcp:read"}, Clients: []OAuthClient{{ID: "bench", Secret: "pw"}}})
	get := func(scope string) string {
		cfg := clientcredentials.Config{ClientID: "bench", ClientSecret: "pw", TokenURL: f.base + "/token"}
		if scope != "" {
			cfg.Scopes = []string{scope}
		}
		tok, err := cfg.Token(f.ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		return tok.AccessToken
	}
	now := f.clock.Now()
	foreign, err := f.a.mint(accessClaims{RegisteredClaims: jwt.RegisteredClaims{Issuer: f.base, Subject: "bench",
		Audience: jwt.ClaimStrings{"http://127.0.0.1:1/mcp"}, IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))},
		ClientID: "bench", Scope: "mcp:read"})
	if err != nil {
		t.Fatal(err)
	}
	good, narrow := get(""), get("mcp:other")
	if status, _ := f.post(t, "Bearer "+good); status != http.StatusOK {
		t.Fatalf("a good token: %d", status)
	}
	status, ch := f.post(t, "Bearer "+narrow)
	if status != http.StatusForbidden || param(ch, "error") != "insufficient_scope" || param(ch, "scope") != "mcp:read" || param(ch, "resource_metadata") == "" {
		t.Errorf("insufficient scope: %d %+v", status, ch)
	}
	status, ch = f.post(t, "Bearer "+foreign)
	if status != http.StatusUnauthorized || param(ch, "error") != "invalid_token" {
		t.Errorf("foreign audience: %d %+v", status, ch)
	}
	for _, bad := range []string{"Bearer nonsense", "Basic Ym9iOnB3", "Bearer " + good[:len(good)-2] + "xx"} {
		if status, _ := f.post(t, bad); status != http.StatusUnauthorized {
			t.Errorf("%q: %d, want 401", bad, status)
		}
	}
	f.clock.Advance(4 * time.Second) // past the 3 s TTL
	status, ch = f.post(t, "Bearer "+good)
	if status != http.StatusUnauthorized || param(ch, "error") != "invalid_token" || !strings.Contains(param(ch, "error_description"), "expired") {
		t.Errorf("expired: %d %+v", status, ch)
	}
	c := f.a.Counts()
	if c.Forbidden != 1 || c.Unauthorized != 5 || c.Accepted != 1 {
		t.Errorf("counts %+v", c)
	}
}

// TestOAuthTokenErrors: token requests the authorization server refuses.
func TestOAuthTokenErrors(t *testing.T) {
	f := startOAuth(t, OAuthOptions{Clients: []OAuthClient{{ID: "bench", Secret: "pw"}, {ID: "public"}}})
	cases := []struct {
		name   string
		basic  [2]string
		form   url.Values
		status int
		code   string
	}{
		{"wrong secret", [2]string{"bench", "nope"}, url.Values{"grant_type": {"client_credentials"}}, 401, "invalid_client"},
		{"unknown client", [2]string{"who", "pw"}, url.Values{"grant_type": {"client_credentials"}}, 401, "invalid_client"},
		{"no client", [2]string{}, url.Values{"grant_type": {"client_credentials"}}, 401, "invalid_client"},
		{"public machine", [2]string{}, url.Values{"grant_type": {"client_credentials"}, "client_id": {"public"}}, 400, "unauthorized_client"},
		{"two methods", [2]string{"bench", "pw"}, url.Values{"grant_type": {"client_credentials"}, "client_secret": {"pw"}}, 400, "invalid_request"},
		{"other resource", [2]string{"bench", "pw"}, url.Values{"grant_type": {"client_credentials"}, "resource": {"http://127.0.0.1:1/mcp"}}, 400, "invalid_target"},
		{"unknown scope", [2]string{"bench", "pw"}, url.Values{"grant_type": {"client_credentials"}, "scope": {"admin"}}, 400, "invalid_scope"},
		{"unknown grant", [2]string{"bench", "pw"}, url.Values{"grant_type": {"password"}}, 400, "unsupported_grant_type"},
		{"no grant", [2]string{"bench", "pw"}, url.Values{}, 400, "invalid_request"},
		{"bad code", [2]string{"bench", "pw"}, url.Values{"grant_type": {"authorization_code"}, "code": {"x"}}, 400, "invalid_grant"},
		{"bad refresh", [2]string{"bench", "pw"}, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}}, 400, "invalid_grant"},
		{"bad assertion", [2]string{}, url.Values{"grant_type": {"client_credentials"}, "client_id": {"bench"},
			"client_assertion_type": {assertionType}, "client_assertion": {"a.b.c"}}, 401, "invalid_client"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, code := tokenRequest(t, f, c.basic, c.form)
			if status != c.status || code != c.code {
				t.Errorf("got %d %q, want %d %q", status, code, c.status, c.code)
			}
		})
	}
	if got := f.a.Counts().TokenErrors; got != int64(len(cases)) {
		t.Errorf("refused token requests: %d, want %d", got, len(cases))
	}
}

// TestOAuthEveryRequest: the token is checked on every request, not once
// per session: one SDK session reads while its token lasts and is refused
// on the next read once it has expired.
func TestOAuthEveryRequest(t *testing.T) {
	f := startOAuth(t, OAuthOptions{TokenTTL: 3 * time.Second, Clients: []OAuthClient{{ID: "bench", Secret: "pw"}}})
	cfg := clientcredentials.Config{ClientID: "bench", ClientSecret: "pw", TokenURL: f.base + "/token"}
	tok, err := cfg.Token(f.ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := f.ctx(t)
	cs, err := sdkConnect(ctx, f.mcp, oauth2.NewClient(ctx, oauth2.StaticTokenSource(tok)))
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	read := func() error {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "sim:///a?mime=text/plain&size=10"})
		return err
	}
	if err := read(); err != nil {
		t.Fatalf("read with a fresh token: %v", err)
	}
	f.clock.Advance(2 * time.Second)
	if err := read(); err != nil {
		t.Fatalf("read at 2 s of 3: %v", err)
	}
	before := f.a.Counts().Unauthorized
	f.clock.Advance(2 * time.Second)
	if err := read(); err == nil {
		t.Fatal("read at 4 s of 3 succeeded")
	}
	if got := f.a.Counts().Unauthorized; got != before+1 {
		t.Errorf("401s: %d, want %d", got, before+1)
	}
}

// TestOAuthTokenLastsItsTTL: a token issued between two seconds is still
// accepted its whole expires_in later (a JWT's exp is in whole seconds),
// and refused after.
func TestOAuthTokenLastsItsTTL(t *testing.T) {
	f := startOAuth(t, OAuthOptions{TokenTTL: 3 * time.Second, Clients: []OAuthClient{{ID: "bench", Secret: "pw"}}})
	f.clock.Advance(900 * time.Millisecond)
	cfg := clientcredentials.Config{ClientID: "bench", ClientSecret: "pw", TokenURL: f.base + "/token"}
	tok, err := cfg.Token(f.ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2900 * time.Millisecond) // 2.9 s of its 3
	if status, _ := f.post(t, "Bearer "+tok.AccessToken); status != http.StatusOK {
		t.Errorf("a token 2.9 s into its 3 s: %d, want 200", status)
	}
	f.clock.Advance(1200 * time.Millisecond)
	if status, _ := f.post(t, "Bearer "+tok.AccessToken); status != http.StatusUnauthorized {
		t.Errorf("a token 4.1 s into its 3 s: %d, want 401", status)
	}
}
