package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/workload"
)

func TestCheckAim(t *testing.T) {
	target := func(s string) workload.Target {
		tg, err := workload.ParseTarget(s)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	auth := map[string]string{"Authorization": "Bearer s3cret"}
	cases := []struct {
		target  string
		headers map[string]string
		aim     Aim
		want    string // "" allowed; else a part of the refusal
	}{
		{"embedded", auth, Aim{}, ""},
		{"stdio:./server --stdio", auth, Aim{}, ""},
		{"http://127.0.0.1:8080/mcp", auth, Aim{}, ""},
		{"http://localhost/mcp", auth, Aim{}, ""},
		{"sse+http://[::1]:9/sse", auth, Aim{}, ""},
		{"https://example.invalid/mcp", nil, Aim{}, "add --allow-host example.invalid to the command line, or allow_hosts: [example.invalid]"},
		{"sse+https://example.invalid/sse", nil, Aim{}, "--allow-host example.invalid"},
		{"range+http://127.0.0.1:8080/files/", auth, Aim{}, ""},
		{"range+https://example.invalid/files/", nil, Aim{}, "target range+https://example.invalid/files/: example.invalid is not this machine"},
		{"range+http://example.invalid/files/", auth, Aim{AllowHosts: []string{"example.invalid"}}, "in clear text over http://"},
		{"https://example.invalid/mcp", auth, Aim{AllowHosts: []string{"Example.Invalid."}}, ""},
		{"https://example.invalid/mcp", auth, Aim{AllowHosts: []string{"example.invalid:443"}}, ""},
		{"https://example.invalid:8443/mcp", nil, Aim{AllowHosts: []string{"example.invalid:443"}}, "--allow-host example.invalid"},
		{"https://other.invalid/mcp", nil, Aim{AllowHosts: []string{"example.invalid"}}, "--allow-host other.invalid"},
		{"http://[2001:db8::1]:80/mcp", nil, Aim{}, "--allow-host [2001:db8::1]"},
		{"http://example.invalid/mcp", nil, Aim{AllowHosts: []string{"example.invalid"}}, ""},
		{"http://example.invalid/mcp", auth, Aim{AllowHosts: []string{"example.invalid"}}, "the header Authorization would go to example.invalid in clear text over http://: use https://, or add --insecure-credentials"},
		{"http://user:pw@example.invalid/mcp", nil, Aim{AllowHosts: []string{"example.invalid"}}, "the URL's user and password"},
		{"http://example.invalid/mcp", auth, Aim{AllowHosts: []string{"example.invalid"}, InsecureCredentials: true}, ""},
	}
	for _, c := range cases {
		err := CheckAim(target(c.target), c.headers, c.aim)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %+v: refused: %v", c.target, c.aim, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrAim)):
			t.Errorf("%s %+v: %v, want a refusal saying %q", c.target, c.aim, err, c.want)
		case err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "pw@")):
			t.Errorf("%s: the refusal shows a secret: %v", c.target, err)
		}
	}
}

// TestConnectRefusesBeforeAnyConnection: Connect refuses a target that is
// not allowed before it dials or resolves anything: the error is the
// refusal, never a transport failure, and comes at once.
func TestConnectRefusesBeforeAnyConnection(t *testing.T) {
	for _, addr := range []string{"https://example.invalid/mcp", "sse+https://example.invalid/sse"} {
		tg, err := workload.ParseTarget(addr)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, _, err = Connect(context.Background(), Dial{Target: tg})
		var ae *AimError
		if !errors.As(err, &ae) || errors.Is(err, ErrTransport) || time.Since(start) > 100*time.Millisecond {
			t.Errorf("%s: %v after %v, want the refusal at once", addr, err, time.Since(start))
		}
	}
}

// TestRedirectElsewhereRefused: a target that redirects to another
// origin does not get the workload's headers sent there.
func TestRedirectElsewhereRefused(t *testing.T) {
	var reached atomic.Int32
	elsewhere := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
	}))
	other := strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1) // another origin on this machine
	target := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+"/mcp", http.StatusTemporaryRedirect)
	}))
	tr := newHTTPTransport(target.URL, http.Header{"X-Api-Key": {"s3cret"}}, 0)
	defer tr.close()
	_, err := tr.call(context.Background(), testRequest(1, "x/read"))
	if err == nil || !strings.Contains(err.Error(), "another origin") || reached.Load() != 0 {
		t.Errorf("redirect to %s: %v, %d requests reached it", other, err, reached.Load())
	}
}
