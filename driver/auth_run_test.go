package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// runTokens is a token source for a run: one token, its initial request
// recorded; Refused fails with refuseErr (or renews when nil).
type runTokens struct {
	refuseErr error

	mu      sync.Mutex
	serial  int
	reqs    []auth.Request
	refused int
}

func (f *runTokens) Token(context.Context) (auth.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.serial == 0 {
		f.serial = 1
		f.reqs = append(f.reqs, auth.Request{Grant: "client_credentials", Reason: "initial", Start: time.Now(), Took: 5 * time.Millisecond})
	}
	return auth.Token{Value: "tok", Serial: f.serial}, nil
}

func (f *runTokens) Refused(context.Context, auth.Token, int, string) (auth.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refused++
	f.reqs = append(f.reqs, auth.Request{Grant: "client_credentials", Reason: "refused", Start: time.Now(), Took: time.Millisecond, Err: f.refuseErr})
	if f.refuseErr != nil {
		return auth.Token{}, f.refuseErr
	}
	f.serial++
	return auth.Token{Value: "tok", Serial: f.serial}, nil
}

func (f *runTokens) Requests() []auth.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]auth.Request(nil), f.reqs...)
}

// readGate is the SDK's server that wants "Bearer tok" on every request,
// and, when reads is false, refuses every resources/read whatever it
// carries.
func readGate(t *testing.T, reads bool) (string, *sync.Map) {
	srv := peertest.SDKServer(0)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	var seen sync.Map
	return peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		seen.Store(r.Header.Get("Authorization"), true)
		if r.Header.Get("Authorization") != "Bearer tok" || (!reads && bytes.Contains(body, []byte(`"resources/read"`))) {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})).URL, &seen
}

