package simserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// authorize follows an authorization URL headlessly, as `readbench login
// --headless` does, and returns the query of the redirect it is sent to.
func authorize(t *testing.T, f *oauthFixture, authURL string) url.Values {
	t.Helper()
	hc := &http.Client{Transport: f.httpClient.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: %d, want 302", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Host != "127.0.0.1:9999" || loc.Path != "/callback" {
		t.Fatalf("redirected to %q (%v)", resp.Header.Get("Location"), err)
	}
	return loc.Query()
}

// TestOAuthAuthorizationCode registers a public client (RFC 7591, with the
// SDK's oauthex.RegisterClient), runs the authorization code flow with
// PKCE through golang.org/x/oauth2, reads with the token through the SDK's
// client, refreshes it past its expiry and checks the refresh token
// rotates.
func TestOAuthAuthorizationCode(t *testing.T) {
	f := startOAuth(t, OAuthOptions{TokenTTL: 3 * time.Second})
	ctx := f.ctx(t)
	const redirect = "http://127.0.0.1:9999/callback"
	reg, err := oauthex.RegisterClient(ctx, f.base+"/register", &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{"http://127.0.0.1/callback"}, TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ClientName: "readbench",
	}, f.httpClient)
	if err != nil {
		t.Fatal(err)
	}
	if reg.ClientID == "" || reg.ClientSecret != "" {
		t.Fatalf("registration: %+v", reg)
	}
	cfg := &oauth2.Config{ClientID: reg.ClientID, Endpoint: f.endpoint(), RedirectURL: redirect, Scopes: []string{"mcp:read", "offline_access"}}
	cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	verifier := oauth2.GenerateVerifier()
	q := authorize(t, f, cfg.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", f.mcp)))
	if q.Get("state") != "st4te" || q.Get("iss") != f.base || q.Get("code") == "" {
		t.Fatalf("redirect query %v", q)
	}
	if _, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption("not-the-verifier-"+verifier)); err == nil {
		t.Fatal("exchange with a wrong verifier succeeded")
	}
	// A code is single-use: the failed exchange spent it.
	q = authorize(t, f, cfg.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier)))
	tok, err := cfg.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", f.mcp))
	if err != nil {
		t.Fatal(err)
	}
	if tok.RefreshToken == "" || tok.Extra("scope") != "mcp:read offline_access" {
		t.Fatalf("token: refresh %q, scope %v", tok.RefreshToken, tok.Extra("scope"))
	}
	if err := sdkRead(t, f.mcp, oauth2.NewClient(ctx, oauth2.StaticTokenSource(tok))); err != nil {
		t.Fatalf("SDK read: %v", err)
	}

	f.clock.Advance(4 * time.Second)
	if status, _ := f.post(t, "Bearer "+tok.AccessToken); status != http.StatusUnauthorized {
		t.Fatalf("expired token: %d, want 401", status)
	}
	expired := *tok
	expired.Expiry = time.Now().Add(-time.Second) // so x/oauth2 refreshes
	fresh, err := cfg.TokenSource(ctx, &expired).Token()
	if err != nil {
		t.Fatal(err)
	}
	if fresh.AccessToken == tok.AccessToken || fresh.RefreshToken == tok.RefreshToken || fresh.RefreshToken == "" {
		t.Fatal("refresh: the tokens did not rotate")
	}
	if status, _ := f.post(t, "Bearer "+fresh.AccessToken); status != http.StatusOK {
		t.Fatalf("refreshed token: %d, want 200", status)
	}
	_, err = cfg.TokenSource(ctx, &expired).Token()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("reusing a rotated refresh token: %v, want invalid_grant", err)
	}
	c := f.a.Counts()
	if c.Registrations != 1 || c.Authorizations != 2 || c.AuthorizationCode != 1 || c.Refreshes != 1 || c.TokenErrors != 2 {
		t.Errorf("counts %+v", c)
	}
}

// TestOAuthAuthorizeRefused: authorization requests refused, by a redirect
// carrying the error when the redirect is trusted, by a 400 when not.
func TestOAuthAuthorizeRefused(t *testing.T) {
	f := startOAuth(t, OAuthOptions{Clients: []OAuthClient{{ID: "pre", RedirectURIs: []string{"http://127.0.0.1/callback"}}}})
	good := url.Values{"response_type": {"code"}, "client_id": {"pre"}, "redirect_uri": {"http://127.0.0.1:9999/callback"},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())}, "code_challenge_method": {"S256"}}
	with := func(k, v string) string {
		q := maps.Clone(good)
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
		return f.base + "/authorize?" + q.Encode()
	}
	for _, c := range []struct{ name, url, err string }{
		{"no PKCE", with("code_challenge", ""), "invalid_request"},
		{"plain PKCE", with("code_challenge_method", "plain"), "invalid_request"},
		{"token response", with("response_type", "token"), "unsupported_response_type"},
		{"unknown scope", with("scope", "admin"), "invalid_scope"},
		{"other resource", with("resource", "https://example.com/mcp"), "invalid_target"},
	} {
		if q := authorize(t, f, c.url); q.Get("error") != c.err || q.Get("code") != "" {
			t.Errorf("%s: %v, want error %s", c.name, q, c.err)
		}
	}
	for _, u := range []string{with("client_id", "nobody"), with("redirect_uri", "http://127.0.0.1:9999/elsewhere"), with("redirect_uri", "https://evil.example/callback")} {
		resp, err := f.httpClient.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400 without a redirect", u, resp.StatusCode)
		}
	}
}

// TestOAuthRegisterRefused: registrations refused as invalid client
// metadata.
func TestOAuthRegisterRefused(t *testing.T) {
	f := startOAuth(t, OAuthOptions{})
	for _, body := range []string{
		`not json`,
		`{"redirect_uris":[]}`,
		`{"redirect_uris":["http://evil.example/cb"]}`,
		`{"redirect_uris":["javascript:alert(1)"]}`,
		`{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"private_key_jwt"}`,
		`{"redirect_uris":["http://127.0.0.1/cb"],"grant_types":["password"]}`,
	} {
		resp, err := f.httpClient.Post(f.base+"/register", "application/json", bytes.NewBufferString(body))
		if err != nil {
			t.Fatal(err)
		}
		var e oauthex.ClientRegistrationError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || e.ErrorCode != "invalid_client_metadata" {
			t.Errorf("%s: %d %+v, want 400 invalid_client_metadata", body, resp.StatusCode, e)
		}
	}
	if got := f.a.Counts().Registrations; got != 0 {
		t.Errorf("registrations: %d", got)
	}
}
