package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// The end-to-end tests of a run against `readbench serve --oauth` whose
// tokens expire every few seconds: nothing is lost, the refreshes are
// counted on both sides, and no secret or token is printed or saved.

// oauthServe is a running `readbench serve --oauth` whose log is kept,
// for the counts of its exit line.
type oauthServe struct {
	url  string
	cmd  *exec.Cmd
	log  lockedBuffer
	done bool
}

// startOAuthServe runs `readbench serve --listen 127.0.0.1:0 --oauth` with
// extra flags until stop or the end of the test.
func startOAuthServe(t *testing.T, extra ...string) *oauthServe {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	s := &oauthServe{}
	s.cmd = testproc.Own(t, exec.CommandContext(ctx, binary, append([]string{"serve", "--listen", "127.0.0.1:0", "--oauth"}, extra...)...))
	s.cmd.Stderr = &s.log
	if err := s.cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { s.stop(); cancel() })
	eventually(t, 30*time.Second, "serve --oauth prints its address", func() bool {
		s.url = serveAddrRE.FindString(s.log.String())
		return s.url != ""
	})
	return s
}

// stop ends the server (SIGINT, so it prints its counts) and returns its log.
func (s *oauthServe) stop() string {
	if !s.done {
		s.done = true
		_ = s.cmd.Process.Signal(os.Interrupt)
		_ = s.cmd.Wait()
	}
	return s.log.String()
}

// serveCounts are the numbers of serve --oauth's exit line.
type serveCounts struct {
	clientCredentials, authorizationCode, refreshes, refused, accepted, unauthorized, forbidden int64
}

var serveCountsRE = regexp.MustCompile(`tokens issued: (\d+) client_credentials, (\d+) authorization_code, (\d+) refresh_token; (\d+) token requests refused; \d+ clients registered; protected requests: (\d+) accepted, (\d+) 401, (\d+) 403`)

func parseServeCounts(t *testing.T, log string) serveCounts {
	t.Helper()
	m := serveCountsRE.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("serve --oauth printed no counts:\n%s", log)
	}
	n := make([]int64, len(m)-1)
	for i := range n {
		n[i], _ = strconv.ParseInt(m[i+1], 10, 64)
	}
	return serveCounts{n[0], n[1], n[2], n[3], n[4], n[5], n[6]}
}

// authBlock is the result's auth block as the tests read it.
type authBlock struct {
	TokenRequests struct {
		Count      int64            `json:"count"`
		Failures   int64            `json:"failures"`
		Unanswered int64            `json:"unanswered"`
		ByReason   map[string]int64 `json:"by_reason"`
		Refreshes  int64            `json:"refreshes"`
	} `json:"token_requests"`
	ReadsFreshToken struct {
		Count int64 `json:"count"`
	} `json:"reads_fresh_token"`
	ReadsLater struct {
		Count int64 `json:"count"`
	} `json:"reads_later"`
	Unauthorized int64  `json:"unauthorized"`
	Unsent       int64  `json:"unsent"`
	Lost         string `json:"lost"`
}

