package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Metadata is what discovery learnt of a protected MCP server: its
// protected resource metadata (nil for a 2025-03-26 server that has none)
// and its authorization server's metadata (the default endpoints when the
// server published none).
type Metadata struct {
	Resource string // the resource indicator (RFC 8707) every token request names
	PRM      *oauthex.ProtectedResourceMetadata
	AS       *oauthex.AuthServerMeta
	// Defaulted is true when no authorization server metadata was found
	// and the 2025-03-26 default endpoints (/authorize, /token, /register
	// at the server's origin) stand in.
	Defaulted bool
	// Prompts is the authorization server's prompt_values_supported
	// (OpenID Connect Discovery; the go-sdk's type has no field for it),
	// and OpenID whether it is an OpenID provider (its metadata is an
	// openid-configuration, offers the openid scope or names ID token
	// algorithms; oidc-provider serves the same document at both
	// well-known URLs and lists no prompt values): an OpenID provider
	// grants offline_access only with prompt=consent (OpenID Connect Core
	// §11).
	Prompts []string
	OpenID  bool
}

// asDocument is authorization server metadata with the OpenID Connect
// Discovery member discovery needs besides the go-sdk's.
type asDocument struct {
	oauthex.AuthServerMeta
	PromptValuesSupported []string `json:"prompt_values_supported,omitempty"`
	IDTokenAlgs           []string `json:"id_token_signing_alg_values_supported,omitempty"`
}

// openID reports whether the document is an OpenID provider's.
func (d *asDocument) openID(u string) bool {
	return strings.Contains(u, "/.well-known/openid-configuration") || slices.Contains(d.ScopesSupported, "openid") || len(d.IDTokenAlgs) > 0
}

// wantsConsentPrompt reports whether an authorization request for scope
// must carry prompt=consent: it asks for offline_access of an OpenID
// provider (one whose metadata is an openid-configuration, or lists
// consent among its prompt values), which OpenID Connect Core §11 lets
// grant offline_access only when the person was asked.
func (md *Metadata) wantsConsentPrompt(scope []string) bool {
	return slices.Contains(scope, "offline_access") && (md.OpenID || slices.Contains(md.Prompts, "consent"))
}

// ErrResourceMismatch is returned when the protected resource metadata
// names a resource other than the server readbench was pointed at: tokens
// for another resource must never be sent to this one.
var ErrResourceMismatch = errors.New("the protected resource metadata is for another resource")

// metadataLimit bounds a metadata document (RFC 9728 and RFC 8414 set
// none; a megabyte is far beyond any real one).
const metadataLimit = 1 << 20

