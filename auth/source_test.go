package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

const testSecret = "s3cr3t-value-never-shown"

// clock is a Now that a test moves forward: real time plus an offset
// (golang.org/x/oauth2 dates expiries by the real clock).
type clock struct{ offset atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *clock) advance(d time.Duration) { c.offset.Add(int64(d)) }

func newTestSource(t *testing.T, f *fixture, cfg Config) *Source {
	t.Helper()
	cfg.Target = f.url("/mcp")
	if cfg.ClientID == "" {
		cfg.ClientID = "loadtest"
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// waitFor polls cond for up to 10 s: what is waited for is an event, not
// a moment.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// TestClientCredentials: each client authentication method sends the
// credentials where RFC 6749 and RFC 7523 say, the scope the challenge
// asked for and, on every request, the resource (RFC 8707).
func TestClientCredentials(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	for _, c := range []struct {
		method string
		cfg    Config
		check  func(t *testing.T, f *fixture, form url.Values, authz string)
	}{
		{MethodBasic, Config{ClientSecret: testSecret}, func(t *testing.T, f *fixture, form url.Values, authz string) {
			if authz != "Basic "+base64.StdEncoding.EncodeToString([]byte("loadtest:"+url.QueryEscape(testSecret))) || form.Has("client_secret") {
				t.Errorf("basic: Authorization %q, form %v", authz, form)
			}
		}},
		{MethodPost, Config{ClientSecret: testSecret}, func(t *testing.T, f *fixture, form url.Values, authz string) {
			if authz != "" || form.Get("client_id") != "loadtest" || form.Get("client_secret") != testSecret {
				t.Errorf("post: Authorization %q, form %v", authz, form)
			}
		}},
		{MethodJWT, Config{PrivateKey: keyPEM}, func(t *testing.T, f *fixture, form url.Values, authz string) {
			if authz != "" || form.Has("client_secret") || form.Get("client_assertion_type") != assertionType {
				t.Fatalf("jwt: Authorization %q, form %v", authz, form)
			}
			claims := jwt.RegisteredClaims{}
			_, err := jwt.ParseWithClaims(form.Get("client_assertion"), &claims, func(*jwt.Token) (any, error) { return &key.PublicKey, nil },
				jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(f.srv.URL), jwt.WithIssuer("loadtest"), jwt.WithSubject("loadtest"))
			if err != nil || claims.ID == "" {
				t.Errorf("the client assertion: %v (%+v)", err, claims)
			}
		}},
	} {
		t.Run(c.method, func(t *testing.T) {
			f := newFixture(t)
			f.standard(c.method)
			s := newTestSource(t, f, c.cfg)
			tok, err := s.Token(context.Background())
			if err != nil || tok.Serial != 1 || tok.Value != "token-1" {
				t.Fatalf("Token = %+v, %v", tok, err)
			}
			forms := f.tokenForms()
			if len(forms) != 1 {
				t.Fatalf("%d token requests", len(forms))
			}
			form := forms[0]
			if form.Get("grant_type") != "client_credentials" || form.Get("resource") != f.url("/mcp") || form.Get("scope") != "mcp:read" {
				t.Errorf("form %v: want client_credentials, the resource and the challenge's scope", form)
			}
			c.check(t, f, form, f.auths[0])
			if r := s.Requests(); len(r) != 1 || r[0].Grant != GrantClientCredentials || r[0].Reason != "initial" || r[0].Err != nil {
				t.Errorf("Requests = %+v", r)
			}
		})
	}
}

// TestRefreshAhead: ahead of expiry the token is renewed in the
// background, with the refresh token when there is one, and Token keeps
// answering with the current token, at once, while that request is stuck.
func TestRefreshAhead(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodBasic)
	f.refresh = true
	release := make(chan struct{})
	f.tokenHook = func(n int, _ url.Values) {
		if n == 2 {
			<-release
		}
	}
	var clk clock
	s := newTestSource(t, f, Config{ClientSecret: testSecret, Now: clk.now})
	clk.advance(56 * time.Minute) // past the renewal (55 min into the hour), before the expiry
	s.poke()
	waitFor(t, "the background refresh to be sent", func() bool { return len(f.tokenForms()) == 2 })
	start := time.Now()
	tok, err := s.Token(context.Background())
	if err != nil || tok.Serial != 1 {
		t.Fatalf("during the refresh Token = %+v, %v; want the current token", tok, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Token waited %v for the refresh", d)
	}
	close(release)
	waitFor(t, "the refreshed token", func() bool { tok, _ := s.Token(context.Background()); return tok.Serial == 2 })
	form := f.tokenForms()[1]
	if form.Get("grant_type") != "refresh_token" || form.Get("refresh_token") != "refresh-1" || form.Get("resource") != f.url("/mcp") {
		t.Errorf("the refresh's form %v", form)
	}
	r := s.Requests()
	if len(r) != 2 || r[1].Grant != "refresh_token" || r[1].Reason != "expiring" {
		t.Errorf("Requests = %+v", r)
	}
}

// TestRefusedShared: many reads refused with the same token make one
// token request between them, and all retry with its token.
func TestRefusedShared(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodBasic)
	s := newTestSource(t, f, Config{ClientSecret: testSecret})
	first, _ := s.Token(context.Background())
	var wg sync.WaitGroup
	got := make([]Token, 32)
	errs := make([]error, 32)
	for i := range got {
		wg.Go(func() { got[i], errs[i] = s.Refused(context.Background(), first, 401, `Bearer error="invalid_token"`) })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i].Serial != 2 {
			t.Fatalf("refusal %d: %+v, %v", i, got[i], errs[i])
		}
	}
	if n := len(f.tokenForms()); n != 2 {
		t.Errorf("%d token requests, want 2 (the first, and one for every refusal)", n)
	}
	if r := s.Requests(); r[1].Reason != "refused" {
		t.Errorf("Requests = %+v", r)
	}
}

