package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// TestListenCacheScopeGoSDK: `readbench run` with three listeners of the
// official Go SDK v1.8.0 over Streamable HTTP in the 2026-07-28 era,
// whose resources/read answers carry cacheScope (the SDK's default,
// public, or private set with its SetCacheable) and ttlMs 0. Public: a
// cache shared between the listeners answers all but one re-read of
// each change, counted (honour_scope false) or not sent (true). Private:
// nothing is saved, each listener re-reading each change once.
func TestListenCacheScopeGoSDK(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, scope string
		honour      bool
	}{
		{"default public", "", false},
		{"default public honoured", "", true},
		{"private honoured", "private", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := peertest.SDKSubscribeServerScoped("go-sdk-scope-peer", c.scope, watched()...)
			target := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})).URL + "/mcp"
			rr, notified := scopeRun(t, target, c.honour)
			t.Logf("re-reads %+v for %d notifications", rr, notified)
			started := rr.Made + rr.SkippedFresh + rr.SkippedScope
			if rr.Made == 0 || rr.SkippedFresh != 0 || rr.WouldSkip != 0 || started > notified {
				t.Fatalf("re-reads %+v for %d notifications", rr, notified)
			}
			switch {
			case c.scope == "private":
				if rr.SkippedScope != 0 || rr.WouldSkipScope != 0 {
					t.Errorf("private answers saved re-reads: %+v", rr)
				}
			case c.honour:
				if rr.SkippedScope == 0 || rr.WouldSkipScope != 0 || rr.SkippedScope > 2*started/3 {
					t.Errorf("honoured public: %+v", rr)
				}
			default:
				if rr.WouldSkipScope == 0 || rr.SkippedScope != 0 || rr.WouldSkipScope > 2*rr.Made/3 {
					t.Errorf("public: %+v", rr)
				}
			}
		})
	}
}

// rereadKeys are the result's subscriptions.rereads counts.
type rereadKeys struct {
	Made           int64
	SkippedFresh   int64 `json:"skipped_fresh"`
	WouldSkip      int64 `json:"would_skip"`
	SkippedScope   int64 `json:"skipped_scope"`
	WouldSkipScope int64 `json:"would_skip_scope"`
}

// scopeRun runs the binary against target with three listeners of
// watched, one stream each, re-reading with honour_scope honour, and
// returns the re-read counts and the notifications that told of a change.
func scopeRun(t *testing.T, target string, honour bool) (rereadKeys, int64) {
	t.Helper()
	dir := t.TempDir()
	w := watched()
	y := fmt.Sprintf(`
name: listen-scope
target: %q
protocol: 2026-07-28
sessions: 1
load: {rate: 2/s, %s}
turn: {attachments: 1, read_timeout: 30s}
mix:
  - {class: doc, uri: %q}
listen: {listeners: 3, streams: 1, uris: [%q, %q], reread: {on: true, honour_scope: %v}}
changes: %s
`, target, touchLoad, w[0], w[0], w[1], honour, touchChanges)
	wl := filepath.Join(dir, "listen.yaml")
	if err := os.WriteFile(wl, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json", "--quiet", "--no-live")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	data, err := json.Marshal(rawResult(t, filepath.Join(dir, "r.json"))["subscriptions"])
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Notifications struct{ Notified int64 }
		Rereads       rereadKeys
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("subscriptions block %s: %v", data, err)
	}
	return s.Rereads, s.Notifications.Notified
}
