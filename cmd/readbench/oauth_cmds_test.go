package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/readbench/readbench/internal/testproc"
)

// More of readbench against serve --oauth: a pasted header that expires,
// fresh-token reads with session churn, and the runs of ab and capacity
// sharing one token source (helpers in oauth_e2e_test.go).

// TestPastedHeaderExpires: a token pasted with --header, from serve
// --oauth whose tokens last 3 s, gets the first reads in; after it
// expires every read is unauthorized (not a transport failure), and the
// run says in one line that the server refused the header, which
// readbench cannot renew. The token is printed nowhere.
func TestPastedHeaderExpires(t *testing.T) {
	t.Parallel()
	const secret = "p4sted-cl1ent-s3cret"
	srv := startOAuthServe(t, "--oauth-token-ttl", "3s", "--oauth-client", "loadtest:"+secret)
	base := strings.TrimSuffix(srv.url, "/mcp")
	cfg := clientcredentials.Config{ClientID: "loadtest", ClientSecret: secret, TokenURL: base + "/token"}
	tok, err := cfg.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: pasted
load: {rate: 10/s, duration: 7s, warmup: 0s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=100"}
`)
	cmd := testproc.Own(t, exec.Command(binary, "run", wl, "--target", srv.url, "--header", "Authorization: Bearer ${RB_PASTED}", "--out", "r.json"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RB_PASTED="+tok.AccessToken, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run() // exit 1: reads failed
	r := loadResult(t, filepath.Join(dir, "r.json"))
	o := r.Totals.Outcomes
	if o["ok"] == 0 || o["unauthorized"] < 20 || o["transport"] != 0 {
		t.Errorf("outcomes %v: want reads ok until the token expired, unauthorized after, no transport failures", o)
	}
	log := stderr.String()
	for _, want := range []string{"the server refused authorization for", "(every read from then on)",
		"refused the credentials of the Authorization header", "cannot renew a pasted header: use the --oauth-* flags or readbench login"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	outputs := renderings(t, dir, "r.json")
	outputs["run stdout"], outputs["run stderr"] = stdout.String(), log
	noSecrets(t, outputs, secret, tok.AccessToken)
}

// TestABWithOAuth: readbench ab with --oauth-* against serve --oauth:
// every run of every round reads with the side's tokens, and each run's
// auth block counts only its own token requests, so that their sum is
// what the server issued, less those renewed after a side's last run
// (the runs of a side share one token source).
func TestABWithOAuth(t *testing.T) {
	const secret = "ab-cl1ent-s3cret-77"
	srv := startOAuthServe(t, "--oauth-token-ttl", "2s", "--oauth-client", "loadtest:"+secret)
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: ab-oauth
load: {rate: 10/s, duration: 2s, warmup: 0s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=100"}
`)
	t.Setenv("RB_AB_SECRET", secret)
	stdout, stderr, code := readbench(t, dir, "ab", wl, "--base", srv.url, "--new", srv.url, "--rounds", "2",
		"--oauth-client-id", "loadtest", "--oauth-client-secret", "${RB_AB_SECRET}", "--out", "abrun", "-q")
	if code == exitUsage {
		t.Fatalf("ab: exit %d\n%s%s", code, stdout, stderr)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "abrun", "*", "round-*.json"))
	if len(runs) < 4 {
		t.Fatalf("%d runs saved, want 4 (2 rounds, 2 sides): %v\n%s", len(runs), runs, stderr)
	}
	counted := tokenRequestsOfRuns(t, runs)
	c := parseServeCounts(t, srv.stop())
	// The token sources keep their tokens fresh until ab ends: what they
	// renew after a side's last run is no run's (a few at 2 s tokens).
	if counted > c.clientCredentials || counted < c.clientCredentials-6 {
		t.Errorf("the runs' auth blocks count %d token requests, the server issued %d tokens: some were counted twice or lost", counted, c.clientCredentials)
	}
	noSecrets(t, map[string]string{"ab stdout": stdout, "ab stderr": stderr}, secret)
}

