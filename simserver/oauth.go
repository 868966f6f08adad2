package simserver

import (
	"crypto"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// OAuthOptions make the simulated server an OAuth-protected resource, as
// the MCP authorization specification describes, with its own small
// authorization server beside it: what readbench's OAuth client (login,
// client credentials, refresh) is tested against, and what a load test of
// authorization's cost runs on without a real identity provider.
type OAuthOptions struct {
	// Issuer is the authorization server's URL (http://127.0.0.1:8080):
	// its metadata, /authorize, /token and /register live under it.
	Issuer string
	// Resource is the protected resource's URL
	// (http://127.0.0.1:8080/mcp): the audience every token must name
	// (RFC 8707) and the resource of its metadata (RFC 9728).
	Resource string
	// TokenTTL is how long an access token lasts (default 1h); a few
	// seconds makes a run refresh many times. RefreshTTL is how long a
	// refresh token lasts (default 24h).
	TokenTTL, RefreshTTL time.Duration
	// Scopes are the scopes the server knows and grants when a client
	// asks for none (default mcp:read). offline_access is always known.
	Scopes []string
	// RequiredScopes must all be in a token for /mcp to accept it, or the
	// answer is 403 insufficient_scope (default: Scopes).
	RequiredScopes []string
	// Clients are pre-registered clients; others register at /register.
	Clients []OAuthClient
	// Now is the clock tokens are issued and checked by (default
	// time.Now): tests move it instead of sleeping.
	Now func() time.Time
	// Logf, when set, receives a line per client registered.
	Logf func(format string, args ...any)
}

// OAuthClient is a client the authorization server knows. How it
// authenticates at the token endpoint follows from what it has: a
// PublicKey means private_key_jwt, a Secret client_secret_basic or
// client_secret_post, neither a public client (authorization code with
// PKCE only).
type OAuthClient struct {
	ID, Secret string
	// PublicKey verifies the client's assertions (*ecdsa.PublicKey,
	// *rsa.PublicKey or ed25519.PublicKey).
	PublicKey crypto.PublicKey
	// RedirectURIs are where /authorize may send a code; a loopback one
	// matches on any port (RFC 8252 §7.3). Empty allows any loopback
	// http redirect.
	RedirectURIs []string
	// Scope, when set, bounds the scopes the client may get
	// (space-separated).
	Scope string
}

// OAuthCounts are what the authorization server and the bearer check did,
// for tests and the serve log: a run that survives expiring tokens shows
// refreshes here and no 401s.
type OAuthCounts struct {
	// Tokens issued, per grant.
	ClientCredentials, AuthorizationCode, Refreshes int64
	// TokenErrors counts token requests refused.
	TokenErrors int64
	// Registrations counts clients registered at /register;
	// Authorizations codes issued by /authorize.
	Registrations, Authorizations int64
	// Unauthorized and Forbidden count protected requests answered 401
	// (no token, or an invalid, expired or foreign one) and 403 (a token
	// without the required scopes); Accepted those let through.
	Unauthorized, Forbidden, Accepted int64
}

// OAuth is the authorization server and the bearer check of a protected
// simulated server. Its state (clients, codes, refresh tokens) lives in
// memory and dies with it.
type OAuth struct {
	opts     OAuthOptions
	key      []byte // HS256 key of the access tokens, fresh per server
	resource *url.URL
	prmURL   string
	known    []string // Scopes and offline_access

	mu       sync.Mutex
	clients  map[string]*OAuthClient
	codes    map[string]codeGrant
	refresh  map[string]refreshGrant
	seenJTIs map[string]time.Time // client assertions seen, until they expire

	clientCredentials, authorizationCode, refreshes, tokenErrors atomic.Int64
	registrations, authorizations                                atomic.Int64
	unauthorized, forbidden, accepted                            atomic.Int64
}

// scopeOffline is the scope asking for a refresh token (OpenID Connect's,
// which MCP clients send where the server offers it).
const scopeOffline = "offline_access"

// NewOAuth checks the options and returns the authorization server and
// bearer check they describe.
func NewOAuth(o OAuthOptions) (*OAuth, error) {
	iss, err := url.Parse(o.Issuer)
	if err != nil || iss.Scheme == "" || iss.Host == "" || iss.RawQuery != "" || iss.Fragment != "" {
		return nil, fmt.Errorf("oauth: issuer %q: want an absolute URL without query or fragment", o.Issuer)
	}
	res, err := url.Parse(o.Resource)
	if err != nil || res.Scheme == "" || res.Host == "" || res.Fragment != "" {
		return nil, fmt.Errorf("oauth: resource %q: want an absolute URL without fragment", o.Resource)
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = time.Hour
	}
	if o.RefreshTTL <= 0 {
		o.RefreshTTL = 24 * time.Hour
	}
	if len(o.Scopes) == 0 {
		o.Scopes = []string{"mcp:read"}
	}
	if o.RequiredScopes == nil {
		o.RequiredScopes = o.Scopes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	a := &OAuth{
		opts: o, key: []byte(rand.Text() + rand.Text()), resource: res,
		known:   append(slices.Clone(o.Scopes), scopeOffline),
		clients: map[string]*OAuthClient{}, codes: map[string]codeGrant{},
		refresh: map[string]refreshGrant{}, seenJTIs: map[string]time.Time{},
	}
	for _, s := range o.RequiredScopes {
		if !slices.Contains(o.Scopes, s) {
			return nil, fmt.Errorf("oauth: required scope %q is not among the scopes %q", s, o.Scopes)
		}
	}
	for i := range o.Clients {
		c := o.Clients[i]
		if c.ID == "" {
			return nil, errors.New("oauth: a pre-registered client without an id")
		}
		if _, dup := a.clients[c.ID]; dup {
			return nil, fmt.Errorf("oauth: client %q registered twice", c.ID)
		}
		a.clients[c.ID] = &c
	}
	prm := *res
	prm.Path = "/.well-known/oauth-protected-resource" + strings.TrimSuffix(res.Path, "/")
	prm.RawPath = ""
	a.prmURL = prm.String()
	return a, nil
}

// Counts returns what the server has done so far.
func (a *OAuth) Counts() OAuthCounts {
	return OAuthCounts{
		ClientCredentials: a.clientCredentials.Load(), AuthorizationCode: a.authorizationCode.Load(),
		Refreshes: a.refreshes.Load(), TokenErrors: a.tokenErrors.Load(),
		Registrations: a.registrations.Load(), Authorizations: a.authorizations.Load(),
		Unauthorized: a.unauthorized.Load(), Forbidden: a.forbidden.Load(), Accepted: a.accepted.Load(),
	}
}

// String is the counts in one line, for the serve log.
func (c OAuthCounts) String() string {
	return fmt.Sprintf("tokens issued: %d client_credentials, %d authorization_code, %d refresh_token; %d token requests refused; %d clients registered; protected requests: %d accepted, %d 401, %d 403",
		c.ClientCredentials, c.AuthorizationCode, c.Refreshes, c.TokenErrors, c.Registrations, c.Accepted, c.Unauthorized, c.Forbidden)
}

// ResourceMetadataURL is where the protected resource metadata is served,
// as named in every 401's WWW-Authenticate header.
func (a *OAuth) ResourceMetadataURL() string { return a.prmURL }

// Endpoint is the authorization and token endpoints, for a client built
// on golang.org/x/oauth2.
func (a *OAuth) endpoint(path string) string { return strings.TrimSuffix(a.opts.Issuer, "/") + path }

// Mount registers, on mux, the protected resource metadata (at the
// RFC 9728 path of the resource and at the root, the fallback clients
// try), the authorization server's metadata (RFC 8414 and OpenID Connect
// discovery paths, which 2025-03-26 clients look for at the server's
// root), /authorize, /token and /register. The resource itself is
// mounted by the caller, wrapped in Protect.
func (a *OAuth) Mount(mux *http.ServeMux) {
	iss, _ := url.Parse(a.opts.Issuer) // checked by NewOAuth
	ip := strings.TrimSuffix(iss.Path, "/")
	prm := auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               a.opts.Resource,
		AuthorizationServers:   []string{a.opts.Issuer},
		ScopesSupported:        a.opts.Scopes, // never offline_access: that is the authorization server's to offer
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "readbench simulated MCP server",
	})
	prmPath := strings.TrimPrefix(a.prmURL, a.resource.Scheme+"://"+a.resource.Host)
	mux.Handle(prmPath, prm) // the SDK handler answers CORS preflights itself
	if prmPath != "/.well-known/oauth-protected-resource" {
		mux.Handle("/.well-known/oauth-protected-resource", prm)
	}
	meta := http.HandlerFunc(a.serveMetadata)
	paths := []string{
		"/.well-known/oauth-authorization-server" + ip,
		"/.well-known/openid-configuration" + ip,
		ip + "/.well-known/openid-configuration",
	}
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		mux.Handle("GET "+p, meta)
	}
	mux.HandleFunc(ip+"/authorize", a.serveAuthorize)
	mux.HandleFunc(ip+"/token", a.serveToken)
	mux.HandleFunc(ip+"/register", a.serveRegister)
}

