package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// LoginConfig is readbench login's: the Config of the client (a
// pre-registered one, or none, for dynamic registration or a client ID
// metadata document), and how the person approves.
type LoginConfig struct {
	Config
	// ClientMetadataURL is the https URL of the client's metadata document
	// (a client ID metadata document): used as the client id when the
	// authorization server supports them and no client id is given.
	ClientMetadataURL string
	// Headless follows the authorization URL with an HTTP client instead
	// of a person's browser: for test authorization servers that approve
	// without one.
	Headless bool
	// Open shows the authorization URL to the person (a browser); nil or
	// failing, the URL is printed to Out.
	Open func(url string) error
	Out  io.Writer
	// Check proves that t gets in: an authenticated MCP session of the
	// client a run uses (initialize, or server/discover, per era), made
	// by the caller, since auth never imports the client. A refusal
	// returned as a *Refusal lets login ask for more scope (403
	// insufficient_scope) or discover again (401). Required.
	Check func(ctx context.Context, t Token) error
}

// Login is what a login obtained and proved: the cached entry and the
// token that got in.
type Login struct {
	Entry   *Entry
	Token   Token
	Granted []string
}

// Summary is what login prints: the resource, the scope granted and when
// the token expires; never the token.
func (l *Login) Summary(now time.Time) string {
	scope := strings.Join(l.Granted, " ")
	if scope == "" {
		scope = "(none named)"
	}
	out := fmt.Sprintf("resource %s\nscope    %s\nexpires  %s\n", l.Entry.Resource, scope, expiresIn(l.Token, now))
	if l.Entry.Grant == GrantAuthorizationCode && l.Entry.RefreshToken == "" {
		out += "refresh  none: " + l.NoRefresh(now) + "\n"
	}
	return out
}

// NoRefresh says what a login without a refresh token means: its token
// cannot be renewed, so runs lose their authorization when it expires.
func (l *Login) NoRefresh(now time.Time) string {
	life := "it has no expiry"
	if !l.Token.Expiry.IsZero() {
		life = "it lasts " + l.Token.Expiry.Sub(now).Round(time.Second).String()
	}
	return "the authorization server issued no refresh token, so the token cannot be renewed (" + life +
		"): a run longer than that loses its authorization; ask for offline_access (--oauth-scope), or allow the client the refresh_token grant"
}

// maxLoginStepUps bounds re-authorizations during login (for more
// scope, or after the server moved to another authorization server).
const maxLoginStepUps = 2

// RunLogin obtains tokens for cfg.Target (the authorization code flow
// with PKCE, or the machine grant cfg names), proves them with cfg.Check
// (an authenticated session of the client a run uses), and caches them
// for the other commands.
func RunLogin(ctx context.Context, cfg LoginConfig) (*Login, error) {
	if cfg.Grant == "" {
		cfg.Grant = GrantAuthorizationCode
	}
	if cfg.ClientSecret != "" && len(cfg.PrivateKey) > 0 {
		return nil, errors.New("oauth: give a client secret or a private key, not both")
	}
	if cfg.Check == nil {
		return nil, errors.New("oauth: login has no check of the token (LoginConfig.Check)")
	}
	if cfg.Grant == GrantClientCredentials {
		return machineLogin(ctx, cfg.Config, cfg.Check)
	}
	if cfg.Grant != GrantAuthorizationCode {
		return nil, cfg.Validate()
	}
	hc := cfg.httpClient()
	ch, md, err := probeAndDiscover(ctx, hc, cfg.Target)
	if err != nil {
		return nil, err
	}
	scope := chooseScope(cfg.Scope, ch, md, true)
	for stepUps := 0; ; stepUps++ {
		l, err := authorize(ctx, cfg, md, scope)
		if err != nil {
			return nil, err
		}
		err = cfg.Check(ctx, l.Token)
		var r *Refusal
		if errors.As(err, &r) && stepUps < maxLoginStepUps {
			switch {
			case r.Status == http.StatusForbidden && r.Challenge.InsufficientScope():
				if wider := union(scope, r.Challenge.Scope); len(wider) > len(scope) {
					scope = wider
					continue
				}
			case r.Status == http.StatusUnauthorized:
				// The fresh token was refused: the server may have moved to
				// another authorization server. Discover again and start over
				// (registering anew with a new one).
				if md, err = Discover(ctx, hc, cfg.Target, r.Challenge); err != nil {
					return nil, err
				}
				scope = chooseScope(cfg.Scope, r.Challenge, md, true)
				continue
			}
		}
		if err != nil {
			return nil, fmt.Errorf("the token was issued but the server did not let readbench in: %w", err)
		}
		return l, SaveEntry(cfg.CacheDir, l.Entry)
	}
}

