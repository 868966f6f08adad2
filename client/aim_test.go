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
	"github.com/readbench/readbench/targets"
)

// TestConnectRefusesBeforeAnyConnection: Connect refuses a target that is
// not allowed before it dials or resolves anything: the error is the
// refusal, never a transport failure, and comes at once.
func TestConnectRefusesBeforeAnyConnection(t *testing.T) {
	for _, addr := range []string{"https://example.invalid/mcp", "sse+https://example.invalid/sse"} {
		tg, err := targets.Parse(addr)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, _, err = Connect(context.Background(), Dial{Target: tg})
		var ae *targets.AimError
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
