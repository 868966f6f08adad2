package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/testproc"
)

// What a run, init and check record of the authorization they used,
// against serve --oauth.

// TestOAuthResultRecordsClient: a run whose authorization came from flags
// alone records who it ran as (auth.client: the issuer, the client, the
// grant, the scope granted) and the auth block it used in its workload
// (the secret redacted, the extra token parameters kept), so that --like
// runs it again; the secret is in neither.
func TestOAuthResultRecordsClient(t *testing.T) {
	t.Parallel()
	const secret = "rec0rd-cl1ent-s3cret"
	srv := startOAuthServe(t, "--oauth-client", "loadtest:"+secret)
	dir := t.TempDir()
	wl := writeWorkload(t, dir, "load: {rate: 10/s, duration: 1s, warmup: 0s}\nmix:\n  - {class: md, uri: \"sim:///h?mime=text/markdown&size=200\"}\n")
	cmd := testproc.Own(t, exec.Command(binary, "run", wl, "--target", srv.url, "--oauth-client-id", "loadtest", "--oauth-client-secret", secret,
		"--oauth-param", "audience=https://api.example.com", "--out", "r.json"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Auth struct {
			Client *struct {
				Issuer   string   `json:"issuer"`
				ClientID string   `json:"client_id"`
				Grant    string   `json:"grant"`
				Resource string   `json:"resource"`
				Scope    []string `json:"scope"`
			} `json:"client"`
		} `json:"auth"`
		Workload struct {
			Auth *struct {
				OAuth struct {
					ClientID     string              `json:"client_id"`
					ClientSecret string              `json:"client_secret"`
					TokenParams  map[string][]string `json:"token_params"`
				} `json:"oauth"`
			} `json:"auth"`
		} `json:"workload"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Auth.Client
	if c == nil || c.Issuer == "" || c.ClientID != "loadtest" || c.Grant != "client_credentials" || len(c.Scope) == 0 || c.Resource != srv.url {
		t.Errorf("auth.client = %+v, want the issuer, loadtest, client_credentials, the scope and the resource %s", c, srv.url)
	}
	a := doc.Workload.Auth
	if a == nil || a.OAuth.ClientID != "loadtest" || a.OAuth.ClientSecret != "<redacted>" || a.OAuth.TokenParams["audience"][0] != "https://api.example.com" {
		t.Errorf("workload.auth = %+v, want the flags' block with the secret redacted", a)
	}
	if strings.Contains(string(data), secret) {
		t.Error("the result holds the client secret")
	}
}

// TestInitWritesOAuthBlock: init given the --oauth-* flags writes the
// auth block it got in with (the secret as ${READBENCH_OAUTH_CLIENT_SECRET},
// never the literal), and the starter runs on it with the variable set.
func TestInitWritesOAuthBlock(t *testing.T) {
	t.Parallel()
	const secret = "1nit-cl1ent-s3cret"
	srv := startOAuthServe(t, "--oauth-client", "loadtest:"+secret)
	dir := t.TempDir()
	env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	init := testproc.Own(t, exec.Command(binary, "init", "--target", srv.url, "--oauth-client-id", "loadtest", "--oauth-client-secret", secret,
		"--oauth-param", "audience=https://api.example.com", "--out", "w.yaml"))
	init.Dir, init.Env = dir, env
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	text, err := os.ReadFile(filepath.Join(dir, "w.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"client_id: \"loadtest\"", "client_secret: \"${READBENCH_OAUTH_CLIENT_SECRET}\"", "audience"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the starter lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(string(text), secret) {
		t.Fatalf("the starter holds the secret:\n%s", text)
	}
	run := testproc.Own(t, exec.Command(binary, "run", "w.yaml", "--duration", "1s", "--warmup", "0s", "--out", "r.json"))
	run.Dir, run.Env = dir, append(env, "READBENCH_OAUTH_CLIENT_SECRET="+secret)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run of the starter: %v\n%s", err, out)
	}
	if a := loadAuthBlock(t, filepath.Join(dir, "r.json")); a == nil || a.Unauthorized != 0 || a.TokenRequests.Count == 0 {
		t.Errorf("the starter's run: auth %+v, want tokens and no unauthorized read", a)
	}
}

// TestCheckReportsAuthorization: check with the --oauth-* flags says the
// authorization it found and used (issuer, grant, client, scope granted),
// in its table and its JSON document, never the secret.
func TestCheckReportsAuthorization(t *testing.T) {
	t.Parallel()
	const secret = "ch3ck-cl1ent-s3cret"
	srv := startOAuthServe(t, "--oauth-client", "loadtest:"+secret)
	dir := t.TempDir()
	args := []string{"check", "--target", srv.url, "--oauth-client-id", "loadtest", "--oauth-client-secret", secret}
	table, stderr, code := readbench(t, dir, args...)
	if code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, table, stderr)
	}
	js, _, _ := readbench(t, dir, append(args, "--format", "json")...)
	var doc struct {
		Auth *struct {
			Issuer   string   `json:"issuer"`
			ClientID string   `json:"client_id"`
			Grant    string   `json:"grant"`
			Scope    []string `json:"scope"`
		} `json:"auth"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if a := doc.Auth; a == nil || a.Issuer == "" || a.ClientID != "loadtest" || a.Grant != "client_credentials" || len(a.Scope) == 0 {
		t.Fatalf("the check document's auth = %+v", doc.Auth)
	}
	if !strings.Contains(table, "client_credentials, client loadtest at "+doc.Auth.Issuer) {
		t.Errorf("the table does not say the authorization:\n%s", table)
	}
	if strings.Contains(table+js+stderr, secret) {
		t.Error("check printed the secret")
	}
}