// machineLogin is login with the client credentials grant: the token is
// obtained as a run would, proved and cached.
func machineLogin(ctx context.Context, cfg Config, check func(context.Context, Token) error) (*Login, error) {
	s, err := New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	t, err := s.Token(ctx)
	if err != nil {
		return nil, err
	}
	if err := check(ctx, t); err != nil {
		var r *Refusal
		if !errors.As(err, &r) {
			return nil, err
		}
		if t, err = s.Refused(ctx, t, r.Status, r.Header); err != nil {
			return nil, err
		}
		if err := check(ctx, t); err != nil {
			return nil, fmt.Errorf("the token was issued but the server did not let readbench in: %w", err)
		}
	}
	e := &Entry{
		Target: cfg.Target, Resource: s.cl.resource, Issuer: s.cl.issuer, TokenEndpoint: s.cl.tokenURL, ClientID: s.cl.id,
		ClientSecretEnv: cfg.ClientSecretEnv, AuthMethod: s.cl.method, Grant: GrantClientCredentials, Scope: s.Granted(),
		AccessToken: t.Value, Expiry: t.Expiry, Saved: cfg.now(),
	}
	return &Login{Entry: e, Token: t, Granted: s.Granted()}, SaveEntry(cfg.CacheDir, e)
}

// authorize runs one authorization code flow with PKCE (S256) through a
// 127.0.0.1 redirect listener.
func authorize(ctx context.Context, cfg LoginConfig, md *Metadata, scope []string) (*Login, error) {
	if md.AS.AuthorizationEndpoint == "" {
		return nil, errors.New("the authorization server has no authorization_endpoint")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the redirect listener: %w", err)
	}
	redirect := "http://" + ln.Addr().String() + "/callback"
	cl, err := loginClient(ctx, cfg, md, redirect)
	if err != nil {
		ln.Close()
		return nil, err
	}
	state := randomHex(16)
	verifier := oauth2.GenerateVerifier()
	conf := cl.oauth2Config(scope, redirect)
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", md.Resource)}
	if md.wantsConsentPrompt(scope) {
		// An OpenID provider drops offline_access, and so the refresh
		// token, from a request without it (OpenID Connect Core §11).
		opts = append(opts, oauth2.SetAuthURLParam("prompt", "consent"))
	}
	authURL := conf.AuthCodeURL(state, opts...)

	got := make(chan url.Values, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		select {
		case got <- r.URL.Query():
		default:
		}
		fmt.Fprintln(w, "readbench: authorization received; you may close this window.")
	})}
	served := make(chan struct{})
	go func() { defer close(served); _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close(); <-served }()

	follow := make(chan error, 1)
	if cfg.Headless {
		go func() { follow <- followHeadless(ctx, cfg.httpClient(), authURL, redirect) }()
	} else if cfg.Open == nil || cfg.Open(authURL) != nil {
		if cfg.Out != nil {
			fmt.Fprintf(cfg.Out, "Open this URL to authorize readbench:\n%s\n", authURL)
		}
	}
	var q url.Values
	select {
	case q = <-got:
	case err := <-follow:
		if err == nil {
			select {
			case q = <-got:
			default:
				return nil, errors.New("headless login: the authorization server never redirected to readbench's redirect URI")
			}
		} else {
			return nil, fmt.Errorf("headless login: %w", err)
		}
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the authorization: %w", ctx.Err())
	}
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("the authorization server refused: %s %s", e, q.Get("error_description"))
	}
	if q.Get("state") != state {
		return nil, errors.New("the authorization response's state does not match the request's")
	}
	if err := checkIss(q, md.AS); err != nil {
		return nil, err
	}
	code := q.Get("code")
	if code == "" {
		return nil, errors.New("the authorization response has no code")
	}
	tok, err := cl.exchange(ctx, code, verifier, redirect, scope)
	if err != nil {
		return nil, fmt.Errorf("exchanging the authorization code: %w", err)
	}
	granted := scope
	if g, ok := tok.Extra("scope").(string); ok && g != "" {
		granted = strings.Fields(g)
	}
	e := &Entry{
		Target: cfg.Target, Resource: md.Resource, Issuer: md.AS.Issuer, TokenEndpoint: cl.tokenURL,
		ClientID: cl.id, ClientSecret: cl.secret, AuthMethod: cl.method, Grant: GrantAuthorizationCode,
		Scope: scope, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry, Saved: cfg.now(),
	}
	return &Login{Entry: e, Token: Token{Value: tok.AccessToken, Expiry: tok.Expiry, Serial: 1}, Granted: granted}, nil
}

