package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// Bearer tokens on the wire (Dial.Auth): every request carries one, a
// refused token is renewed once and its request sent once more, and a
// read refused again is unauthorized, on both HTTP transports.

// fakeTokens issues tok-1, tok-2, ... : Token returns the latest, Refused
// issues the next (or fails with refuseErr). Before answering, Refused
// waits for hold (when set) to be closed.
type fakeTokens struct {
	refuseErr error
	hold      chan struct{}

	mu       sync.Mutex
	serial   int
	refused  int
	statuses []int
}

func (f *fakeTokens) tok() auth.Token {
	return auth.Token{Value: fmt.Sprintf("tok-%d", f.serial), Serial: f.serial}
}

func (f *fakeTokens) Token(context.Context) (auth.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.serial == 0 {
		f.serial = 1
	}
	return f.tok(), nil
}

func (f *fakeTokens) Refused(ctx context.Context, t auth.Token, status int, challenge string) (auth.Token, error) {
	if f.hold != nil {
		select {
		case <-f.hold:
		case <-ctx.Done():
			return auth.Token{}, ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refused++
	f.statuses = append(f.statuses, status)
	if !strings.Contains(challenge, "resource_metadata") {
		return auth.Token{}, fmt.Errorf("challenge %q lost on the way", challenge)
	}
	if f.refuseErr != nil {
		return auth.Token{}, f.refuseErr
	}
	if t.Serial == f.serial {
		f.serial++
	}
	return f.tok(), nil
}

func (f *fakeTokens) Requests() []auth.Request { return nil }

func (f *fakeTokens) refusals() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused
}

// gate is an MCP endpoint that demands a bearer token: only the value in
// valid passes; any other request is answered 401 with a challenge (or
// 403 insufficient_scope when scope is set). It counts requests without
// the valid token, and tells refusedN once it has refused n of them.
type gate struct {
	h        http.Handler
	valid    atomic.Value // string
	scope    bool
	seen     sync.Map // Authorization values seen
	refusedC atomic.Int64
	n        int64
	refusedN chan struct{}
	once     sync.Once
}

func newGate(h http.Handler, valid string) *gate {
	g := &gate{h: h, refusedN: make(chan struct{})}
	g.valid.Store(valid)
	return g
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got := r.Header.Get("Authorization")
	g.seen.Store(got, true)
	if got != "Bearer "+g.valid.Load().(string) {
		if g.refusedC.Add(1) == g.n {
			g.once.Do(func() { close(g.refusedN) })
		}
		challenge := `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", error="invalid_token"`
		status := http.StatusUnauthorized
		if g.scope {
			challenge, status = `Bearer error="insufficient_scope", scope="docs:read", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`, http.StatusForbidden
		}
		w.Header().Set("WWW-Authenticate", challenge)
		http.Error(w, "no", status)
		return
	}
	g.h.ServeHTTP(w, r)
}

// values are the Authorization values the gate saw.
func (g *gate) values() []string {
	var out []string
	g.seen.Range(func(k, _ any) bool { out = append(out, k.(string)); return true })
	return out
}

// gatedTargets are the SDK's server behind a gate, over Streamable HTTP
// and HTTP+SSE.
func gatedTargets(t *testing.T, valid string) map[string]struct {
	tg targets.Target
	g  *gate
} {
	srv := peertest.SDKServer(0)
	hg := newGate(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil), valid)
	sg := newGate(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil), valid)
	return map[string]struct {
		tg targets.Target
		g  *gate
	}{
		"http": {targets.Target{Kind: targets.HTTP, Address: peertest.ServeLocal(t, hg).URL + "/mcp"}, hg},
		"sse":  {targets.Target{Kind: targets.SSE, Address: peertest.ServeLocal(t, sg).URL}, sg},
	}
}