// Discover finds the protected resource metadata of the MCP server at
// serverURL (the challenge's resource_metadata first, then the
// path-inserted and root well-known URLs of RFC 9728 §3.1), checks that it
// is for serverURL, and then the metadata of its first authorization
// server (RFC 8414 and OpenID Connect discovery, path-inserted forms
// first). Without protected resource metadata the server's origin is the
// authorization server (the 2025-03-26 specification), and without
// authorization server metadata its default endpoints are used.
func Discover(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (*Metadata, error) {
	server, err := url.Parse(serverURL)
	if err != nil || server.Host == "" {
		return nil, fmt.Errorf("server URL %q: not an absolute URL", serverURL)
	}
	md := &Metadata{Resource: canonicalResource(server)}
	var tried []string
	for _, u := range prmURLs(ch.ResourceMetadata, server) {
		prm, err := getMetadata[oauthex.ProtectedResourceMetadata](ctx, hc, u)
		if err != nil {
			return nil, fmt.Errorf("protected resource metadata %s: %w", u, err)
		}
		if prm == nil {
			tried = append(tried, u)
			continue
		}
		if !resourceCovers(prm.Resource, server) {
			return nil, fmt.Errorf("%w: %s names %q, readbench targets %q", ErrResourceMismatch, u, prm.Resource, md.Resource)
		}
		md.PRM, md.Resource = prm, prm.Resource
		break
	}
	issuer := server.Scheme + "://" + server.Host
	if md.PRM != nil && len(md.PRM.AuthorizationServers) > 0 {
		issuer = md.PRM.AuthorizationServers[0]
	}
	is, err := url.Parse(issuer)
	if err != nil || is.Host == "" || (is.Scheme != "https" && is.Scheme != "http") {
		return nil, fmt.Errorf("authorization server %q: not an http(s) URL", issuer)
	}
	if err := httpsOrLoopback(issuer); err != nil {
		return nil, fmt.Errorf("authorization server: %w", err)
	}
	for _, u := range asURLs(is) {
		doc, err := getMetadata[asDocument](ctx, hc, u)
		if err != nil {
			return nil, fmt.Errorf("authorization server metadata %s: %w", u, err)
		}
		if doc == nil {
			continue
		}
		as := &doc.AuthServerMeta
		if strings.TrimSuffix(as.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
			return nil, fmt.Errorf("authorization server metadata %s names issuer %q, want %q", u, as.Issuer, issuer)
		}
		if as.TokenEndpoint == "" {
			return nil, fmt.Errorf("authorization server metadata %s has no token_endpoint", u)
		}
		for _, e := range []string{as.TokenEndpoint, as.AuthorizationEndpoint, as.RegistrationEndpoint} {
			if err := httpsOrLoopback(e); err != nil {
				return nil, fmt.Errorf("authorization server metadata %s: %w", u, err)
			}
		}
		md.AS, md.Prompts, md.OpenID = as, doc.PromptValuesSupported, doc.openID(u)
		return md, nil
	}
	if md.PRM != nil {
		return nil, fmt.Errorf("authorization server %s published no metadata (tried %s)", issuer, strings.Join(asURLs(is), ", "))
	}
	origin := is.Scheme + "://" + is.Host
	md.AS = &oauthex.AuthServerMeta{
		Issuer:                issuer,
		AuthorizationEndpoint: origin + "/authorize",
		TokenEndpoint:         origin + "/token",
		RegistrationEndpoint:  origin + "/register",
	}
	md.Defaulted = true
	return md, nil
}

// httpsOrLoopback refuses an endpoint that credentials would reach in
// the clear: OAuth endpoints are https, but for a loopback address (test
// and development servers). "" is no endpoint.
func httpsOrLoopback(endpoint string) error {
	if endpoint == "" {
		return nil
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return fmt.Errorf("endpoint %q: %w", endpoint, err)
	}
	if u.Scheme == "https" {
		return nil
	}
	h := u.Hostname()
	if ip := net.ParseIP(h); u.Scheme == "http" && (strings.EqualFold(h, "localhost") || (ip != nil && ip.IsLoopback())) {
		return nil
	}
	return fmt.Errorf("endpoint %q is neither https nor on a loopback address", endpoint)
}

// canonicalResource is the server URL as a resource indicator: no
// fragment, no query, no trailing slash (the MCP authorization
// specification's canonical server URI).
func canonicalResource(u *url.URL) string {
	c := *u
	c.Fragment, c.RawQuery, c.RawFragment = "", "", ""
	c.Scheme, c.Host = strings.ToLower(c.Scheme), strings.ToLower(c.Host)
	s := c.String()
	if c.Path == "/" {
		s = strings.TrimSuffix(s, "/")
	}
	return s
}

// resourceCovers reports whether the metadata's resource identifies the
// server: the same origin, and a path equal to or above the server's.
func resourceCovers(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil {
		return false
	}
	if !strings.EqualFold(r.Scheme, server.Scheme) || !strings.EqualFold(r.Host, server.Host) {
		return false
	}
	rp, sp := strings.TrimSuffix(r.Path, "/"), strings.TrimSuffix(server.Path, "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

// prmURLs is the order RFC 9728 and the MCP specification give: the
// challenge's URL, then the well-known URL with the server's path
// inserted, then the root one.
func prmURLs(fromChallenge string, server *url.URL) []string {
	var us []string
	if fromChallenge != "" {
		us = append(us, fromChallenge)
	}
	origin := server.Scheme + "://" + server.Host
	if p := strings.TrimSuffix(server.Path, "/"); p != "" {
		us = append(us, origin+"/.well-known/oauth-protected-resource"+p)
	}
	return append(us, origin+"/.well-known/oauth-protected-resource")
}

// asURLs is the order the MCP specification gives for an issuer: with a
// path, OAuth (RFC 8414) path-inserted, OpenID Connect path-inserted,
// OpenID Connect path-appended; without, the two root documents.
func asURLs(issuer *url.URL) []string {
	origin := issuer.Scheme + "://" + issuer.Host
	p := strings.TrimSuffix(issuer.Path, "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}

// getMetadata fetches one metadata document: nil, nil when the server has
// none there (a 4xx answer), an error for anything else that is not a JSON
// object of the right shape.
func getMetadata[T any](ctx context.Context, hc *http.Client, u string) (*T, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 400 && res.StatusCode < 500 {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, metadataLimit))
		return nil, nil
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", res.StatusCode)
	}
	if mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, fmt.Errorf("content type %q, want application/json", res.Header.Get("Content-Type"))
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, metadataLimit+1))
	if err != nil {
		return nil, err
	}
	return parseMetadata[T](body)
}

// parseMetadata decodes a metadata document, which must be one JSON
// object no larger than metadataLimit.
func parseMetadata[T any](body []byte) (*T, error) {
	if len(body) > metadataLimit {
		return nil, fmt.Errorf("larger than %d bytes", metadataLimit)
	}
	var t T
	if err := json.Unmarshal(body, &t); err != nil {
		return nil, fmt.Errorf("not a metadata document: %w", err)
	}
	return &t, nil
}

// The two metadata documents discovery reads, by the go-sdk's types.
type (
	prmDoc = oauthex.ProtectedResourceMetadata
	asDoc  = oauthex.AuthServerMeta
)