// checkIss applies RFC 9207: an iss in the authorization response must be
// the issuer's, and must be there when the server says it sends one.
func checkIss(q url.Values, as *oauthex.AuthServerMeta) error {
	iss, present := q.Get("iss"), q.Has("iss")
	switch {
	case present && iss != as.Issuer: // compared as strings, never normalized (RFC 9207 §2.4)
		return fmt.Errorf("the authorization response comes from issuer %q, not %q", iss, as.Issuer)
	case !present && as.AuthorizationResponseIssParameterSupported:
		return errors.New("the authorization server promises an iss parameter but its response has none")
	}
	return nil
}

// loginClient is the client a person's login uses: the pre-registered
// one, a client ID metadata document's URL, or one registered now
// (RFC 7591), in that order.
func loginClient(ctx context.Context, cfg LoginConfig, md *Metadata, redirect string) (*client, error) {
	c := cfg.Config
	switch {
	case c.ClientID != "":
	case cfg.ClientMetadataURL != "" && md.AS.ClientIDMetadataDocumentSupported:
		c.ClientID = cfg.ClientMetadataURL
	case md.AS.RegistrationEndpoint != "":
		reg, err := oauthex.RegisterClient(ctx, md.AS.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect}, ClientName: "readbench",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
			TokenEndpointAuthMethod: MethodNone, ApplicationType: "native", // a loopback redirect: a native application (OpenID Connect Registration)
		}, c.httpClient())
		if err != nil {
			return nil, fmt.Errorf("dynamic client registration at %s: %w", md.AS.RegistrationEndpoint, err)
		}
		c.ClientID, c.ClientSecret = reg.ClientID, reg.ClientSecret
		if reg.TokenEndpointAuthMethod != "" && c.AuthMethod == "" {
			c.AuthMethod = reg.TokenEndpointAuthMethod
		}
	default:
		return nil, errors.New("the authorization server offers no dynamic client registration: give --oauth-client-id (a pre-registered client)")
	}
	return newClient(c, md)
}

// followHeadless opens the authorization URL with an HTTP client and
// follows its redirects, keeping the cookies they set as a browser does
// (an authorization server's login and consent pages keep their state in
// one), until the redirect to readbench's 127.0.0.1 listener has been
// delivered. A page that stops it short is named for what it is (a login
// page, a consent page, an error page with the server's reason).
func followHeadless(ctx context.Context, hc *http.Client, authURL, redirect string) error {
	h := *hc
	jar, err := cookiejar.New(nil)
	if err != nil {
		return err
	}
	h.Jar = jar
	h.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("more than 10 redirects")
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	res, err := h.Do(req)
	if err != nil {
		return fmt.Errorf("following the authorization URL: %w", redactURLError(err))
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	at := res.Request.URL
	if strings.HasPrefix(at.String(), redirect) {
		return nil
	}
	where := at.Scheme + "://" + at.Host + at.Path // no query: it may carry a code or a state
	if res.StatusCode >= 400 {
		msg := fmt.Sprintf("the authorization endpoint answered %d at %s", res.StatusCode, where)
		if reason := pageReason(res.Header.Get("Content-Type"), body); reason != "" {
			msg += ": " + reason
		}
		return errors.New(msg)
	}
	if page := pageKind(body); page != "" {
		return fmt.Errorf("the authorization server showed %s at %s, which --headless cannot fill in: "+
			"a person must log in; run readbench login with --no-browser and open the URL it prints in a browser", page, where)
	}
	return fmt.Errorf("the authorization server answered %d at %s instead of redirecting to readbench", res.StatusCode, where)
}

// redactURLError drops the URL (which carries the code) from a redirect
// error.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
