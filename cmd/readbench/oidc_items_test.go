package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// Issue 35's items, each against oidc-provider and the SDK server that
// verifies its JWTs (oidc_test.go): each of these tests failed on the
// code before its fix.

// oidcWorkload is a run of sessions over seconds at 20 reads/s.
func oidcWorkload(sessions int, seconds int) string {
	return `
name: oidc
sessions: ` + strconv.Itoa(sessions) + `
load: {rate: 20/s, duration: ` + strconv.Itoa(seconds) + `s, warmup: 0s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: text, uri: "doc://text/1k"}
  - {class: text16, uri: "doc://text/16k"}
`
}

// keptAuth reports whether a run on tokens of a few seconds kept its
// authorization: no read unauthorized, or, on a busy machine only, reads
// refused because a token issued seconds before had expired by the time
// the server (a Node process on the same saturated cores) checked it,
// every token request having succeeded: then readbench's count of them is
// its honest answer, and the test logs it.
func keptAuth(t *testing.T, a *authBlock, machine *contention) bool {
	t.Helper()
	if a.Unauthorized == 0 && a.Lost == "" {
		return true
	}
	if machine.Busy() && a.TokenRequests.Failures == 0 && (a.Lost == "" || strings.Contains(a.Lost, "ERR_JWT_EXPIRED")) {
		t.Logf("%d reads unauthorized on a busy machine, tokens expired before the server checked them (%s): %s", a.Unauthorized, machine, a.Lost)
		return true
	}
	return false
}

// TestOIDCStepUpSharedSessions (item 1): four sessions of the client
// credentials grant asking for mcp:write, a scope oidc-provider silently
// drops: its token has no scope, the SDK server answers every session 403
// insufficient_scope asking for mcp:read, one session steps up and the
// other three must take its token. Before the fix the three failed ("the
// server asks for scope "mcp:read", which the token already has").
func TestOIDCStepUpSharedSessions(t *testing.T) {
	t.Parallel()
	p := startOIDC(t, oidcOptions{ttl: 4})
	dir := t.TempDir()
	wl := writeWorkload(t, dir, oidcWorkload(4, 8))
	machine := watchMachine()
	stdout, stderr, code := readbenchEnv(t, dir, []string{"RB_OIDC_SECRET=" + oidcCCSecret}, "run", wl, "--target", p.target,
		"--oauth-client-id", oidcCCClient, "--oauth-client-secret", "${RB_OIDC_SECRET}", "--oauth-scope", "mcp:write", "--out", "r.json")
	exitOnBusy(t, machine, code, stdout+stderr, filepath.Join(dir, "r.json"))
	r := loadResult(t, filepath.Join(dir, "r.json"))
	a := loadAuthBlock(t, filepath.Join(dir, "r.json"))
	if a == nil {
		t.Fatal("the result has no auth block")
	}
	t.Logf("outcomes ok %d, unauthorized %d; token requests %+v", r.Totals.Outcomes["ok"], a.Unauthorized, a.TokenRequests)
	if !keptAuth(t, a, machine) {
		t.Errorf("unauthorized %d (outcomes %v), lost %q; want none (%s)", a.Unauthorized, r.Totals.Outcomes, a.Lost, machine)
	}
	// How many reads a contended generator completes in 8 s is the
	// machine's; on a quiet one it is the run's.
	if r.Totals.Outcomes["ok"] < 100 && !machine.Busy() {
		t.Errorf("%d reads ok, want the run's ~160 (%s): %v", r.Totals.Outcomes["ok"], machine, r.Totals.Outcomes)
	}
	if n := a.TokenRequests.ByReason["step-up"]; n != 1 {
		t.Errorf("%d step-up token requests, want 1 (one for all four sessions) (%s): %v", n, machine, a.TokenRequests.ByReason)
	}
	noSecrets(t, map[string]string{"run stdout": stdout, "run stderr": stderr}, oidcCCSecret)
}

