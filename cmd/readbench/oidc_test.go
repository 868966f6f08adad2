package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// The OAuth tests against a real authorization server (issue 35):
// peers/oidc-provider.mjs runs oidc-provider 9.13.3, a certified OpenID
// provider, in front of peers/sdk-jwt-server.mjs, a TypeScript SDK server
// that verifies the provider's JWT access tokens with jose and the SDK's
// requireBearerAuth. Both listen on 127.0.0.1; the provider can be
// stopped and started again on its port mid-run, with the same signing
// keys.

// The clients oidc-provider.mjs is given.
const (
	oidcCCClient   = "loadtest"               // client_credentials, secret oidcCCSecret
	oidcCCSecret   = "oidc-cl1ent-s3cret-7f2" // what no output may contain
	oidcCodeClient = "readbench-cli"          // public native client, authorization_code + refresh_token
)

// nodeProc is one node peer process, started again with the same
// arguments by start after stop.
type nodeProc struct {
	t     *testing.T
	node  string
	args  []string
	ready string // the stderr line that says it listens
	log   lockedBuffer
	cmd   *exec.Cmd
	done  chan struct{}
}

// start runs the process and waits (at most 30 s) for its ready line.
func (p *nodeProc) start() {
	p.t.Helper()
	p.cmd = testproc.Own(p.t, exec.Command(p.node, p.args...))
	p.cmd.Stdout, p.cmd.Stderr = &p.log, &p.log
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.done = make(chan struct{})
	cmd, done := p.cmd, p.done
	go func() { _ = cmd.Wait(); close(done) }()
	before := strings.Count(p.log.String(), p.ready)
	up := poll(30*time.Second, func() bool {
		select {
		case <-done:
			return true
		default:
		}
		return strings.Count(p.log.String(), p.ready) > before
	})
	select {
	case <-done:
		p.t.Fatalf("node %v exited before it listened:\n%s", p.args, p.log.String())
	default:
	}
	if !up {
		p.t.Fatalf("node %v: no %q within 30s:\n%s", p.args, p.ready, p.log.String())
	}
}

// stop ends the process with SIGTERM (SIGKILL after 10 s) and waits.
func (p *nodeProc) stop() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	p.cmd = nil
}

// oidcPeers is a running provider and resource server.
type oidcPeers struct {
	issuer, target string
	provider       *nodeProc
	server         *nodeProc
}

// oidcOptions shape the provider.
type oidcOptions struct {
	ttl int // access token lifetime, seconds (0: 4)
	// codeClientNoRefresh registers the public client without the
	// refresh_token grant: a provider that issues no refresh token.
	codeClientNoRefresh bool
}

// startOIDC starts the provider and the resource server behind it, both
// ended with the test.
func startOIDC(t *testing.T, o oidcOptions) *oidcPeers {
	t.Helper()
	node := pinnedNode(t)
	npmPeer(t, "oidc-provider", "oidc-provider", "package.json")
	npmPeer(t, "jose", "jose", "package.json")
	npmPeer(t, "@modelcontextprotocol/sdk", "@modelcontextprotocol", "sdk", "package.json")
	peers, err := filepath.Abs("../../peers")
	if err != nil {
		t.Fatal(err)
	}
	if o.ttl == 0 {
		o.ttl = 4
	}
	pp, sp := freePort(t), freePort(t)
	p := &oidcPeers{issuer: fmt.Sprintf("http://127.0.0.1:%d", pp), target: fmt.Sprintf("http://127.0.0.1:%d/mcp", sp)}
	args := []string{filepath.Join(peers, "oidc-provider.mjs"), "--port", fmt.Sprint(pp), "--resource", p.target,
		"--keys", filepath.Join(t.TempDir(), "jwks.json"), "--ttl", fmt.Sprint(o.ttl), "--cc-client", oidcCCClient + ":" + oidcCCSecret}
	if o.codeClientNoRefresh {
		args = append(args, "--code-client-no-refresh", oidcCodeClient)
	} else {
		args = append(args, "--code-client", oidcCodeClient)
	}
	p.provider = &nodeProc{t: t, node: node, args: args, ready: "oidc-provider: issuer "}
	p.server = &nodeProc{t: t, node: node, ready: "sdk-jwt-server: listening",
		args: []string{filepath.Join(peers, "sdk-jwt-server.mjs"), "--port", fmt.Sprint(sp), "--issuer", p.issuer}}
	t.Cleanup(func() { p.server.stop(); p.provider.stop() })
	p.provider.start()
	p.server.start()
	return p
}

// readbenchEnv runs readbench in dir with env added to the environment
// (and the token cache in dir), for at most two minutes.
func readbenchEnv(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, args...))
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache")), env...)
	var out, errb lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

var (
	formActionRE = regexp.MustCompile(`<form[^>]*action="([^"]+)"`)
	authURLRE    = regexp.MustCompile(`(?m)^(http://127\.0\.0\.1:\d+/auth\?\S+)$`)
)

// personLogin runs `readbench login --no-browser` and does what a person
// does with the URL it prints: opens it in a browser (an HTTP client with
// a cookie jar), signs in on the provider's login page (a form post of
// login and password) and continues on its consent page, until the
// provider redirects to readbench. It returns login's output and exit
// code.
func personLogin(t *testing.T, dir string, target string, extra ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, append([]string{"login", "--target", target, "--no-browser"}, extra...)...))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	var out, errb lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var authURL string
	if !poll(30*time.Second, func() bool {
		if m := authURLRE.FindStringSubmatch(errb.String()); m != nil {
			authURL = m[1]
		}
		return authURL != ""
	}) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("login printed no authorization URL:\n%s", errb.String())
	}
	browse(t, authURL)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// browse is the person's browser at authURL: every page with a form is
// submitted (the login form with a login and a password, the consent form
// as it is), cookies kept, until a page has no form (readbench's
// "authorization received").
func browse(t *testing.T, authURL string) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	res, err := hc.Get(authURL)
	for range 5 {
		if err != nil {
			t.Fatalf("the browser: %v", err)
		}
		body := readAll(res)
		m := formActionRE.FindStringSubmatch(body)
		if m == nil {
			if res.StatusCode != http.StatusOK || !strings.Contains(body, "authorization received") {
				t.Fatalf("the browser ended on %s (%d): %s", res.Request.URL.Redacted(), res.StatusCode, body)
			}
			return
		}
		action, _ := res.Request.URL.Parse(m[1])
		form := url.Values{}
		for _, in := range regexp.MustCompile(`<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?`).FindAllStringSubmatch(body, -1) {
			form.Set(in[1], in[2])
		}
		if form.Has("password") {
			form.Set("login", "alice")
			form.Set("password", "any")
		}
		res, err = hc.PostForm(action.String(), form)
	}
	t.Fatal("the browser went through more than 5 forms")
}

func readAll(res *http.Response) string {
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil || b.Len() > 1<<20 {
			return b.String()
		}
	}
}

// cachedEntry is the one login cached under dir.
func cachedEntry(t *testing.T, dir string) map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "cache", "readbench", "tokens", "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d cached logins, want 1", len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]any{}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}
