package simserver

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/readbench/readbench/protocol"
)

// codeTTL is how long an authorization code waits for its exchange.
const codeTTL = time.Minute

// serveAuthorize is the authorization endpoint. No person is asked: a
// valid request is approved at once, redirecting to the client's
// redirect_uri with a code, which is what `readbench login --headless`
// follows. PKCE with S256 is required (OAuth 2.1).
func (a *OAuth) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
		return
	}
	q := r.Form
	c := a.client(q.Get("client_id"))
	if c == nil {
		// Without a known client there is no redirect to trust: say so
		// to the user agent (RFC 6749 §4.1.2.1).
		http.Error(w, "Bad Request: unknown client_id", http.StatusBadRequest)
		return
	}
	redirect := q.Get("redirect_uri")
	if !redirectAllowed(c, redirect) {
		http.Error(w, "Bad Request: redirect_uri is not registered for this client", http.StatusBadRequest)
		return
	}
	target, _ := url.Parse(redirect) // parsed by redirectAllowed
	back := target.Query()
	if s := q.Get("state"); s != "" {
		back.Set("state", s)
	}
	back.Set("iss", a.opts.Issuer) // RFC 9207
	fail := func(code, desc string) {
		back.Set("error", code)
		back.Set("error_description", desc)
		target.RawQuery = back.Encode()
		http.Redirect(w, r, target.String(), http.StatusFound)
	}
	switch {
	case q.Get("response_type") != "code":
		fail("unsupported_response_type", "only response_type=code is served")
		return
	case q.Get("code_challenge") == "":
		fail("invalid_request", "code_challenge is required (PKCE)")
		return
	case q.Get("code_challenge_method") != "S256":
		fail("invalid_request", "code_challenge_method must be S256")
		return
	}
	if oerr := a.checkResource(q["resource"]); oerr != nil {
		fail(oerr.Code, oerr.Description)
		return
	}
	scopes, oerr := a.grantable(c, q.Get("scope"))
	if oerr != nil {
		fail(oerr.Code, oerr.Description)
		return
	}
	code := rand.Text()
	a.mu.Lock()
	now := a.opts.Now()
	for k, g := range a.codes {
		if now.After(g.expires) {
			delete(a.codes, k)
		}
	}
	a.codes[code] = codeGrant{clientID: c.ID, redirectURI: redirect, challenge: q.Get("code_challenge"),
		scope: strings.Join(scopes, " "), expires: now.Add(codeTTL)}
	a.mu.Unlock()
	a.authorizations.Add(1)
	back.Set("code", code)
	target.RawQuery = back.Encode()
	http.Redirect(w, r, target.String(), http.StatusFound)
}

// redirectAllowed tells whether /authorize may send a code to redirect:
// one of the client's redirect URIs, where a loopback one matches on any
// port (RFC 8252 §7.3), or, for a client that registered none, any
// loopback http URI.
func redirectAllowed(c *OAuthClient, redirect string) bool {
	u, err := url.Parse(redirect)
	if err != nil || u.Fragment != "" || u.Host == "" {
		return false
	}
	loopback := u.Scheme == "http" && protocol.IsLoopbackHost(u.Host)
	if len(c.RedirectURIs) == 0 {
		return loopback
	}
	for _, reg := range c.RedirectURIs {
		if reg == redirect {
			return true
		}
		ru, err := url.Parse(reg)
		if err == nil && loopback && ru.Scheme == "http" && ru.Hostname() == u.Hostname() &&
			ru.Path == u.Path && ru.RawQuery == u.RawQuery {
			return true
		}
	}
	return false
}

// registration is a dynamic client registration request (RFC 7591 §2),
// the fields this server uses. (oauthex.ClientRegistrationMetadata types
// jwks as a string, which a real JWK Set object would not decode into.)
type registration struct {
	RedirectURIs            []string        `json:"redirect_uris"`
	TokenEndpointAuthMethod string          `json:"token_endpoint_auth_method"`
	GrantTypes              []string        `json:"grant_types"`
	ResponseTypes           []string        `json:"response_types"`
	ClientName              string          `json:"client_name"`
	Scope                   string          `json:"scope"`
	JWKS                    json.RawMessage `json:"jwks"`
	JWKSURI                 string          `json:"jwks_uri"`
}

