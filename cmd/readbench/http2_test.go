package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/h2peers"
)

// HTTP/2 end to end (docs/workload.md, http): readbench's runs against
// servers no one here wrote that serve h2 (the official Go SDK over
// net/http, the TypeScript SDK over Node's http2, server-everything behind
// nginx), and, against `readbench serve`, what a run does over h2 besides
// reading: cut reads, both eras, OAuth, traces, ranged reads, record and
// replay.

// h2Counts is the part of a result an HTTP/2 test looks at.
type h2Counts struct {
	Totals struct {
		Scheduled int64            `json:"scheduled"`
		Outcomes  map[string]int64 `json:"outcomes"`
	} `json:"totals"`
	Cancellation struct {
		Cancelled   int64  `json:"cancelled"`
		LateAnswers *int64 `json:"late_answers"`
	} `json:"cancellation"`
	Connections *struct {
		Opened      int64 `json:"opened"`
		Requests    int64 `json:"requests"`
		ClosedByCut int64 `json:"closed_by_cut"`
		HTTP2       *struct {
			Streams        int64  `json:"streams"`
			PeakStreams    int64  `json:"peak_streams"`
			MaxStreams     uint32 `json:"max_concurrent_streams"`
			ResetsByClient int64  `json:"rst_stream_by_client"`
			ResetsByServer int64  `json:"rst_stream_by_server"`
			GoAwayByServer int64  `json:"goaway_by_server"`
		} `json:"http2"`
	} `json:"connections"`
}

func loadH2Counts(t *testing.T, path string) h2Counts {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c h2Counts
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if c.Connections == nil || c.Connections.HTTP2 == nil {
		t.Fatalf("%s: no connections.http2 block: the run did not speak HTTP/2", path)
	}
	return c
}

// h2Run runs readbench with SSL_CERT_FILE trusting caFile (when set) and
// returns its result's counts; a run that exits 1 is accepted only for a
// busy machine's verdict.
func h2Run(t *testing.T, dir, caFile string, args ...string) h2Counts {
	t.Helper()
	var env []string
	if caFile != "" {
		env = append(env, "SSL_CERT_FILE="+caFile)
	}
	out := filepath.Join(dir, fmt.Sprintf("r%d.json", len(mustGlob(t, filepath.Join(dir, "r*.json")))))
	_, stderr, code := readbenchEnv(t, dir, env, append(args, "--out", out)...)
	if code != 0 && !(code == 1 && strings.Contains(stderr, "contended")) {
		t.Fatalf("readbench %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return loadH2Counts(t, out)
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// h2Workload writes a closed-loop workload reading uri, 2 sessions, 2
// reads a turn with a 10 s deadline, 40 turns.
func h2Workload(t *testing.T, dir, uri, extra string) string {
	t.Helper()
	wl := filepath.Join(dir, "h2.yaml")
	text := fmt.Sprintf(`name: h2
sessions: 2
load: {model: closed, concurrency: 4, turns: 40, warmup: 0s}
turn: {attachments: 2, deadline: 10s}
mix:
  - {class: doc, weight: 1, uri: %q}
%s`, uri, extra)
	if err := os.WriteFile(wl, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return wl
}

// TestHTTP2AgainstServersNoOneHereWrote: every read of a run over h2
// (version 2, and auto where TLS lets ALPN choose) against real HTTP/2
// servers is answered with its document, every read went on a stream of
// the run's shared connections (one a session), and the server reset no
// stream. (readbench may reset one it is done with: an answer's event
// stream the server had not ended yet when the answer was whole.)
func TestHTTP2AgainstServersNoOneHereWrote(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		peer     func(t *testing.T) *h2peers.Peer
		uri      string
		versions []string
	}{
		{"go sdk, TLS", func(t *testing.T) *h2peers.Peer { return h2peers.GoSDK(t, false, nil) }, "docs://onboarding/engineering", []string{"2", "auto"}},
		{"go sdk, h2c", func(t *testing.T) *h2peers.Peer { return h2peers.GoSDK(t, true, nil) }, "file:///repo/architecture.png", []string{"2"}},
		{"node sdk, TLS, stateful", func(t *testing.T) *h2peers.Peer { return h2peers.NodeSDK(t, h2peers.NodeMode{}) }, "doc://text/64k", []string{"2", "auto"}},
		{"node sdk, h2c, stateless, sse", func(t *testing.T) *h2peers.Peer {
			return h2peers.NodeSDK(t, h2peers.NodeMode{H2C: true, Stateless: true, SSE: true})
		}, "doc://blob/4k", []string{"2"}},
		{"nginx, TLS, server-everything", func(t *testing.T) *h2peers.Peer { return h2peers.NginxEverything(t) },
			"demo://resource/static/document/architecture.md", []string{"2", "auto"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tc.peer(t)
			dir := t.TempDir()
			wl := h2Workload(t, dir, tc.uri, "")
			for _, v := range tc.versions {
				c := h2Run(t, dir, p.CAFile, "run", wl, "--target", p.URL, "--http", v)
				h := c.Connections.HTTP2
				if ok := c.Totals.Outcomes["ok"]; ok != 80 || c.Totals.Scheduled != 80 {
					t.Errorf("version %s: %d of %d reads ok, want 80 of 80: %v", v, ok, c.Totals.Scheduled, c.Totals.Outcomes)
				}
				if h.Streams < 80 || h.Streams != c.Connections.Requests || c.Connections.Opened < 1 || c.Connections.Opened > 2 ||
					h.ResetsByServer != 0 || h.GoAwayByServer != 0 || c.Connections.ClosedByCut != 0 {
					t.Errorf("version %s: connections %+v, http2 %+v: want every request a stream of at most 2 connections, none reset by the server", v, *c.Connections, *h)
				}
			}
			if p.Name == "nginx" || strings.Contains(tc.name, "nginx") {
				if log, _ := os.ReadFile(filepath.Join(p.Logs, "access.log")); strings.Count(string(log), "HTTP/2.0") < 160 {
					t.Errorf("nginx logged %d HTTP/2.0 requests, want the runs' 160 reads at least", strings.Count(string(log), "HTTP/2.0"))
				}
			}
		})
	}
}