// TestOAuthChurnFreshTokenReads: with session churn every new session's
// first read is its first on the run's token, so with one token for the
// whole run (it outlives it) the reads on a fresh token are exactly the
// sessions' first reads: what a new host's authorization costs shows in
// auth.reads_fresh_token beside first_read.
func TestOAuthChurnFreshTokenReads(t *testing.T) {
	t.Parallel()
	const secret = "churn-cl1ent-s3cret"
	srv := startOAuthServe(t, "--oauth-client", "loadtest:"+secret) // tokens last an hour
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: churn-oauth
sessions: 2
load: {rate: 20/s, duration: 3s, warmup: 0s, session_turns: 5}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=100"}
`)
	cmd := testproc.Own(t, exec.Command(binary, "run", wl, "--target", srv.url, "--oauth-client-id", "loadtest",
		"--oauth-client-secret", "${RB_CHURN_SECRET}", "--out", "r.json", "-q"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RB_CHURN_SECRET="+secret, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	onlyGood(t, loadResult(t, filepath.Join(dir, "r.json")))
	a := loadAuthBlock(t, filepath.Join(dir, "r.json"))
	data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	var doc struct {
		FirstRead struct {
			Count int64 `json:"count"`
		} `json:"first_read"`
		Sessions struct {
			Replaced int64 `json:"replaced"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Sessions.Replaced < 5 {
		t.Fatalf("%d sessions replaced, want churn (every 5 turns of 60)", doc.Sessions.Replaced)
	}
	if a == nil || a.TokenRequests.Count != 1 || a.ReadsFreshToken.Count != doc.FirstRead.Count {
		t.Errorf("token requests %+v, reads on a fresh token %d, first reads %d: want one token, and a fresh-token read per session's first read",
			a.TokenRequests, a.ReadsFreshToken.Count, doc.FirstRead.Count)
	}
}

// TestCapacityWithOAuth: every step of a capacity search reads with the
// target's tokens, and each step's auth block counts only its own token
// requests (their sum is what the server issued, less those renewed
// after the last step).
func TestCapacityWithOAuth(t *testing.T) {
	const secret = "cap-cl1ent-s3cret-31"
	srv := startOAuthServe(t, "--oauth-token-ttl", "2s", "--oauth-client", "loadtest:"+secret)
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: capacity-oauth
load: {rate: 10/s, duration: 1s, warmup: 0s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: md, uri: "sim:///h?mime=text/markdown&size=100"}
`)
	t.Setenv("RB_CAP_SECRET", secret)
	stdout, stderr, code := readbench(t, dir, "capacity", wl, "--target", srv.url, "--slo", "read.p99<5s",
		"--from", "10/s", "--to", "20/s", "--step-duration", "1500ms", "--step-warmup", "0s", "--refine", "0", "--hold", "1500ms",
		"--oauth-client-id", "loadtest", "--oauth-client-secret", "${RB_CAP_SECRET}", "--out", "caps", "-q")
	if code == exitUsage {
		t.Fatalf("capacity: exit %d\n%s%s", code, stdout, stderr)
	}
	steps, _ := filepath.Glob(filepath.Join(dir, "caps", "step-*.json"))
	if len(steps) < 2 {
		t.Fatalf("%d steps saved, want 2 at least\n%s%s", len(steps), stdout, stderr)
	}
	counted := tokenRequestsOfRuns(t, steps)
	c := parseServeCounts(t, srv.stop())
	if counted > c.clientCredentials || counted < c.clientCredentials-3 {
		t.Errorf("the steps' auth blocks count %d token requests, the server issued %d tokens: some were counted twice or lost", counted, c.clientCredentials)
	}
	noSecrets(t, map[string]string{"capacity stdout": stdout, "capacity stderr": stderr}, secret)
}

// tokenRequestsOfRuns checks that every result file has only good reads
// and an auth block without failures, and adds up their token requests.
func tokenRequestsOfRuns(t *testing.T, files []string) int64 {
	t.Helper()
	var counted int64
	for _, f := range files {
		onlyGood(t, loadResult(t, f))
		a := loadAuthBlock(t, f)
		if a == nil || a.TokenRequests.Failures != 0 || a.Unauthorized != 0 {
			t.Fatalf("%s: auth block %+v, want one without failures", f, a)
		}
		counted += a.TokenRequests.Count
	}
	return counted
}