// serveRegister is dynamic client registration (RFC 7591): any client may
// register, as public (token_endpoint_auth_method none) or confidential
// (a client secret, for client_secret_basic or client_secret_post).
func (a *OAuth) serveRegister(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	reg, err := decodeRegistration(http.MaxBytesReader(w, r.Body, maxForm))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, &oauthex.ClientRegistrationError{ErrorCode: "invalid_client_metadata", ErrorDescription: err.Error()})
		return
	}
	c := &OAuthClient{ID: "client-" + rand.Text(), RedirectURIs: reg.RedirectURIs, Scope: reg.Scope}
	if reg.TokenEndpointAuthMethod != "none" {
		c.Secret = rand.Text() + rand.Text()
	}
	a.mu.Lock()
	a.clients[c.ID] = c
	a.mu.Unlock()
	a.registrations.Add(1)
	if a.opts.Logf != nil {
		a.opts.Logf("readbench serve: OAuth client %s registered (%s)", c.ID, reg.TokenEndpointAuthMethod)
	}
	writeJSON(w, http.StatusCreated, &oauthex.ClientRegistrationResponse{
		ClientRegistrationMetadata: oauthex.ClientRegistrationMetadata{
			RedirectURIs: reg.RedirectURIs, TokenEndpointAuthMethod: reg.TokenEndpointAuthMethod,
			GrantTypes: reg.GrantTypes, ResponseTypes: reg.ResponseTypes, ClientName: reg.ClientName, Scope: reg.Scope,
		},
		ClientID: c.ID, ClientSecret: c.Secret, ClientIDIssuedAt: a.opts.Now(),
	})
}

// decodeRegistration reads and checks a registration request, filling in
// RFC 7591's defaults.
func decodeRegistration(body io.Reader) (*registration, error) {
	var reg registration
	if err := json.NewDecoder(body).Decode(&reg); err != nil {
		return nil, fmt.Errorf("the body is not client metadata: %w", err)
	}
	if reg.TokenEndpointAuthMethod == "" {
		reg.TokenEndpointAuthMethod = "client_secret_basic"
	}
	switch reg.TokenEndpointAuthMethod {
	case "none", "client_secret_basic", "client_secret_post":
	case "private_key_jwt":
		return nil, errors.New("private_key_jwt clients are pre-registered here (readbench serve --oauth-client-key)")
	default:
		return nil, fmt.Errorf("token_endpoint_auth_method %q is not served", reg.TokenEndpointAuthMethod)
	}
	if len(reg.GrantTypes) == 0 {
		reg.GrantTypes = []string{grantAuthorizationCode}
	}
	for _, g := range reg.GrantTypes {
		if g != grantAuthorizationCode && g != grantRefreshToken && g != grantClientCredentials {
			return nil, fmt.Errorf("grant type %q is not served", g)
		}
	}
	if len(reg.ResponseTypes) == 0 {
		reg.ResponseTypes = []string{"code"}
	}
	if slices.Contains(reg.GrantTypes, grantAuthorizationCode) && len(reg.RedirectURIs) == 0 {
		return nil, errors.New("redirect_uris are required for authorization_code")
	}
	for _, ru := range reg.RedirectURIs {
		u, err := url.Parse(ru)
		switch {
		case err != nil || u.Host == "" || u.Fragment != "":
			return nil, fmt.Errorf("redirect_uri %q: want an absolute URL without fragment", ru)
		case u.Scheme == "https", u.Scheme == "http" && protocol.IsLoopbackHost(u.Host):
		default:
			return nil, fmt.Errorf("redirect_uri %q: want https, or http on a loopback host", ru)
		}
	}
	return &reg, nil
}