func (a *OAuth) serveMetadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, &oauthex.AuthServerMeta{
		Issuer:                                     a.opts.Issuer,
		AuthorizationEndpoint:                      a.endpoint("/authorize"),
		TokenEndpoint:                              a.endpoint("/token"),
		RegistrationEndpoint:                       a.endpoint("/register"),
		ScopesSupported:                            a.known,
		ResponseTypesSupported:                     []string{"code"},
		GrantTypesSupported:                        []string{grantClientCredentials, grantAuthorizationCode, grantRefreshToken},
		TokenEndpointAuthMethodsSupported:          []string{"client_secret_basic", "client_secret_post", "private_key_jwt", "none"},
		TokenEndpointAuthSigningAlgValuesSupported: assertionAlgs,
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseIssParameterSupported: true,
	})
}

// client returns the client registered under id, or nil.
func (a *OAuth) client(id string) *OAuthClient {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.clients[id]
}

// grantable checks requested scopes (space-separated) against what the
// server knows and the client may have, and returns the scopes to grant:
// those asked for, or, when none are, all the client may have.
func (a *OAuth) grantable(c *OAuthClient, requested string) ([]string, *oauthError) {
	allowed := a.known
	if c.Scope != "" {
		allowed = strings.Fields(c.Scope)
	}
	want := strings.Fields(requested)
	if len(want) == 0 {
		return slices.DeleteFunc(slices.Clone(allowed), func(s string) bool { return s == scopeOffline }), nil
	}
	for _, s := range want {
		if !slices.Contains(a.known, s) || !slices.Contains(allowed, s) {
			return nil, &oauthError{Code: "invalid_scope", Description: fmt.Sprintf("scope %q is not available to this client", s)}
		}
	}
	return slices.Compact(want), nil
}

// checkResource checks the RFC 8707 resource parameters of a request: the
// server protects one resource, and a token for another is refused here
// rather than at the resource.
func (a *OAuth) checkResource(values []string) *oauthError {
	for _, v := range values {
		if !oauthex.MatchesResource([]string{v}, a.opts.Resource) {
			return &oauthError{Code: "invalid_target", Description: fmt.Sprintf("resource %q is not served here; this server protects %s", v, a.opts.Resource)}
		}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