func connectAuth(t *testing.T, tg targets.Target, tokens auth.Tokens, headers map[string]string) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, _, err := Connect(ctx, Dial{Target: tg, Auth: tokens, Headers: headers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func readDoc(t *testing.T, s *Session) *Answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := s.ReadDocument(ctx, peertest.Docs()[0].URI, ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestBearerOnEveryRequest: every request carries the token, over the
// workload's own Authorization header; the first read on the token says
// so, the next does not.
func TestBearerOnEveryRequest(t *testing.T) {
	for name, c := range gatedTargets(t, "tok-1") {
		t.Run(name, func(t *testing.T) {
			f := &fakeTokens{}
			s := connectAuth(t, c.tg, f, map[string]string{"Authorization": "Bearer from-the-workload"})
			first, second := readDoc(t, s), readDoc(t, s)
			if first.Outcome != stats.OK || second.Outcome != stats.OK {
				t.Fatalf("reads %v (%s), %v (%s)", first.Outcome, first.Detail, second.Outcome, second.Detail)
			}
			if !first.FreshToken || second.FreshToken {
				t.Errorf("fresh token: first read %v, second %v; want true, false", first.FreshToken, second.FreshToken)
			}
			if v := c.g.values(); len(v) != 1 || v[0] != "Bearer tok-1" {
				t.Errorf("Authorization values on the wire %q, want only the token", v)
			}
			if n := c.g.refusedC.Load(); n != 0 || f.refusals() != 0 {
				t.Errorf("%d requests refused, %d Refused calls; want none", n, f.refusals())
			}
		})
	}
}

// TestBearerRefusedRenewsOnce: a token the server stops accepting is
// refused once, renewed once and the read sent once more: it ends ok, on a
// fresh token, with its bytes counted once.
func TestBearerRefusedRenewsOnce(t *testing.T) {
	for _, scope := range []bool{false, true} {
		for name, c := range gatedTargets(t, "tok-1") {
			t.Run(fmt.Sprintf("%s/step-up=%v", name, scope), func(t *testing.T) {
				c.g.scope = scope
				f := &fakeTokens{}
				s := connectAuth(t, c.tg, f, nil)
				before := readDoc(t, s)
				c.g.valid.Store("tok-2") // the server revokes tok-1
				a := readDoc(t, s)
				if a.Outcome != stats.OK {
					t.Fatalf("read after revocation: %v (%s)", a.Outcome, a.Detail)
				}
				want := http.StatusUnauthorized
				if scope {
					want = http.StatusForbidden
				}
				if f.refusals() != 1 || f.statuses[0] != want {
					t.Errorf("Refused %d times with %v, want once with %d", f.refusals(), f.statuses, want)
				}
				if !a.FreshToken {
					t.Error("the read on the renewed token is not marked fresh")
				}
				if a.WireBytes != before.WireBytes || a.DiskBytes != before.DiskBytes {
					t.Errorf("bytes %+v after a retry, %+v before: the refused attempt is counted", a.ByteCounts, before.ByteCounts)
				}
			})
		}
	}
}

// TestBearerRefusedAgainIsUnauthorized: a renewed token refused too, or a
// token that cannot be renewed, makes the read unauthorized, not a
// transport failure.
func TestBearerRefusedAgainIsUnauthorized(t *testing.T) {
	for _, renewErr := range []error{nil, errors.New("token endpoint: invalid_client")} {
		for name, c := range gatedTargets(t, "tok-1") {
			t.Run(fmt.Sprintf("%s/%v", name, renewErr), func(t *testing.T) {
				f := &fakeTokens{refuseErr: renewErr}
				s := connectAuth(t, c.tg, f, nil)
				c.g.valid.Store("none")                                                              // nothing passes any more
				defer func() { t0, _ := f.Token(context.Background()); c.g.valid.Store(t0.Value) }() // but the closing DELETE passes, so the server ends its session
				a := readDoc(t, s)
				if a.Outcome != stats.Unauthorized {
					t.Fatalf("kind %v (%s), want unauthorized", a.Outcome, a.Detail)
				}
				if f.refusals() != 1 {
					t.Errorf("Refused %d times, want once", f.refusals())
				}
				if !strings.Contains(a.Detail, "refused authorization") || (renewErr != nil && !strings.Contains(a.Detail, "invalid_client")) {
					t.Errorf("detail %q", a.Detail)
				}
				if strings.Contains(a.Detail, "tok-") {
					t.Errorf("detail %q shows a token", a.Detail)
				}
			})
		}
	}
}

// TestBearerConcurrentRefusalsShareOneRenewal: reads refused on the same
// token at once renew it once. Refused answers only once the server has
// refused every read, so all of them were refused on the old token.
func TestBearerConcurrentRefusalsShareOneRenewal(t *testing.T) {
	const n = 8
	for name, c := range gatedTargets(t, "tok-1") {
		t.Run(name, func(t *testing.T) {
			f := &fakeTokens{}
			s := connectAuth(t, c.tg, f, nil)
			c.g.n = c.g.refusedC.Load() + n
			f.hold = c.g.refusedN
			c.g.valid.Store("tok-2")
			var wg sync.WaitGroup
			answers := make([]*Answer, n)
			for i := range n {
				wg.Go(func() { answers[i] = readDoc(t, s) })
			}
			wg.Wait()
			fresh := 0
			for i, a := range answers {
				if a.Outcome != stats.OK {
					t.Errorf("read %d: %v (%s)", i, a.Outcome, a.Detail)
				}
				if a.FreshToken {
					fresh++
				}
			}
			if f.refusals() != 1 {
				t.Errorf("Refused %d times for %d reads refused together, want once", f.refusals(), n)
			}
			if fresh != 1 {
				t.Errorf("%d reads marked first on the new token, want 1", fresh)
			}
		})
	}
}

// TestBearerHandshakeRefused: a server that refuses every token fails
// the handshake with a message that says so, not as a transport failure.
func TestBearerHandshakeRefused(t *testing.T) {
	for name, c := range gatedTargets(t, "none") {
		t.Run(name, func(t *testing.T) {
			f := &fakeTokens{}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, _, err := Connect(ctx, Dial{Target: c.tg, Auth: f})
			if !errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrTransport) {
				t.Fatalf("err %v: want ErrUnauthorized, not ErrTransport", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "refused readbench's authorization") || strings.Contains(msg, "transport") {
				t.Errorf("message %q", msg)
			}
			if f.refusals() != 1 {
				t.Errorf("Refused %d times, want once (no era fallback on a refusal)", f.refusals())
			}
		})
	}
}

// TestBearerAcceptedOnce: a Streamable HTTP request sent twice (its
// token refused first) tells its OnAccepted hook once.
func TestBearerAcceptedOnce(t *testing.T) {
	c := gatedTargets(t, "tok-1")["http"]
	f := &fakeTokens{}
	s := connectAuth(t, c.tg, f, nil)
	c.g.valid.Store("tok-2")
	uri := peertest.Docs()[0].URI
	req, err := s.NewRequest(protocol.MethodResourcesRead, uri, map[string]any{"uri": uri})
	if err != nil {
		t.Fatal(err)
	}
	var told atomic.Int64
	if _, err := s.Do(context.Background(), req.OnAccepted(func(time.Time) { told.Add(1) })); err != nil {
		t.Fatal(err)
	}
	if told.Load() != 1 || f.refusals() != 1 {
		t.Errorf("hook told %d times, Refused %d times; want once each", told.Load(), f.refusals())
	}
}

// TestBearerNotWithoutAuth: without Auth the workload's header goes as it
// is, and a 401 (or 403 insufficient_scope) is unauthorized, not a
// transport failure: the server refused the pasted header, which readbench
// cannot renew, or the run had no credentials at all.
func TestBearerNotWithoutAuth(t *testing.T) {
	for name, c := range gatedTargets(t, "tok-1") {
		for _, scope := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/insufficient_scope=%v", name, scope), func(t *testing.T) {
				s := connectAuth(t, c.tg, nil, map[string]string{"Authorization": "Bearer tok-1"})
				c.g.valid.Store("tok-2")
				c.g.scope = scope
				defer func() { c.g.valid.Store("tok-1"); c.g.scope = false }() // the closing DELETE passes
				a := readDoc(t, s)
				if a.Outcome != stats.Unauthorized || a.FreshToken {
					t.Fatalf("kind %v (%s) fresh %v, want unauthorized, not fresh", a.Outcome, a.Detail, a.FreshToken)
				}
				for _, want := range []string{"refused the credentials of the Authorization header", "cannot renew a pasted header", "--oauth-* flags or readbench login"} {
					if !strings.Contains(a.Detail, want) {
						t.Errorf("detail %q lacks %q", a.Detail, want)
					}
				}
				if strings.Contains(a.Detail, "tok-") {
					t.Errorf("detail %q shows the header's value", a.Detail)
				}
			})
		}
	}
	// No credentials at all: the handshake itself is refused, unauthorized.
	c := gatedTargets(t, "tok-1")["http"]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _, err := Connect(ctx, Dial{Target: c.tg})
	if !errors.Is(err, ErrUnauthorized) || !strings.Contains(err.Error(), "demands authorization") {
		t.Errorf("connect without credentials: %v, want unauthorized, saying the server demands authorization", err)
	}
}

// countingTokens counts Token calls: a stdio session must make none.
type countingTokens struct {
	fakeTokens
	calls atomic.Int64
}

func (c *countingTokens) Token(ctx context.Context) (auth.Token, error) {
	c.calls.Add(1)
	return c.fakeTokens.Token(ctx)
}

// TestBearerStdioIgnoresAuth: a stdio target has no HTTP to carry a token:
// its session never asks for one, and its reads are never on a fresh token.
func TestBearerStdioIgnoresAuth(t *testing.T) {
	f := &countingTokens{}
	s := connectAuth(t, targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, peertest.SDKStdio)}, f, nil)
	if a := readDoc(t, s); a.Outcome != stats.OK || a.FreshToken {
		t.Errorf("kind %v (%s) fresh %v", a.Outcome, a.Detail, a.FreshToken)
	}
	if n := f.calls.Load(); n != 0 {
		t.Errorf("%d Token calls for a stdio session", n)
	}
}
