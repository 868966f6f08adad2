package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/h2peers"
	"github.com/readbench/readbench/simserver"
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
// returns its result's counts; a run that exits 1 (a verdict: its reads
// cut, a busy machine) is accepted, each test judging the counts itself.
func h2Run(t *testing.T, dir, caFile string, args ...string) h2Counts {
	t.Helper()
	var env []string
	if caFile != "" {
		env = append(env, "SSL_CERT_FILE="+caFile)
	}
	out := filepath.Join(dir, fmt.Sprintf("r%d.json", len(mustGlob(t, filepath.Join(dir, "r*.json")))))
	_, stderr, code := readbenchEnv(t, dir, env, append(args, "--out", out)...)
	if code != 0 && code != 1 {
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

// TestHTTP2CutReadsResetStreams: reads cut by their turn's deadline over
// h2c and over TLS (ALPN) reset their streams and keep the connections
// (none closed by a cut, none opened past one a session), in both eras;
// and the cancellation figures are those of the same run over HTTP/1.1:
// the same reads cancelled, late answers as (un)observable.
func TestHTTP2CutReadsResetStreams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		serve []string
		tls   bool
	}{{"stateless, h2c", nil, false}, {"legacy session, h2c", []string{"--stateful"}, false}, {"stateless, TLS", nil, true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ca, serve := "", tc.serve
			if tc.tls {
				ca = filepath.Join(dir, "ca.pem")
				serve = append(serve, "--tls-cert-out", ca)
			}
			url := startServe(t, serve...)
			wl := h2Workload(t, dir, "sim:///fast.md?mime=text/markdown&size=3000", `  - {class: slow, weight: 1, uri: "sim:///slow.md?mime=text/markdown&size=3000&delay=2s"}
`)
			wl2 := filepath.Join(dir, "cut.yaml")
			text, _ := os.ReadFile(wl)
			if err := os.WriteFile(wl2, []byte(strings.Replace(string(text), "deadline: 10s", "deadline: 150ms", 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			var h1 h2Counts
			if !tc.tls { // over TLS, version 1.1 is net/http's: the same figures are compared over h2c
				h1 = h2RunAny(t, dir, ca, "run", wl2, "--target", url, "--http", "1.1")
			}
			version := "2"
			if tc.tls {
				version = "auto"
			}
			c := h2Run(t, dir, ca, "run", wl2, "--target", url, "--http", version)
			h := c.Connections.HTTP2
			slow := c.Totals.Scheduled - c.Totals.Outcomes["ok"]
			if slow < 10 || c.Cancellation.Cancelled != slow {
				t.Fatalf("%d cancelled, %d reads not ok of %d: want the slow class's reads cut, every one counted cancelled: %v",
					c.Cancellation.Cancelled, slow, c.Totals.Scheduled, c.Totals.Outcomes)
			}
			if h.ResetsByClient < c.Cancellation.Cancelled || c.Connections.ClosedByCut != 0 || c.Connections.Opened > 2 {
				t.Errorf("connections %+v, http2 %+v: want a reset stream for each of %d cut reads, no connection closed or opened for them",
					*c.Connections, *h, c.Cancellation.Cancelled)
			}
			if tc.tls {
				return
			}
			if (h1.Cancellation.LateAnswers == nil) != (c.Cancellation.LateAnswers == nil) || h1.Cancellation.Cancelled != c.Cancellation.Cancelled {
				t.Errorf("HTTP/1.1: %d cancelled, late answers %v; HTTP/2: %d, %v: want the same figures",
					h1.Cancellation.Cancelled, h1.Cancellation.LateAnswers, c.Cancellation.Cancelled, c.Cancellation.LateAnswers)
			}
			if h1.Connections.ClosedByCut == 0 {
				t.Errorf("HTTP/1.1 closed no connection for its %d cut reads: the comparison shows nothing", h1.Cancellation.Cancelled)
			}
		})
	}
}

// h2RunAny is h2Run for a run that need not speak HTTP/2.
func h2RunAny(t *testing.T, dir, caFile string, args ...string) h2Counts {
	t.Helper()
	out := filepath.Join(dir, "h1.json")
	_, stderr, code := readbenchEnv(t, dir, nil, append(args, "--out", out)...)
	if code != 0 && code != 1 {
		t.Fatalf("readbench %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var c h2Counts
	if err := json.Unmarshal(b, &c); err != nil || c.Connections == nil {
		t.Fatalf("%s: %v, connections %v", out, err, c.Connections)
	}
	return c
}

// TestHTTP2CarriesEveryFeature: over h2c against `readbench serve`, a run
// with OAuth, one whose reads carry trace context, ranged reads (the MCP
// read tool, and HTTP ranges of a range+http target), a run recorded
// through `readbench record` and a replay of a recording are all answered
// with their documents, every one over HTTP/2 streams.
func TestHTTP2CarriesEveryFeature(t *testing.T) {
	t.Parallel()
	doc := "sim:///a.md?mime=text/markdown&size=5000"
	allOK := func(t *testing.T, c h2Counts, want int64) {
		t.Helper()
		if ok := c.Totals.Outcomes["ok"]; ok != want || c.Totals.Scheduled != want || c.Connections.HTTP2.Streams < want {
			t.Errorf("%d of %d reads ok, want %d; %d streams: %v", ok, c.Totals.Scheduled, want, c.Connections.HTTP2.Streams, c.Totals.Outcomes)
		}
	}
	t.Run("oauth", func(t *testing.T) {
		t.Parallel()
		srv := startOAuthServe(t, "--oauth-client", "loadtest:h2-secret")
		dir := t.TempDir()
		c := h2Run(t, dir, "", "run", h2Workload(t, dir, doc, ""), "--target", srv.url, "--http", "2",
			"--oauth-client-id", "loadtest", "--oauth-client-secret", "h2-secret")
		allOK(t, c, 80)
	})
	t.Run("traces", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		log := filepath.Join(dir, "traces.jsonl")
		url := startServe(t, "--trace-log", log)
		c := h2Run(t, dir, "", "run", h2Workload(t, dir, doc, ""), // trace_sample: every turn, by default
			"--target", url, "--http", "2")
		allOK(t, c, 80)
		var lines []simserver.TraceLogLine
		eventually(t, 5*time.Second, "80 lines in the trace log", func() bool { lines = readTraceLog(t, log); return len(lines) >= 80 })
		for _, l := range lines {
			if l.Header == "" || l.TraceID == "" {
				t.Fatalf("a read over h2 without its traceparent header: %+v", l)
			}
		}
	})
	t.Run("ranged", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		url := startServe(t)
		big := "sim:///big.log?mime=text/plain&size=700001"
		wl := filepath.Join(dir, "ranged.yaml")
		if err := os.WriteFile(wl, []byte(fmt.Sprintf(`name: ranged
load: {model: closed, concurrency: 2, turns: 10, warmup: 0s}
turn: {attachments: 1}
mix:
  - {class: log, weight: 1, uri: %q, ranged: {chunk: 256KiB}}
`, big)), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, target := range []string{url, filesPrefix(url)} {
			c := h2Run(t, dir, "", "run", wl, "--target", target, "--http", "2")
			allOK(t, c, 10)
			if c.Connections.HTTP2.Streams < 30 { // 3 chunks a read
				t.Errorf("%s: %d streams for 10 reads of 3 chunks", target, c.Connections.HTTP2.Streams)
			}
		}
	})
	t.Run("the file's http section, the target from --target", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		wl := h2Workload(t, dir, doc, "http: {version: 2, connections: 1, streams_per_connection: 2}\n")
		c := h2Run(t, dir, "", "run", wl, "--target", startServe(t))
		allOK(t, c, 80)
		if h := c.Connections.HTTP2; c.Connections.Opened != 1 || h.PeakStreams > 2 {
			t.Errorf("connections %+v, http2 %+v: want 1 connection, at most 2 streams at once", *c.Connections, *h)
		}
	})
	t.Run("record and replay", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		url := startServe(t)
		proxy, stop := startRecord(t, dir, url, "rec.jsonl")
		c := h2Run(t, dir, "", "run", h2Workload(t, dir, doc, ""), "--target", proxy, "--http", "2")
		allOK(t, c, 80)
		stop()
		rec, _ := loadRecording(t, filepath.Join(dir, "rec.jsonl"))
		if n := len(rec.Reads); n != 80 {
			t.Fatalf("the recording holds %d reads of the run's 80 over h2c", n)
		}
		c = h2Run(t, dir, "", "replay", "rec.jsonl", "--target", url, "--http", "2", "--speed", "10x")
		allOK(t, c, 80)
	})
}

// TestHTTP2CheckTellsIgnoredCancels: check's cancellation rule over h2c,
// in the legacy era where an answer can still come after
// notifications/cancelled, passes a server that honours the cancel and
// fails one that ignores it, as over HTTP/1.1.
func TestHTTP2CheckTellsIgnoredCancels(t *testing.T) {
	t.Parallel()
	url := startServe(t, "--stateful")
	for _, c := range []struct{ query, status, want string }{
		{"delay=1s", "pass", "without an answer after notifications/cancelled"},
		{"delay=1s&honor_cancel=false", "fail", "ignored the cancel"},
	} {
		for _, v := range []string{"1.1", "2"} {
			d, _, _ := runCheck(t, "--target", url, "--http", v, "--protocol", "2025-06-18", "--sample", "1",
				"--cancel-uri", "sim:///readbench-check/slow.txt?mime=text/plain&size=1024&"+c.query)
			if r := d.rows("cancellation"); len(r) != 1 || r[0].Status != c.status || !strings.Contains(r[0].Detail, c.want) {
				t.Errorf("HTTP %s, %s: %+v, want %s with %q", v, c.query, r, c.status, c.want)
			}
		}
	}
}