// TestOIDCClientCredentialsLoginThenRun (item 2): a client credentials
// login caches no secret, so a later run on it alone must refuse up
// front, naming the flag that gives the secret; one whose login named the
// variable the secret is in runs on it. Before the fix the run used the
// cached token and, once it expired, renewed with an empty secret (400
// invalid_request), its reads unauthorized, exit 0.
func TestOIDCClientCredentialsLoginThenRun(t *testing.T) {
	t.Parallel()
	p := startOIDC(t, oidcOptions{ttl: 3})
	env := []string{"RB_OIDC_SECRET=" + oidcCCSecret}

	t.Run("secret given as it is: refused up front", func(t *testing.T) {
		dir := t.TempDir()
		out, errOut, code := readbenchEnv(t, dir, nil, "login", "--target", p.target, "--oauth-grant", "client_credentials",
			"--oauth-client-id", oidcCCClient, "--oauth-client-secret", oidcCCSecret)
		if code != 0 {
			t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
		}
		if e := cachedEntry(t, dir); e["client_secret"] != nil || e["client_secret_env"] != nil {
			t.Errorf("the cache keeps the secret or a variable it was not given in: %v %v", e["client_secret"] != nil, e["client_secret_env"])
		}
		wl := writeWorkload(t, dir, oidcWorkload(2, 8))
		start, machine := time.Now(), watchMachine()
		stdout, stderr, code := readbenchEnv(t, dir, nil, "run", wl, "--target", p.target, "--out", "r.json")
		// "At once": before the 8 s run would have begun, on a quiet
		// machine; a busy one may take longer to start the binary.
		late := time.Since(start) > 5*time.Second && !machine.Busy()
		if code != 2 || !strings.Contains(stderr, "--oauth-client-secret") || late {
			t.Errorf("run on a cached client credentials login without its secret: exit %d after %v, want 2 at once naming --oauth-client-secret (%s)\n%s%s",
				code, time.Since(start).Round(time.Millisecond), machine, stdout, stderr)
		}
		noSecrets(t, map[string]string{"login": out + errOut, "run": stdout + stderr}, oidcCCSecret)
	})

	t.Run("secret in a variable: the cache names it", func(t *testing.T) {
		dir := t.TempDir()
		out, errOut, code := readbenchEnv(t, dir, env, "login", "--target", p.target, "--oauth-grant", "client_credentials",
			"--oauth-client-id", oidcCCClient, "--oauth-client-secret", "${RB_OIDC_SECRET}")
		if code != 0 {
			t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
		}
		if e := cachedEntry(t, dir); e["client_secret"] != nil || e["client_secret_env"] != "RB_OIDC_SECRET" {
			t.Errorf("cached: secret %v, variable %v; want no secret, RB_OIDC_SECRET", e["client_secret"] != nil, e["client_secret_env"])
		}
		wl := writeWorkload(t, dir, oidcWorkload(2, 8))
		stdout, stderr, code := readbenchEnv(t, dir, nil, "run", wl, "--target", p.target, "--out", "r.json")
		if code != 2 || !strings.Contains(stderr, "RB_OIDC_SECRET") {
			t.Errorf("run with the variable unset: exit %d, want 2 naming RB_OIDC_SECRET\n%s%s", code, stdout, stderr)
		}
		machine := watchMachine()
		stdout, stderr, code = readbenchEnv(t, dir, env, "run", wl, "--target", p.target, "--out", "r.json")
		exitOnBusy(t, machine, code, stdout+stderr, filepath.Join(dir, "r.json"))
		a := loadAuthBlock(t, filepath.Join(dir, "r.json"))
		if a == nil || !keptAuth(t, a, machine) || a.TokenRequests.Failures != 0 || a.TokenRequests.Count < 2 {
			t.Errorf("the run on the cached login: %+v; want tokens renewed (3 s tokens, 8 s), none failed, no read unauthorized (%s)", a, machine)
		}
		noSecrets(t, map[string]string{"login": out + errOut, "run": stdout + stderr}, oidcCCSecret)
	})
}

// TestOIDCPersonLoginRefreshToken (item 3): a person's login through the
// provider's login and consent pages (driven by the test as a browser
// would) asks for offline_access with prompt=consent, as OpenID Connect
// Core §11 requires, and so gets a refresh token, on which a run longer
// than a token's life loses nothing. Before the fix the provider dropped
// offline_access: no refresh token, and the run lost its authorization
// after one token lifetime. A provider that issues none whatever is asked
// is said to at login, with the token's lifetime, and run warns before a
// run longer than it.
func TestOIDCPersonLoginRefreshToken(t *testing.T) {
	t.Parallel()
	t.Run("refresh token", func(t *testing.T) {
		t.Parallel()
		p := startOIDC(t, oidcOptions{ttl: 4})
		dir := t.TempDir()
		out, errOut, code := personLogin(t, dir, p.target, "--oauth-client-id", oidcCodeClient)
		if code != 0 {
			t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
		}
		if e := cachedEntry(t, dir); e["refresh_token"] == nil || e["refresh_token"] == "" {
			t.Fatalf("the login cached no refresh token:\n%s%s", out, errOut)
		}
		wl := writeWorkload(t, dir, oidcWorkload(2, 10))
		machine := watchMachine()
		stdout, stderr, code := readbenchEnv(t, dir, nil, "run", wl, "--target", p.target, "--out", "r.json")
		exitOnBusy(t, machine, code, stdout+stderr, filepath.Join(dir, "r.json"))
		if strings.Contains(stderr, "warning: the cached login has no refresh token") {
			t.Fatalf("run warns of no refresh token after a login that got one:\n%s%s", stdout, stderr)
		}
		a := loadAuthBlock(t, filepath.Join(dir, "r.json"))
		if a != nil {
			t.Logf("unauthorized %d; token requests %+v", a.Unauthorized, a.TokenRequests)
		}
		if a == nil || !keptAuth(t, a, machine) || a.TokenRequests.Refreshes < 2 || a.TokenRequests.Failures != 0 {
			t.Errorf("a 10 s run on 4 s tokens: %+v; want refreshed, no failure, no read unauthorized (%s)", a, machine)
		}
	})
	t.Run("none issued", func(t *testing.T) {
		t.Parallel()
		p := startOIDC(t, oidcOptions{ttl: 4, codeClientNoRefresh: true})
		dir := t.TempDir()
		out, errOut, code := personLogin(t, dir, p.target, "--oauth-client-id", oidcCodeClient)
		if code != 0 {
			t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
		}
		if !strings.Contains(out, "no refresh token") || !strings.Contains(out, "it lasts ") {
			t.Errorf("login without a refresh token does not say so with the token's lifetime:\n%s", out)
		}
		wl := writeWorkload(t, dir, oidcWorkload(1, 6))
		stdout, stderr, _ := readbenchEnv(t, dir, nil, "run", wl, "--target", p.target, "--out", "r.json")
		if !strings.Contains(stderr, "warning: the cached login has no refresh token") {
			t.Errorf("run of 6 s on a 4 s token that cannot be renewed gave no warning:\n%s%s", stdout, stderr)
		}
	})
}

