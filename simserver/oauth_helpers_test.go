package simserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/readbench/readbench/internal/peertest"
	"golang.org/x/oauth2"
)

// fakeClock is the clock of a test's tokens: moved, never slept on.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// oauthFixture is a protected simulated server on a fresh 127.0.0.1 port.
type oauthFixture struct {
	a          *OAuth
	clock      *fakeClock
	base, mcp  string // the issuer and the resource
	httpClient *http.Client
}

// startOAuth serves a simulated server at /mcp behind the bearer check,
// with the authorization server beside it. Options' Issuer, Resource and
// Now are filled in.
func startOAuth(t *testing.T, o OAuthOptions) *oauthFixture {
	t.Helper()
	mux := http.NewServeMux()
	hs := peertest.ServeLocal(t, mux)
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	o.Issuer, o.Resource, o.Now = hs.URL, hs.URL+"/mcp", clock.Now
	a, err := NewOAuth(o)
	if err != nil {
		t.Fatal(err)
	}
	a.Mount(mux)
	mux.Handle("/mcp", a.Protect(New(Options{}).Handler()))
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &oauthFixture{a: a, clock: clock, base: hs.URL, mcp: hs.URL + "/mcp", httpClient: &http.Client{Transport: tr}}
}

// ctx is the context of a test's requests: it carries the fixture's HTTP
// client for golang.org/x/oauth2.
func (f *oauthFixture) ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return context.WithValue(ctx, oauth2.HTTPClient, f.httpClient)
}

func (f *oauthFixture) endpoint() oauth2.Endpoint {
	return oauth2.Endpoint{AuthURL: f.base + "/authorize", TokenURL: f.base + "/token"}
}

// sdkConnect connects the official SDK's client over Streamable HTTP with
// the given HTTP client (one that adds a bearer token, or not).
func sdkConnect(ctx context.Context, url string, hc *http.Client) (*mcp.ClientSession, error) {
	return sdkClient().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
}

// sdkRead reads one resource with the SDK's client through hc.
func sdkRead(t *testing.T, url string, hc *http.Client) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := sdkConnect(ctx, url, hc)
	if err != nil {
		return err
	}
	defer cs.Close()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "sim:///guide.md?mime=text/markdown&size=100"})
	if err != nil {
		return err
	}
	if len(res.Contents) != 1 || len(res.Contents[0].Text) != 100 {
		t.Fatalf("read: got %+v", res.Contents)
	}
	return nil
}

// post sends a protected request with the given Authorization header (none
// when empty) and returns the status and the parsed challenge.
func (f *oauthFixture) post(t *testing.T, authz string) (int, []oauthex.Challenge) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	req, _ := http.NewRequest(http.MethodPost, f.mcp, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := f.httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var ch []oauthex.Challenge
	if h := resp.Header.Values("WWW-Authenticate"); len(h) > 0 {
		if ch, err = oauthex.ParseWWWAuthenticate(h); err != nil {
			t.Fatalf("WWW-Authenticate %q: %v", h, err)
		}
	}
	return resp.StatusCode, ch
}

// param is a challenge's parameter, or "".
func param(ch []oauthex.Challenge, name string) string {
	for _, c := range ch {
		if strings.EqualFold(c.Scheme, "bearer") {
			return c.Params[name]
		}
	}
	return ""
}

// tokenRequest posts a token request, with Basic credentials when basic
// names a client, and returns the status and the OAuth error code.
func tokenRequest(t *testing.T, f *oauthFixture, basic [2]string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.base+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic[0] != "" {
		req.SetBasicAuth(url.QueryEscape(basic[0]), url.QueryEscape(basic[1]))
	}
	resp, err := f.httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e.Error
}