// TestStepUp: a 403 insufficient_scope asks for the union of the scopes,
// a challenge for scope already held is refused at once, and step-ups
// are bounded.
func TestStepUp(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodBasic)
	s := newTestSource(t, f, Config{ClientSecret: testSecret})
	tok, _ := s.Token(context.Background())
	for i, want := range []string{"mcp:read a1", "mcp:read a1 a2"} {
		var err error
		tok, err = s.Refused(context.Background(), tok, 403, fmt.Sprintf(`Bearer error="insufficient_scope", scope="a%d"`, i+1))
		if err != nil {
			t.Fatalf("step-up %d: %v", i+1, err)
		}
		if got := f.tokenForms()[i+1].Get("scope"); got != want {
			t.Errorf("step-up %d asked for %q, want %q", i+1, got, want)
		}
	}
	if _, err := s.Refused(context.Background(), tok, 403, `Bearer error="insufficient_scope", scope="a1"`); err == nil {
		t.Error("a challenge for scope already held: want an error")
	}
	if _, err := s.Refused(context.Background(), tok, 403, `Bearer error="insufficient_scope", scope="a3"`); err == nil {
		t.Error("a third step-up: want an error")
	}
	if n := len(f.tokenForms()); n != 3 {
		t.Errorf("%d token requests, want 3", n)
	}
	if r := s.Requests(); r[1].Reason != "step-up" {
		t.Errorf("Requests = %+v", r)
	}
}

// TestNoSecretInErrors: a refused client's error, and the configuration
// and source as text, never hold the secret, even when the server echoes
// the request in its error.
func TestNoSecretInErrors(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodPost)
	f.tokenHook = func(int, url.Values) {}
	cfg := Config{Target: f.url("/mcp"), ClientID: "loadtest", ClientSecret: testSecret}
	bad := newFixture(t)
	bad.standard(MethodPost)
	bad.docs["/.well-known/oauth-authorization-server"].(map[string]any)["token_endpoint"] = bad.url("/echo")
	cfg.Target = bad.url("/mcp")
	_, err := New(context.Background(), cfg)
	if err == nil {
		t.Fatal("no error from a token endpoint that does not exist")
	}
	for _, s := range []string{err.Error(), fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg, cfg)} {
		if strings.Contains(s, testSecret) {
			t.Errorf("the secret is in %q", s)
		}
	}
	cfg.Target = f.url("/mcp")
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tok, _ := s.Token(context.Background())
	if out := fmt.Sprintf("%v %+v %s", s, s, s.String()); strings.Contains(out, testSecret) || strings.Contains(out, tok.Value) {
		t.Errorf("the source prints a secret: %s", out)
	}
}