func loadAuthBlock(t *testing.T, path string) *authBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Auth *authBlock `json:"auth"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Auth
}

// Every access token serve --oauth issues is a JWT with this header
// ({"alg":"HS256","typ":"at+jwt"}), every refresh token 52 characters of
// base32: what no output may contain.
var (
	accessTokenRE  = regexp.MustCompile(`eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9\.`)
	refreshTokenRE = regexp.MustCompile(`[A-Z2-7]{52}`)
)

// noSecrets fails the test when a secret, or anything shaped like the
// server's tokens, appears in one of outputs.
func noSecrets(t *testing.T, outputs map[string]string, secrets ...string) {
	t.Helper()
	for what, text := range outputs {
		for _, s := range secrets {
			if s != "" && strings.Contains(text, s) {
				t.Errorf("a secret (%.6s…) appears in %s", s, what)
			}
		}
		if accessTokenRE.MatchString(text) {
			t.Errorf("an access token appears in %s", what)
		}
		if refreshTokenRE.MatchString(text) {
			t.Errorf("something shaped like a refresh token appears in %s: %q", what, refreshTokenRE.FindString(text))
		}
	}
}

// renderings are the result file and every rendering of it.
func renderings(t *testing.T, dir, file string) map[string]string {
	t.Helper()
	out := map[string]string{}
	b, _ := os.ReadFile(filepath.Join(dir, file))
	out[file] = string(b)
	for _, format := range []string{"table", "markdown", "json", "html"} {
		stdout, stderr, code := readbench(t, dir, "report", "--format", format, "--full", file) // every line a secret could be in
		if code != 0 {
			t.Errorf("report --format %s %s: exit %d: %s", format, file, code, stderr)
		}
		out["report --format "+format+" "+file] = stdout + stderr
	}
	return out
}

// checkSurvived asserts a 30 s run on 3 s tokens lost nothing: every read
// ok, none unauthorized, the refreshes counted (one every 2.25 s, at
// three quarters of the lifetime: about 13), none failed.
func checkSurvived(t *testing.T, dir, file string) *authBlock {
	t.Helper()
	r := loadResult(t, filepath.Join(dir, file))
	onlyGood(t, r)
	if r.Totals.Outcomes["ok"] < 300 {
		t.Errorf("%d reads ok, want the run's ~600: %v", r.Totals.Outcomes["ok"], r.Totals.Outcomes)
	}
	a := loadAuthBlock(t, filepath.Join(dir, file))
	if a == nil {
		t.Fatal("the result has no auth block")
	}
	q := a.TokenRequests
	if a.Unauthorized != 0 || q.Failures != 0 || a.Lost != "" {
		t.Errorf("unauthorized %d, token failures %d, lost %q; want none", a.Unauthorized, q.Failures, a.Lost)
	}
	if q.Refreshes < 8 || q.Refreshes > 20 {
		t.Errorf("%d refreshes in 30 s of 3 s tokens, want about 13 (8 to 20): %+v", q.Refreshes, q)
	}
	if q.ByReason["expiring"] < q.Refreshes-2 {
		t.Errorf("refreshes %d, but only %d ahead of expiry: %v", q.Refreshes, q.ByReason["expiring"], q.ByReason)
	}
	if a.ReadsFreshToken.Count < q.Refreshes || a.ReadsLater.Count == 0 {
		t.Errorf("reads on a fresh token %d, later %d: want one at least per token and session", a.ReadsFreshToken.Count, a.ReadsLater.Count)
	}
	return a
}

const e2eWorkload = `
name: oauth-e2e
sessions: 2
load: {rate: 20/s, duration: 30s, warmup: 0s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=2000"}
`

// TestOAuthRunSurvivesExpiringTokens: a 30 s run with the client
// credentials grant against serve --oauth whose tokens last 3 s: every
// read ok, the refreshes counted in the result and in the server's
// counts alike, and neither the client secret nor any token in any
// output, result or report.
func TestOAuthRunSurvivesExpiringTokens(t *testing.T) {
	t.Parallel()
	const secret = "e2e-cl1ent-s3cret-4b9"
	srv := startOAuthServe(t, "--oauth-token-ttl", "3s", "--oauth-client", "loadtest:"+secret)
	dir := t.TempDir()
	wl := writeWorkload(t, dir, e2eWorkload)
	cmd := testproc.Own(t, exec.Command(binary, "run", wl, "--target", srv.url, "--oauth-client-id", "loadtest",
		"--oauth-client-secret", "${RB_E2E_SECRET}", "--out", "r.json"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RB_E2E_SECRET="+secret, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	a := checkSurvived(t, dir, "r.json")
	c := parseServeCounts(t, srv.stop())
	if got := a.TokenRequests.Count - a.TokenRequests.Failures; c.clientCredentials != got || c.refused != 0 {
		t.Errorf("the server issued %d client_credentials tokens and refused %d requests; readbench counts %d token requests that got one",
			c.clientCredentials, c.refused, got)
	}
	if c.unauthorized > 3 || c.forbidden != 0 {
		t.Errorf("the server answered %d 401s and %d 403s, want a few at most (the first, unauthenticated probe)", c.unauthorized, c.forbidden)
	}
	outputs := renderings(t, dir, "r.json")
	outputs["run stdout"], outputs["run stderr"] = stdout.String(), stderr.String()
	noSecrets(t, outputs, secret)
}

// TestOAuthLoginRunSurvivesExpiringTokens: readbench login --headless
// (dynamic client registration, the authorization code flow) then a 30 s
// run on the cached tokens, whose 3 s access tokens are renewed with the
// refresh token grant, each refresh token used once (rotation).
func TestOAuthLoginRunSurvivesExpiringTokens(t *testing.T) {
	t.Parallel()
	srv := startOAuthServe(t, "--oauth-token-ttl", "3s")
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	env := append(os.Environ(), "XDG_CACHE_HOME="+cache)
	outputs := map[string]string{}
	var secrets []string
	cachedTokens := func() {
		files, _ := filepath.Glob(filepath.Join(cache, "readbench", "tokens", "*.json"))
		if len(files) != 1 {
			t.Fatalf("%d cached logins, want 1", len(files))
		}
		var e struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
			ClientSecret string `json:"client_secret"`
		}
		b, _ := os.ReadFile(files[0])
		if err := json.Unmarshal(b, &e); err != nil || e.AccessToken == "" || e.RefreshToken == "" {
			t.Fatalf("the cached login has no tokens (%v)", err)
		}
		secrets = append(secrets, e.AccessToken, e.RefreshToken, e.ClientSecret)
	}
	run := func(name string, args ...string) string {
		cmd := testproc.Own(t, exec.Command(binary, args...))
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr lockedBuffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s%s", name, err, stdout.String(), stderr.String())
		}
		outputs[name] = stdout.String() + stderr.String()
		return stdout.String()
	}
	if out := run("login", "login", "--target", srv.url, "--headless", "--no-browser"); !strings.Contains(out, "resource "+srv.url) {
		t.Errorf("login printed %q", out)
	}
	cachedTokens()
	wl := writeWorkload(t, dir, e2eWorkload)
	run("run", "run", wl, "--target", srv.url, "--out", "r.json")
	cachedTokens() // the rotated refresh token the run saved
	a := checkSurvived(t, dir, "r.json")
	c := parseServeCounts(t, srv.stop())
	if c.authorizationCode != 1 || c.refreshes != a.TokenRequests.Refreshes || c.refused != 0 {
		t.Errorf("the server issued %d authorization_code and %d refresh_token tokens, refused %d; readbench counts %d refreshes",
			c.authorizationCode, c.refreshes, c.refused, a.TokenRequests.Refreshes)
	}
	if c.unauthorized > 3 || c.forbidden != 0 {
		t.Errorf("the server answered %d 401s and %d 403s, want a few at most", c.unauthorized, c.forbidden)
	}
	for k, v := range renderings(t, dir, "r.json") {
		outputs[k] = v
	}
	noSecrets(t, outputs, secrets...)
}
