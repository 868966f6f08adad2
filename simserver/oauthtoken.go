package simserver

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
)

// The grants the token endpoint serves.
const (
	grantClientCredentials = "client_credentials"
	grantAuthorizationCode = "authorization_code"
	grantRefreshToken      = "refresh_token"
)

// assertionType is the client_assertion_type of private_key_jwt (RFC 7523).
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertionAlgs are the signatures a client assertion may carry.
var assertionAlgs = []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"}

// maxForm bounds a token or authorization request's body.
const maxForm = 64 << 10

// oauthError is an OAuth error response (RFC 6749 §5.2).
type oauthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
	status      int
}

// tokenResponse is a successful token response (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

// accessClaims are an access token's claims (RFC 9068's profile).
type accessClaims struct {
	jwt.RegisteredClaims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope,omitempty"`
}

// codeGrant is an authorization code not yet exchanged.
type codeGrant struct {
	clientID, redirectURI, challenge, scope string
	expires                                 time.Time
}

// refreshGrant is a refresh token not yet used: each use replaces it
// (rotation), so a token used twice is refused.
type refreshGrant struct {
	clientID, scope string
	expires         time.Time
}

func (a *OAuth) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	resp, oerr := a.token(w, r)
	if oerr != nil {
		a.tokenErrors.Add(1)
		status := oerr.status
		if status == 0 {
			status = http.StatusBadRequest
		}
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
		}
		writeJSON(w, status, oerr)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (a *OAuth) token(w http.ResponseWriter, r *http.Request) (*tokenResponse, *oauthError) {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		return nil, &oauthError{Code: "invalid_request", Description: "the body is not a form: " + err.Error()}
	}
	f := r.PostForm
	for k, v := range f {
		if len(v) > 1 && k != "resource" {
			return nil, &oauthError{Code: "invalid_request", Description: fmt.Sprintf("parameter %q given twice", k)}
		}
	}
	c, oerr := a.authenticate(r)
	if oerr != nil {
		return nil, oerr
	}
	if oerr := a.checkResource(f["resource"]); oerr != nil {
		return nil, oerr
	}
	now := a.opts.Now()
	switch gt := f.Get("grant_type"); gt {
	case grantClientCredentials:
		if c.Secret == "" && c.PublicKey == nil {
			return nil, &oauthError{Code: "unauthorized_client", Description: "a public client cannot use client_credentials"}
		}
		scopes, oerr := a.grantable(c, f.Get("scope"))
		if oerr != nil {
			return nil, oerr
		}
		scopes = slices.DeleteFunc(scopes, func(s string) bool { return s == scopeOffline }) // no refresh for machines
		a.clientCredentials.Add(1)
		return a.issue(c.ID, scopes, false, now)
	case grantAuthorizationCode:
		a.mu.Lock()
		g, ok := a.codes[f.Get("code")]
		delete(a.codes, f.Get("code")) // one use, whatever happens next
		a.mu.Unlock()
		switch {
		case !ok || now.After(g.expires):
			return nil, &oauthError{Code: "invalid_grant", Description: "unknown, used or expired authorization code"}
		case g.clientID != c.ID:
			return nil, &oauthError{Code: "invalid_grant", Description: "the code was issued to another client"}
		case f.Get("redirect_uri") != g.redirectURI:
			return nil, &oauthError{Code: "invalid_grant", Description: "redirect_uri differs from the authorization request's"}
		case f.Get("code_verifier") == "":
			return nil, &oauthError{Code: "invalid_request", Description: "code_verifier is required (PKCE)"}
		case subtle.ConstantTimeCompare([]byte(oauth2.S256ChallengeFromVerifier(f.Get("code_verifier"))), []byte(g.challenge)) != 1:
			return nil, &oauthError{Code: "invalid_grant", Description: "code_verifier does not match the code_challenge"}
		}
		a.authorizationCode.Add(1)
		return a.issue(c.ID, strings.Fields(g.scope), true, now)
	case grantRefreshToken:
		rt := f.Get("refresh_token")
		a.mu.Lock()
		g, ok := a.refresh[rt]
		if ok && g.clientID == c.ID {
			delete(a.refresh, rt) // rotation: the old token is spent
		}
		a.mu.Unlock()
		switch {
		case !ok || now.After(g.expires):
			return nil, &oauthError{Code: "invalid_grant", Description: "unknown, used or expired refresh token"}
		case g.clientID != c.ID:
			return nil, &oauthError{Code: "invalid_grant", Description: "the refresh token was issued to another client"}
		}
		scopes := strings.Fields(g.scope)
		if s := f.Get("scope"); s != "" { // narrowing only (RFC 6749 §6)
			for _, x := range strings.Fields(s) {
				if !slices.Contains(scopes, x) {
					return nil, &oauthError{Code: "invalid_scope", Description: fmt.Sprintf("scope %q was not granted originally", x)}
				}
			}
			scopes = strings.Fields(s)
		}
		a.refreshes.Add(1)
		return a.issue(c.ID, scopes, true, now)
	case "":
		return nil, &oauthError{Code: "invalid_request", Description: "grant_type is missing"}
	default:
		return nil, &oauthError{Code: "unsupported_grant_type", Description: fmt.Sprintf("grant_type %q is not served", gt)}
	}
}

