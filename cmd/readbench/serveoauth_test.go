package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/readbench/readbench/internal/testproc"
)

// lockedBuffer is a process's stderr, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeOAuth: `serve --oauth` with a pre-registered secret client and
// a private_key_jwt one protects /mcp, hands out tokens by client
// credentials (both authentications) and by a headless authorization code
// flow, logs where it is and what it did, and never prints a secret.
func TestServeOAuth(t *testing.T) {
	dir := t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "signer.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "sekrit-7f3a9c"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, "serve", "--listen", "127.0.0.1:0", "--oauth", "--oauth-token-ttl", "3s",
		"--oauth-scopes", "mcp:read,mcp:write", "--oauth-required-scopes", "mcp:read",
		"--oauth-client", "bench:"+secret, "--oauth-client-key", "signer:"+keyFile))
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
		}
	}
	defer stop()
	var mcpURL string
	eventually(t, 30*time.Second, "serve prints its address", func() bool {
		mcpURL = serveAddrRE.FindString(stderr.String())
		return mcpURL != ""
	})
	base := strings.TrimSuffix(mcpURL, "/mcp")
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	octx := context.WithValue(ctx, oauth2.HTTPClient, hc)

	ping := func(token string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
	}
	if status, ch := ping(""); status != http.StatusUnauthorized ||
		!strings.Contains(ch, `resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`) || !strings.Contains(ch, `scope="mcp:read"`) {
		t.Fatalf("no token: %d %q", status, ch)
	}

	tokens := map[string]*clientcredentials.Config{
		"client_secret_basic": {ClientID: "bench", ClientSecret: secret, AuthStyle: oauth2.AuthStyleInHeader},
		"client_secret_post":  {ClientID: "bench", ClientSecret: secret, AuthStyle: oauth2.AuthStyleInParams},
		"private_key_jwt": {ClientID: "signer", AuthStyle: oauth2.AuthStyleInParams, EndpointParams: url.Values{
			"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
			"client_assertion":      {signAssertion(t, key, "signer", base+"/token")},
		}},
	}
	for name, cfg := range tokens {
		cfg.TokenURL = base + "/token"
		tok, err := cfg.Token(octx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := time.Until(tok.Expiry); d > 4*time.Second {
			t.Errorf("%s: the token lasts %v, want --oauth-token-ttl 3s", name, d)
		}
		if status, _ := ping(tok.AccessToken); status != http.StatusOK {
			t.Errorf("%s: ping with the token: %d", name, status)
		}
	}
	narrow, err := (&clientcredentials.Config{ClientID: "bench", ClientSecret: secret, TokenURL: base + "/token", Scopes: []string{"mcp:write"}}).Token(octx)
	if err != nil {
		t.Fatal(err)
	}
	if status, ch := ping(narrow.AccessToken); status != http.StatusForbidden || !strings.Contains(ch, `error="insufficient_scope"`) {
		t.Errorf("a token without mcp:read: %d %q", status, ch)
	}

	// The headless authorization code flow, as `login --headless` runs it.
	reg, err := oauthex.RegisterClient(ctx, base+"/register", &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{"http://127.0.0.1/cb"}, TokenEndpointAuthMethod: "none"}, hc)
	if err != nil {
		t.Fatal(err)
	}
	ac := &oauth2.Config{ClientID: reg.ClientID, RedirectURL: "http://127.0.0.1:1/cb",
		Endpoint: oauth2.Endpoint{AuthURL: base + "/authorize", TokenURL: base + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	verifier := oauth2.GenerateVerifier()
	noFollow := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(ac.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("authorize: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	tok, err := ac.Exchange(octx, loc.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if tok.RefreshToken == "" {
		t.Error("no refresh token from the authorization code grant")
	}
	if status, _ := ping(tok.AccessToken); status != http.StatusOK {
		t.Errorf("ping with the authorization code's token: %d", status)
	}

	stop()
	log := stderr.String()
	for _, want := range []string{"OAuth on /mcp: authorization server " + base, "tokens last 3s",
		"tokens issued: 4 client_credentials, 1 authorization_code, 0 refresh_token", "1 clients registered", "4 accepted, 1 401, 1 403"} {
		if !strings.Contains(log, want) {
			t.Errorf("serve log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, secret) {
		t.Errorf("the serve log prints a client secret:\n%s", log)
	}
}

func signAssertion(t *testing.T, key *ecdsa.PrivateKey, id, aud string) string {
	t.Helper()
	now := time.Now()
	s, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.RegisteredClaims{Issuer: id, Subject: id, Audience: jwt.ClaimStrings{aud},
		ID: "a1", IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Minute))}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestServeOAuthUsage: OAuth flags that cannot work are usage errors.
func TestServeOAuthUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--stdio", "--oauth"}, "give --listen"},
		{[]string{"serve", "--listen", "0.0.0.0:0", "--oauth"}, "loopback address only"},
		{[]string{"serve", "--listen", ":0", "--oauth"}, "loopback address only"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--oauth-token-ttl", "3s"}, "--oauth-token-ttl needs --oauth"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--oauth", "--oauth-token-ttl", "500ms"}, "want at least 1s"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--oauth", "--oauth-client-key", "x:" + filepath.Join(dir, "missing.pem")}, "no such file"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--oauth", "--oauth-required-scopes", "admin"}, `required scope "admin"`},
	} {
		_, stderr, code := readbench(t, dir, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}
