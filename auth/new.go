package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"golang.org/x/oauth2"
)

// New obtains the first token for cfg and returns the Source that keeps
// it fresh (Close it when done). For client_credentials it discovers the
// server's authorization server and asks for a token; for
// authorization_code it uses (and refreshes) the tokens readbench login
// cached for the target.
func New(ctx context.Context, cfg Config) (*Source, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	hc := cfg.httpClient()
	if cfg.grant() == GrantAuthorizationCode {
		return fromCache(ctx, cfg)
	}
	ch, md, err := probeAndDiscover(ctx, hc, cfg.Target)
	if err != nil {
		return nil, err
	}
	cl, err := newClient(cfg, md)
	if err != nil {
		return nil, err
	}
	s := newSource(ctx, cfg, cl, GrantClientCredentials, chooseScope(cfg.Scope, ch, md, false))
	if _, err := s.renew(ctx, 0, "initial", nil); err != nil {
		s.Close()
		return nil, fmt.Errorf("oauth client_credentials at %s: %w", cl.tokenURL, err)
	}
	return s, nil
}

// newClient is the OAuth client cfg describes at md's token endpoint.
func newClient(cfg Config, md *Metadata) (*client, error) {
	var key *signer
	if len(cfg.PrivateKey) > 0 {
		k, err := parseKey(cfg.PrivateKey)
		if err != nil {
			return nil, err
		}
		key = k
	}
	method, err := SelectMethod(md.AS.TokenEndpointAuthMethodsSupported, cfg.AuthMethod, cfg.ClientSecret != "", key != nil)
	if err != nil {
		return nil, err
	}
	return &client{
		id: cfg.ClientID, secret: cfg.ClientSecret, key: key, method: method,
		tokenURL: md.AS.TokenEndpoint, authURL: md.AS.AuthorizationEndpoint, issuer: md.AS.Issuer, resource: md.Resource,
		params: cfg.TokenParams, hc: cfg.httpClient(), now: cfg.now,
	}, nil
}

// chooseScope is the scope to ask for, in the MCP specification's order:
// the one given, else the challenge's, else the resource's
// scopes_supported, else none (the scope parameter is omitted). A person's
// grant adds offline_access when the authorization server offers it, for
// a refresh token.
func chooseScope(given []string, ch Challenge, md *Metadata, person bool) []string {
	var s []string
	switch {
	case len(given) > 0:
		s = slices.Clone(given)
	case len(ch.Scope) > 0:
		s = slices.Clone(ch.Scope)
	case md.PRM != nil && len(md.PRM.ScopesSupported) > 0:
		s = slices.Clone(md.PRM.ScopesSupported)
	}
	if person && md.AS != nil && slices.Contains(md.AS.ScopesSupported, "offline_access") && !slices.Contains(s, "offline_access") {
		s = append(s, "offline_access")
	}
	return s
}

func newSource(ctx context.Context, cfg Config, cl *client, grant string, scope []string) *Source {
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Source{cl: cl, grant: grant, now: cfg.now, ctx: sctx, cancel: cancel, wake: make(chan struct{}, 1), scope: scope}
	s.wg.Add(1)
	go s.refresher()
	return s
}

// fromCache is the Source of a cached login: its token while valid, its
// refresh token after, and every new token written back to the cache.
func fromCache(ctx context.Context, cfg Config) (*Source, error) {
	e, err := LoadEntry(cfg.CacheDir, cfg.Target)
	if err != nil {
		return nil, err
	}
	cl := &client{
		id: e.ClientID, secret: e.ClientSecret, method: e.AuthMethod, tokenURL: e.TokenEndpoint, issuer: e.Issuer,
		resource: e.Resource, params: cfg.TokenParams, hc: cfg.httpClient(), now: cfg.now,
	}
	if e.Grant == GrantClientCredentials && (cl.method == MethodBasic || cl.method == MethodPost) {
		if cl.secret, err = cachedSecret(cfg, e); err != nil {
			return nil, err
		}
	}
	if cl.method == MethodJWT {
		if len(cfg.PrivateKey) == 0 {
			return nil, errors.New("the cached login's client uses private_key_jwt: give --oauth-private-key")
		}
		if cl.key, err = parseKey(cfg.PrivateKey); err != nil {
			return nil, err
		}
	}
	grant := ""
	if e.Grant == GrantClientCredentials {
		grant = GrantClientCredentials
	}
	s := newSource(ctx, cfg, cl, grant, e.Scope)
	s.save = func(t *oauth2.Token, scope []string) error {
		ne := *e
		ne.AccessToken, ne.RefreshToken, ne.Expiry, ne.Scope, ne.Saved = t.AccessToken, t.RefreshToken, t.Expiry, scope, cfg.now()
		return SaveEntry(cfg.CacheDir, &ne)
	}
	s.mu.Lock()
	s.refreshTk = e.RefreshToken
	if e.AccessToken != "" && (e.Expiry.IsZero() || cfg.now().Before(e.Expiry)) {
		s.cur = Token{Value: e.AccessToken, Expiry: e.Expiry, Serial: 1}
		s.issued = e.Saved
		s.refreshAt = RefreshAt(e.Saved, e.Expiry)
	}
	valid := s.cur.Value != ""
	s.mu.Unlock()
	s.poke()
	if !valid {
		if _, err := s.renew(ctx, 0, "expiring", nil); err != nil {
			s.Close()
			return nil, fmt.Errorf("the cached login for %s has expired and could not be refreshed (run readbench login again): %w", cfg.Target, err)
		}
	}
	return s, nil
}

// ErrNoSecret is returned for a cached client credentials login when no
// secret is at hand: the cache never holds it, and its renewals would be
// refused.
var ErrNoSecret = errors.New("no client secret")

// cachedSecret is the secret of a cached client credentials login: the
// one given now, else the environment variable the login named, else
// ErrNoSecret, naming where to give it.
func cachedSecret(cfg Config, e *Entry) (string, error) {
	if cfg.ClientSecret != "" {
		return cfg.ClientSecret, nil
	}
	if e.ClientSecretEnv != "" {
		if v := os.Getenv(e.ClientSecretEnv); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("%w: the login cached for %s is of the client credentials grant, whose secret is read from $%s, which is empty or unset: "+
			"export %s, or give --oauth-client-id %s --oauth-client-secret SECRET", ErrNoSecret, e.Target, e.ClientSecretEnv, e.ClientSecretEnv, e.ClientID)
	}
	return "", fmt.Errorf("%w: the login cached for %s is of the client credentials grant, whose secret readbench does not cache, "+
		"so its token could not be renewed: give --oauth-client-id %s --oauth-client-secret SECRET (or '${VAR}'), "+
		"or log in again with --oauth-client-secret '${VAR}' so that the cache names the variable (never the secret)", ErrNoSecret, e.Target, e.ClientID)
}

// expiresIn is how long a token lasts from now, for printing.
func expiresIn(t Token, now time.Time) string {
	if t.Expiry.IsZero() {
		return "no expiry given"
	}
	return t.Expiry.Format(time.RFC3339) + " (in " + t.Expiry.Sub(now).Round(time.Second).String() + ")"
}