// issue mints an access token for the resource and, when withRefresh, a
// refresh token beside it.
func (a *OAuth) issue(clientID string, scopes []string, withRefresh bool, now time.Time) (*tokenResponse, *oauthError) {
	// A JWT's exp is in whole seconds: rounded up, so that the token
	// lasts at least the expires_in it is issued with (truncated, a 3 s
	// token would die up to a second early, before a client's refresh).
	exp := now.Add(a.opts.TokenTTL)
	if whole := exp.Truncate(time.Second); whole.Before(exp) {
		exp = whole.Add(time.Second)
	}
	access := slices.DeleteFunc(slices.Clone(scopes), func(s string) bool { return s == scopeOffline })
	tok, err := a.mint(accessClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer: a.opts.Issuer, Subject: clientID, Audience: jwt.ClaimStrings{a.opts.Resource},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp), ID: rand.Text(),
		},
		ClientID: clientID, Scope: strings.Join(access, " "),
	})
	if err != nil {
		return nil, &oauthError{Code: "server_error", Description: err.Error(), status: http.StatusInternalServerError}
	}
	resp := &tokenResponse{AccessToken: tok, TokenType: "Bearer", ExpiresIn: int64(a.opts.TokenTTL.Round(time.Second) / time.Second), Scope: strings.Join(scopes, " ")}
	if resp.ExpiresIn < 1 {
		resp.ExpiresIn = 1
	}
	if withRefresh {
		resp.RefreshToken = rand.Text() + rand.Text()
		a.mu.Lock()
		a.refresh[resp.RefreshToken] = refreshGrant{clientID: clientID, scope: strings.Join(scopes, " "), expires: now.Add(a.opts.RefreshTTL)}
		a.mu.Unlock()
	}
	return resp, nil
}

// mint signs an access token.
func (a *OAuth) mint(c accessClaims) (string, error) {
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
	t.Header["typ"] = "at+jwt"
	s, err := t.SignedString(a.key)
	if err != nil {
		return "", fmt.Errorf("oauth: signing an access token: %w", err)
	}
	return s, nil
}