// TestOIDCHeadlessLoginPage (item 4): login --headless keeps the cookies
// of the provider's redirects, so that it reaches the login page and
// says it is one, pointing to --no-browser; and an error page's reason is
// quoted. Before the fix it kept no cookies and reported only "the
// authorization endpoint answered 400 at …/interaction/<uid>", dropping
// the provider's "interaction session id cookie not found".
func TestOIDCHeadlessLoginPage(t *testing.T) {
	t.Parallel()
	p := startOIDC(t, oidcOptions{})
	dir := t.TempDir()
	start := time.Now()
	stdout, stderr, code := readbenchEnv(t, dir, nil, "login", "--target", p.target, "--headless", "--oauth-client-id", oidcCodeClient)
	if code != 1 || !strings.Contains(stderr, "a login page") || !strings.Contains(stderr, "--no-browser") ||
		strings.Contains(stderr, "cookie not found") || !strings.Contains(stderr, "/interaction/") {
		t.Errorf("login --headless at a login page: exit %d after %v, want 1 naming the login page and --no-browser:\n%s%s",
			code, time.Since(start).Round(time.Millisecond), stdout, stderr)
	}
	stdout, stderr, code = readbenchEnv(t, dir, nil, "login", "--target", p.target, "--headless", "--oauth-client-id", "no-such-client")
	if code != 1 || !strings.Contains(stderr, `"invalid_client: client is invalid"`) {
		t.Errorf("login --headless with a client the provider does not know: exit %d, want 1 quoting the provider's reason:\n%s%s", code, stdout, stderr)
	}
}