// TestCache: a login is saved 0600 in a 0700 folder, per target, and
// read back.
func TestCache(t *testing.T) {
	dir := t.TempDir()
	e := &Entry{Target: "https://h/mcp", ClientID: "c", AccessToken: "at-secret", RefreshToken: "rt-secret", Expiry: time.Now().Add(time.Hour).Round(0)}
	if err := SaveEntry(dir, e); err != nil {
		t.Fatal(err)
	}
	p := CachePath(dir, e.Target)
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v", fi.Mode().Perm(), err)
	}
	if fi, err := os.Stat(filepath.Dir(p)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, %v", fi.Mode().Perm(), err)
	}
	got, err := LoadEntry(dir, e.Target)
	if err != nil || got.RefreshToken != "rt-secret" || !got.Expiry.Equal(e.Expiry) {
		t.Errorf("LoadEntry = %+v, %v", got, err)
	}
	if CachePath(dir, "https://other/mcp") == p {
		t.Error("two targets share a cache file")
	}
	if _, err := LoadEntry(dir, "https://other/mcp"); err == nil {
		t.Error("no login: want ErrNoLogin")
	}
	if s := fmt.Sprintf("%v %+v %#v", e, e, e); strings.Contains(s, "secret") {
		t.Errorf("an entry prints a token: %s", s)
	}
}

// TestFailedRequestCools: after a failed token request, refusals get its
// error at once instead of sending the authorization server another
// request each.
func TestFailedRequestCools(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodBasic)
	var clk clock
	s := newTestSource(t, f, Config{ClientSecret: testSecret, Now: clk.now})
	f.mu.Lock()
	f.docs = map[string]any{}
	f.mu.Unlock()
	s.cl.tokenURL = f.url("/echo") // every request from now on is refused
	tok, _ := s.Token(context.Background())
	for i := range 5 {
		if _, err := s.Refused(context.Background(), tok, 401, ""); err == nil {
			t.Fatalf("refusal %d: no error from a refusing token endpoint", i)
		}
	}
	// Counted by reason: the background refresher may also try again
	// once its back-off (a real second) is over.
	refused := func() (n int) {
		for _, r := range s.Requests() {
			if r.Reason == "refused" {
				n++
			}
		}
		return n
	}
	if n := refused(); n != 1 {
		t.Errorf("%d token requests for 5 refusals (%+v), want 1", n, s.Requests())
	}
	before := len(s.Requests())
	clk.advance(10 * time.Second) // past the cool-down
	if _, err := s.Refused(context.Background(), tok, 401, ""); err == nil {
		t.Fatal("no error")
	}
	if after := len(s.Requests()); after <= before {
		t.Errorf("no token request after the cool-down (%d before, %d after)", before, after)
	}
}

// TestStepUpShared: sessions refused for the same missing scope with the
// same token step up once between them; the ones whose refusal comes
// after the scope was widened get the widened token, not an error (4
// sessions against oidc-provider, which drops a scope it does not know:
// one stepped up, the other three failed with "the server asks for scope
// …, which the token already has").
func TestStepUpShared(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodBasic)
	s := newTestSource(t, f, Config{ClientSecret: testSecret})
	old, _ := s.Token(context.Background())
	const challenge = `Bearer error="insufficient_scope", scope="mcp:write"`
	first, err := s.Refused(context.Background(), old, 403, challenge)
	if err != nil {
		t.Fatalf("the first step-up: %v", err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 { // the other sessions, refused with the old token
		wg.Go(func() {
			tok, err := s.Refused(context.Background(), old, 403, challenge)
			if err == nil && tok.Serial != first.Serial {
				err = fmt.Errorf("token %d, want the stepped-up %d", tok.Serial, first.Serial)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a later session's step-up: %v", err)
		}
	}
	if n := len(f.tokenForms()); n != 2 {
		t.Errorf("%d token requests, want 2 (the first token and one step-up)", n)
	}
	if _, err := s.Refused(context.Background(), first, 403, challenge); err == nil {
		t.Error("refused again with the widened token: want an error")
	}
}

// TestExpiryFromRequestStart: a token's expiry is dated from when its
// request was sent, not from when the slow answer came: a token endpoint
// that takes 600 ms to issue a 3 s token leaves at most 2.4 s of it by
// the time the answer is read. Dated from the answer (golang.org/x/oauth2's
// way), a run on a busy machine sent reads on a token the server had
// already expired (ERR_JWT_EXPIRED) and renewed it too late.
func TestExpiryFromRequestStart(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodBasic)
	f.expiresIn = 3
	f.tokenHook = func(int, url.Values) { time.Sleep(600 * time.Millisecond) }
	s := newTestSource(t, f, Config{ClientSecret: testSecret})
	answered := time.Now()
	tok, err := s.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The request was sent at least 600 ms before answered.
	if latest := answered.Add(3*time.Second - 600*time.Millisecond); tok.Expiry.After(latest) {
		t.Errorf("the token expires %v after it was answered; want at most 2.4 s (3 s from the request, which took 600 ms)", tok.Expiry.Sub(answered))
	}
}