// authenticate finds and authenticates the client of a token request:
// private_key_jwt (a client assertion), client_secret_basic (the
// Authorization header), client_secret_post (client_secret in the form),
// or none (a public client names itself with client_id).
func (a *OAuth) authenticate(r *http.Request) (*OAuthClient, *oauthError) {
	f := r.PostForm
	bad := func(desc string) *oauthError {
		return &oauthError{Code: "invalid_client", Description: desc, status: http.StatusUnauthorized}
	}
	id, secret, basic := r.BasicAuth()
	if basic { // RFC 6749 §2.3.1: form-encoded before base64
		var e1, e2 error
		id, e1 = url.QueryUnescape(id)
		secret, e2 = url.QueryUnescape(secret)
		if e1 != nil || e2 != nil {
			return nil, bad("malformed Basic credentials")
		}
	}
	methods := 0
	for _, used := range []bool{basic, f.Has("client_secret"), f.Has("client_assertion")} {
		if used {
			methods++
		}
	}
	if methods > 1 {
		return nil, &oauthError{Code: "invalid_request", Description: "more than one client authentication method"}
	}
	switch {
	case f.Has("client_assertion"):
		return a.authenticateAssertion(r)
	case !basic:
		id, secret = f.Get("client_id"), f.Get("client_secret")
	}
	if fid := f.Get("client_id"); basic && fid != "" && fid != id {
		return nil, &oauthError{Code: "invalid_request", Description: "client_id differs from the Basic credentials'"}
	}
	c := a.client(id)
	switch {
	case id == "":
		return nil, bad("no client authentication")
	case c == nil:
		return nil, bad("unknown client")
	case c.PublicKey != nil:
		return nil, bad("this client authenticates with private_key_jwt")
	case c.Secret == "" && (basic || secret != ""):
		return nil, bad("a public client has no secret")
	case c.Secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(c.Secret)) != 1:
		return nil, bad("wrong client secret")
	}
	return c, nil
}

// authenticateAssertion checks a private_key_jwt client assertion
// (RFC 7523 §3): signed by the client's key, iss and sub the client, aud
// the token endpoint or the issuer, not expired, and never seen before.
func (a *OAuth) authenticateAssertion(r *http.Request) (*OAuthClient, *oauthError) {
	f := r.PostForm
	bad := func(desc string) *oauthError {
		return &oauthError{Code: "invalid_client", Description: desc, status: http.StatusUnauthorized}
	}
	if f.Get("client_assertion_type") != assertionType {
		return nil, bad("client_assertion_type must be " + assertionType)
	}
	var c *OAuthClient
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(f.Get("client_assertion"), &claims, func(t *jwt.Token) (any, error) {
		sub, _ := t.Claims.GetSubject()
		if id := f.Get("client_id"); id != "" && id != sub {
			return nil, errors.New("client_id differs from the assertion's subject")
		}
		if c = a.client(sub); c == nil || c.PublicKey == nil {
			return nil, fmt.Errorf("no private_key_jwt client %q", sub)
		}
		if !keyFits(c.PublicKey, t.Method) {
			return nil, fmt.Errorf("alg %s does not fit the client's key", t.Method.Alg())
		}
		return c.PublicKey, nil
	}, jwt.WithValidMethods(assertionAlgs), jwt.WithExpirationRequired(), jwt.WithTimeFunc(a.opts.Now))
	if err != nil {
		return nil, bad("client assertion refused: " + err.Error())
	}
	if claims.Issuer != claims.Subject {
		return nil, bad("the assertion's iss and sub differ")
	}
	if !slices.Contains(claims.Audience, a.endpoint("/token")) && !slices.Contains(claims.Audience, a.opts.Issuer) {
		return nil, bad("the assertion's aud names neither the token endpoint nor the issuer")
	}
	if claims.ID == "" {
		return nil, bad("the assertion has no jti")
	}
	now := a.opts.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	for j, exp := range a.seenJTIs {
		if now.After(exp) {
			delete(a.seenJTIs, j)
		}
	}
	if _, replay := a.seenJTIs[c.ID+" "+claims.ID]; replay {
		return nil, bad("the assertion was used before")
	}
	a.seenJTIs[c.ID+" "+claims.ID] = claims.ExpiresAt.Time
	return c, nil
}

// keyFits tells whether a signing method uses the kind of key given, so
// an RSA key is never used to check an HMAC (the classic alg confusion).
func keyFits(k any, m jwt.SigningMethod) bool {
	switch k.(type) {
	case *ecdsa.PublicKey:
		_, ok := m.(*jwt.SigningMethodECDSA)
		return ok
	case *rsa.PublicKey:
		switch m.(type) {
		case *jwt.SigningMethodRSA, *jwt.SigningMethodRSAPSS:
			return true
		}
	case ed25519.PublicKey:
		_, ok := m.(*jwt.SigningMethodEd25519)
		return ok
	}
	return false
}
