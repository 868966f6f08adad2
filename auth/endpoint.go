package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// client is one OAuth client at one authorization server's token
// endpoint: who it is, how it authenticates and which resource its tokens
// are for. golang.org/x/oauth2 makes the requests; client adds what it
// does not (RFC 8707 resource on every request, RFC 7523 assertions) in
// the form on the way out.
type client struct {
	id       string
	secret   string // never printed: see String
	key      *signer
	method   string
	tokenURL string
	authURL  string
	issuer   string // the audience of a client assertion ("": the token endpoint)
	resource string
	params   url.Values // extra form fields of every token request (Config.TokenParams)
	hc       *http.Client
	now      func() time.Time
}

// String names the client without its secret or key.
func (c *client) String() string {
	return fmt.Sprintf("client %q (%s) at %s for %s", c.id, c.method, c.tokenURL, c.resource)
}

// oauth2Config is the client as golang.org/x/oauth2 knows it.
func (c *client) oauth2Config(scope []string, redirect string) *oauth2.Config {
	secret := c.secret
	if c.method != MethodBasic && c.method != MethodPost {
		secret = ""
	}
	return &oauth2.Config{
		ClientID: c.id, ClientSecret: secret, Scopes: scope, RedirectURL: redirect,
		Endpoint: oauth2.Endpoint{AuthURL: c.authURL, TokenURL: c.tokenURL, AuthStyle: authStyle(c.method)},
	}
}

// ctx carries the HTTP client golang.org/x/oauth2 uses for the token
// request: ours, with the form additions.
func (c *client) ctx(ctx context.Context) context.Context {
	base := c.hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc := &http.Client{Transport: &tokenTransport{c: c, base: base}, Timeout: c.hc.Timeout, CheckRedirect: c.hc.CheckRedirect}
	return context.WithValue(ctx, oauth2.HTTPClient, hc)
}

// clientCredentials asks for a token with the client's own credentials
// (RFC 6749 §4.4).
func (c *client) clientCredentials(ctx context.Context, scope []string) (*oauth2.Token, error) {
	secret := c.secret
	if c.method != MethodBasic && c.method != MethodPost {
		secret = ""
	}
	cc := &clientcredentials.Config{ClientID: c.id, ClientSecret: secret, TokenURL: c.tokenURL, Scopes: scope, AuthStyle: authStyle(c.method)}
	start := time.Now()
	t, err := cc.Token(c.ctx(ctx))
	return c.tidy(start, t, err)
}

// refresh uses a refresh token (RFC 6749 §6).
func (c *client) refresh(ctx context.Context, refreshToken string, scope []string) (*oauth2.Token, error) {
	ts := c.oauth2Config(scope, "").TokenSource(c.ctx(ctx), &oauth2.Token{RefreshToken: refreshToken, Expiry: time.Unix(1, 0)})
	start := time.Now()
	t, err := ts.Token()
	t, err = c.tidy(start, t, err)
	if err == nil && t.RefreshToken == "" {
		t.RefreshToken = refreshToken // the server kept the old one (RFC 6749 §6)
	}
	return t, err
}

// exchange trades an authorization code and its PKCE verifier for tokens.
func (c *client) exchange(ctx context.Context, code, verifier, redirect string, scope []string) (*oauth2.Token, error) {
	start := time.Now()
	t, err := c.oauth2Config(scope, redirect).Exchange(c.ctx(ctx), code, oauth2.VerifierOption(verifier))
	return c.tidy(start, t, err)
}

// tidy turns a token request's error into one that quotes no secret: the
// server's error code and description are kept, its raw body is not.
//
// A token's expiry is dated from start, when its request was sent:
// golang.org/x/oauth2 dates expires_in from when the answer arrived, so a
// slow answer (a busy machine, a distant server) would have the token
// last past the moment the server expires it, and reads be sent on a
// token the server refuses (ERR_JWT_EXPIRED) before it is renewed.
func (c *client) tidy(start time.Time, t *oauth2.Token, err error) (*oauth2.Token, error) {
	if err == nil {
		if t.AccessToken == "" {
			return nil, errNoAccessToken
		}
		if !t.Expiry.IsZero() {
			t.Expiry = t.Expiry.Add(-time.Since(start))
		}
		return t, nil
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		te := &TokenError{Status: status, Code: re.ErrorCode, Description: re.ErrorDescription}
		return nil, c.redact(te)
	}
	return nil, c.redact(err)
}

// redact removes the client's secret from an error's text, as written
// and as a request carries it (form-encoded, and in a Basic
// Authorization header), in case a server or library quoted the request.
func (c *client) redact(err error) error {
	if c.secret == "" {
		return err
	}
	msg := err.Error()
	for _, form := range []string{
		c.secret, url.QueryEscape(c.secret),
		base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(c.id) + ":" + url.QueryEscape(c.secret))),
		base64.StdEncoding.EncodeToString([]byte(c.id + ":" + c.secret)),
	} {
		msg = strings.ReplaceAll(msg, form, "[redacted]")
	}
	if msg == err.Error() {
		return err
	}
	return redacted{msg: msg, err: err}
}

type redacted struct {
	msg string
	err error
}

func (r redacted) Error() string { return r.msg }
func (r redacted) Unwrap() error { return r.err }

// TokenError is a token endpoint's refusal (RFC 6749 §5.2).
type TokenError struct {
	Status      int
	Code        string // such as invalid_client, invalid_grant, invalid_scope
	Description string
}

func (e *TokenError) Error() string {
	s := fmt.Sprintf("token endpoint answered %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// errNoAccessToken is a token endpoint's success without a token.
var errNoAccessToken = errors.New("the token endpoint issued no access_token")

// answered reports whether a token request's outcome came from the
// authorization server: a token, its refusal, or a success without a
// token; not a request that never reached it or was never made.
func answered(err error) bool {
	var te *TokenError
	return err == nil || errors.As(err, &te) || errors.Is(err, errNoAccessToken)
}

// retryable reports whether a failed token request is worth repeating:
// the network, a 5xx or a 429, never a refusal of the credentials.
func retryable(err error) bool {
	var te *TokenError
	if errors.As(err, &te) {
		return te.Status >= 500 || te.Status == http.StatusTooManyRequests
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF)
}

// tokenTransport adds to every form POSTed to the token endpoint the
// extra parameters given, the resource indicator (RFC 8707: unless one
// was given) and, for private_key_jwt, a fresh client
// assertion (RFC 7523 §2.2), unless the form already has them.
type tokenTransport struct {
	c    *client
	base http.RoundTripper
}

func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil || !strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return t.base.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, fmt.Errorf("token request form: %w", err)
	}
	for k, vs := range t.c.params {
		if form.Get(k) == "" {
			form[k] = vs
		}
	}
	if t.c.resource != "" && form.Get("resource") == "" {
		form.Set("resource", t.c.resource)
	}
	if t.c.method == MethodJWT && form.Get("client_assertion") == "" {
		aud := t.c.issuer
		if aud == "" {
			aud = t.c.tokenURL
		}
		a, err := t.c.key.assertion(t.c.id, aud, t.c.now())
		if err != nil {
			return nil, err
		}
		form.Set("client_assertion_type", assertionType)
		form.Set("client_assertion", a)
		if form.Get("client_id") == "" {
			form.Set("client_id", t.c.id)
		}
	}
	enc := form.Encode()
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader([]byte(enc)))
	r.ContentLength = int64(len(enc))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(enc)), nil }
	return t.base.RoundTrip(r)
}