// TestOIDCProviderRestartMidRun: the provider stopped for three seconds
// in the middle of a run on 4 s client credentials tokens, and started
// again on its port with the same keys: the token requests made while it
// was down fail (counted), the reads after its token expired are
// unauthorized, and the run gets tokens again once it is back, never
// losing its authorization for good (measured: 80 of 400 unauthorized, 6
// of 12 token requests failed).
func TestOIDCProviderRestartMidRun(t *testing.T) {
	t.Parallel()
	p := startOIDC(t, oidcOptions{ttl: 4})
	dir := t.TempDir()
	wl := writeWorkload(t, dir, oidcWorkload(2, 20))
	machine := watchMachine()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, "run", wl, "--target", p.target, "--oauth-client-id", oidcCCClient,
		"--oauth-client-secret", "${RB_OIDC_SECRET}", "--out", "r.json"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "RB_OIDC_SECRET="+oidcCCSecret)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(6 * time.Second)
	p.provider.stop()
	time.Sleep(3 * time.Second)
	p.provider.start()
	err := cmd.Wait()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	a := loadAuthBlock(t, filepath.Join(dir, "r.json"))
	if a == nil {
		t.Fatalf("the result has no auth block:\n%s", stderr.String())
	}
	t.Logf("outcomes %v; token requests %+v; lost %q (%s)", r.Totals.Outcomes, a.TokenRequests, a.Lost, machine)
	if a.TokenRequests.Failures == 0 {
		t.Errorf("no token request failed while the provider was down 3 s: %+v", a.TokenRequests)
	}
	// The provider down is not a provider that refuses: its requests
	// were never answered, and the reads of the outage never sent (no
	// token), counted apart from the server's refusals; the lost line,
	// when there is one, says the run was authorized again.
	if a.TokenRequests.Unanswered == 0 {
		t.Errorf("no token request counted unanswered while the provider was down: %+v", a.TokenRequests)
	}
	if n := r.Totals.Outcomes["unauthorized"]; n > 0 && a.Unsent == 0 {
		t.Errorf("%d reads unauthorized, none counted never sent: the server refused none of them, the provider was down", n)
	}
	if a.Lost != "" && !strings.Contains(a.Lost, "authorized again from") {
		t.Errorf("lost %q does not say the run was authorized again", a.Lost)
	}
	// Tokens again after the restart: at least 5 of 4 s in 20 s on a quiet
	// machine; on a saturated one the provider (Node) takes seconds to
	// start again, and one token after the restart is what can be asked.
	want := int64(5)
	if machine.Busy() {
		want = 2
	}
	if got := a.TokenRequests.Count - a.TokenRequests.Failures; got < want {
		t.Errorf("%d tokens had in 20 s of 4 s tokens, want %d, tokens again after the restart: %+v (%s)", got, want, a.TokenRequests, machine)
	}
	// The reads of the outage are unauthorized (the token expires while
	// the provider is down): at most those of the 3 s and 2 s more for
	// the back-off, at 20 reads/s; the run never loses it for good. How
	// many reads end ok is the machine's too: on a busy one a contended
	// generator completes fewer, and only the loss for good is judged.
	n := r.Totals.Outcomes["unauthorized"]
	few := (n > 100 || r.Totals.Outcomes["ok"] < 250) && !machine.Busy()
	if few || strings.Contains(a.Lost, "every read from then on") {
		t.Errorf("ok %d, unauthorized %d of %d, lost %q: want authorization regained within 2 s of the restart (%s)\n%s",
			r.Totals.Outcomes["ok"], n, r.Totals.Scheduled, a.Lost, machine, stderr.String())
	}
}

// TestOIDCTokenParamsAndClient (item 6): the extra token parameters reach
// the provider — a resource given with --oauth-param replaces readbench's
// RFC 8707 one: the SDK server's own works, another is refused by the
// provider (invalid_target) — and check and run say who they got their
// tokens as (oidc-provider's issuer, the client, the scope granted).
func TestOIDCTokenParamsAndClient(t *testing.T) {
	t.Parallel()
	p := startOIDC(t, oidcOptions{ttl: 30})
	dir := t.TempDir()
	env := []string{"RB_OIDC_SECRET=" + oidcCCSecret}
	creds := []string{"--target", p.target, "--oauth-client-id", oidcCCClient, "--oauth-client-secret", "${RB_OIDC_SECRET}"}
	// The SDK server fails some rows of its own (the malformed URI's code):
	// exit 0 or 1, the check having run.
	table, stderr, code := readbenchEnv(t, dir, env, append([]string{"check"}, creds...)...)
	if code > 1 || !strings.Contains(strings.Join(strings.Fields(table), " "), "resources/list | pass") {
		t.Fatalf("check: exit %d\n%s%s", code, table, stderr)
	}
	if !strings.Contains(table, "client_credentials, client "+oidcCCClient+" at "+p.issuer) || !strings.Contains(table, "mcp:read") {
		t.Errorf("check does not say the authorization it used:\n%s", table)
	}
	wl := writeWorkload(t, dir, oidcWorkload(1, 1))
	run := func(out string, extra ...string) (*authBlock, string) {
		args := append(append([]string{"run", wl}, creds...), "--out", out)
		_, stderr, code := readbenchEnv(t, dir, env, append(args, extra...)...)
		if _, err := os.Stat(filepath.Join(dir, out)); err != nil {
			return nil, fmt.Sprintf("exit %d, no result: %s", code, stderr)
		}
		return loadAuthBlock(t, filepath.Join(dir, out)), stderr
	}
	if a, stderr := run("right.json", "--oauth-param", "resource="+p.target); a == nil || a.Unauthorized != 0 || a.TokenRequests.Count == 0 {
		t.Errorf("with the right resource given: auth %+v, want every read authorized\n%s", a, stderr)
	}
	// Another resource replaces readbench's: the provider, which knows
	// only the SDK server's, refuses the token request before any read.
	if a, stderr := run("wrong.json", "--oauth-param", "resource=http://127.0.0.1:9/other"); a != nil || !strings.Contains(stderr, "invalid_target") {
		t.Errorf("with another resource given: auth %+v, want the provider's invalid_target and no run\n%s", a, stderr)
	}
	var doc struct {
		Auth struct {
			Client struct {
				Issuer string `json:"issuer"`
			} `json:"client"`
		} `json:"auth"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "right.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Auth.Client.Issuer != p.issuer {
		t.Errorf("the result's auth.client.issuer = %q (%v), want %s", doc.Auth.Client.Issuer, err, p.issuer)
	}
}