// TestRunWithTokens: a run's tokens reach every session; its reads on a
// fresh token are recorded apart (one per session), and its token
// requests become the result's auth block.
func TestRunWithTokens(t *testing.T) {
	url, seen := readGate(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f := &runTokens{}
	rep, err := measure(ctx, Options{Workload: sdkWorkload(t, url, "auto"), Auth: f})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.MeasuredPhase
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	if run.Outcomes[stats.Unauthorized] != 0 || run.Outcomes[stats.Transport] != 0 || run.Outcomes[stats.OK] == 0 {
		t.Errorf("outcomes %v", run.Outcomes.Map())
	}
	fresh := run.Auth.FreshToken.Count() + rep.Warmup.Auth.FreshToken.Count()
	if run.Auth == nil || fresh != 2 || run.Auth.LaterToken.Count() == 0 {
		t.Errorf("fresh-token reads %d (want one per session: 2), later %d", fresh, run.Auth.LaterToken.Count())
	}
	if run.Auth.Tokens.Count != 1 || run.Auth.Tokens.ByReason["initial"] != 1 || rep.Meta.AuthLost != "" {
		t.Errorf("token requests %+v, lost %q", run.Auth.Tokens, rep.Meta.AuthLost)
	}
	seen.Range(func(k, _ any) bool {
		if k != "Bearer tok" {
			t.Errorf("a request went with Authorization %q, not the token", k)
		}
		return true
	})
	res, err := rep.result(results.Tool{Name: "readbench", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Auth == nil || res.Auth.TokenRequests.Count != 1 || res.Auth.ReadsLater.Count == 0 {
		t.Errorf("auth block %+v", res.Auth)
	}
}

// closingTokens is a run's own token source (auth.Source's kind): a
// renewal in flight when the reads end completes, and is recorded, when
// it is closed.
type closingTokens struct {
	runTokens
	closed int
}

func (f *closingTokens) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed++; f.closed == 1 {
		f.reqs = append(f.reqs, auth.Request{Grant: "refresh_token", Reason: "expiring", Start: time.Now(), Took: time.Millisecond})
	}
}

// TestRunClosesItsTokensBeforeCounting: a source the run alone uses is
// closed when the reads are over and before its requests are counted, so
// that a renewal in flight at the end is in the result (the server issued
// 13 refresh tokens, the result counted 12, on a busy machine).
func TestRunClosesItsTokensBeforeCounting(t *testing.T) {
	url, _ := readGate(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f := &closingTokens{}
	rep, err := measure(ctx, Options{Workload: sdkWorkload(t, url, "auto"), Auth: f})
	if err != nil {
		t.Fatal(err)
	}
	if f.closed != 1 || rep.MeasuredPhase.Auth.Tokens.Count != 2 || rep.MeasuredPhase.Auth.Tokens.ByReason["expiring"] != 1 {
		t.Errorf("closed %d times, token requests %+v; want closed once, the renewal that ended at close counted", f.closed, rep.MeasuredPhase.Auth.Tokens)
	}
}

// TestRunLosesAuthorization: a server that refuses every read, with a
// token that cannot be renewed, makes every sent read unauthorized and
// the run say so in one line.
func TestRunLosesAuthorization(t *testing.T) {
	url, _ := readGate(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f := &runTokens{refuseErr: errors.New("invalid_grant: the refresh token was revoked")}
	var logged []string
	var mu sync.Mutex
	rep, err := measure(ctx, Options{Workload: sdkWorkload(t, url, "auto"), Auth: f, Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, format)
		if len(args) > 0 {
			if s, ok := args[0].(string); ok {
				logged = append(logged, s)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.MeasuredPhase
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	sent := run.Scheduled - run.Outcomes[stats.Dropped]
	if run.Outcomes[stats.Unauthorized] != sent || sent == 0 {
		t.Errorf("outcomes %v: want every sent read unauthorized", run.Outcomes.Map())
	}
	if !strings.Contains(rep.Meta.AuthLost, "the server refused authorization for") || !strings.Contains(rep.Meta.AuthLost, "invalid_grant") {
		t.Errorf("lost %q", rep.Meta.AuthLost)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(logged, "\n"), rep.Meta.AuthLost) {
		t.Errorf("the lost line was not logged: %q", logged)
	}
	if run.Auth.Tokens.Failures == 0 || run.Auth.Tokens.ByReason["refused"] == 0 {
		t.Errorf("token requests %+v", run.Auth.Tokens)
	}
}

// TestRunLosesAPastedHeader: a run with no tokens whose pasted
// Authorization header the server refuses (it expired) has its reads
// unauthorized, not transport failures, and says so in one line that
// names the header and that readbench cannot renew it.
func TestRunLosesAPastedHeader(t *testing.T) {
	url, _ := readGate(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w := sdkWorkload(t, url, "auto")
	w.Headers = map[string]string{"Authorization": "Bearer tok"}
	var mu sync.Mutex
	var logged []string
	rep, err := measure(ctx, Options{Workload: w, Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.MeasuredPhase
	sent := run.Scheduled - run.Outcomes[stats.Dropped]
	if run.Outcomes[stats.Unauthorized] != sent || sent == 0 {
		t.Errorf("outcomes %v: want every sent read unauthorized", run.Outcomes.Map())
	}
	for _, want := range []string{"the server refused authorization for", "refused the credentials of the Authorization header", "cannot renew a pasted header"} {
		if !strings.Contains(rep.Meta.AuthLost, want) {
			t.Errorf("lost %q lacks %q", rep.Meta.AuthLost, want)
		}
	}
	if strings.Contains(rep.Meta.AuthLost, "the token could not be renewed") {
		t.Errorf("lost %q speaks of a token the run never had", rep.Meta.AuthLost)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(logged, "\n"), rep.Meta.AuthLost) {
		t.Errorf("the lost line was not logged: %q", logged)
	}
}

// downTokens is a token source whose authorization server is down for a
// while: Token fails, unanswered (connection refused), between down and
// up after the first call; before and after, one valid token.
type downTokens struct {
	down, up time.Duration

	mu    sync.Mutex
	start time.Time
	reqs  []auth.Request
}

func (f *downTokens) Token(context.Context) (auth.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.start.IsZero() {
		f.start = time.Now()
	}
	if since := time.Since(f.start); since >= f.down && since < f.up {
		err := errors.New("dial tcp 127.0.0.1:9: connect: connection refused")
		f.reqs = append(f.reqs, auth.Request{Grant: "client_credentials", Reason: "expiring", Start: time.Now(), Took: 14 * time.Microsecond, Err: err})
		return auth.Token{}, err
	}
	return auth.Token{Value: "tok", Serial: 1}, nil
}

func (f *downTokens) Refused(context.Context, auth.Token, int, string) (auth.Token, error) {
	return auth.Token{}, errors.New("not refused in this test")
}

func (f *downTokens) Requests() []auth.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]auth.Request(nil), f.reqs...)
}

// TestRunAuthorizationServerDown: while the authorization server is
// down, reads are never sent (no token), which the run counts apart from
// refusals (the server refused none), as it counts the token requests
// that were never answered apart; and it says when the run recovered.
// Before, such a run said "the server refused authorization for N reads".
func TestRunAuthorizationServerDown(t *testing.T) {
	url, _ := readGate(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w := sdkWorkload(t, url, "auto")
	w.Load.Duration = 3 * time.Second
	f := &downTokens{down: time.Second, up: 2 * time.Second}
	rep, err := measure(ctx, Options{Workload: w, Auth: f})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.MeasuredPhase
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	unauth := run.Outcomes[stats.Unauthorized]
	if unauth < 10 || run.Auth.Unsent != unauth {
		t.Errorf("%d unauthorized, %d of them never sent: want many, and all never sent (the server refused none)", unauth, run.Auth.Unsent)
	}
	if q := run.Auth.Tokens; q.Failures == 0 || q.Unanswered != q.Failures {
		t.Errorf("token requests %+v: want the failures, all unanswered", q)
	}
	for _, want := range []string{"reads unauthorized", "0 refused by the server", "never sent (no token could be had)", "authorized again from "} {
		if !strings.Contains(rep.Meta.AuthLost, want) {
			t.Errorf("lost %q lacks %q", rep.Meta.AuthLost, want)
		}
	}
}
