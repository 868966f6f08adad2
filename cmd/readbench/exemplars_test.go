package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/internal/promtest"
	"github.com/readbench/readbench/protocol"
)

// sdkTraceIDs serves the official Go SDK's server on 127.0.0.1 noting the
// trace id of every resources/read's traceparent header, and returns its
// URL and the ids seen so far.
func sdkTraceIDs(t *testing.T) (string, func() map[string]bool) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := peertest.SDKServer(2 * time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	noting := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &m) == nil && m.Method == protocol.MethodResourcesRead {
			if p, err := protocol.ParseTraceParent(r.Header.Get(protocol.HeaderTraceParent)); err == nil {
				mu.Lock()
				seen[p.Trace.String()] = true
				mu.Unlock()
			}
		}
		h.ServeHTTP(w, r)
	})
	return peertest.ServeLocal(t, noting).URL + "/mcp", func() map[string]bool {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

// TestRunExemplars: a run's --metrics remote write gives a real
// Prometheus (exemplar storage on) exemplars on the read latency
// buckets, and every exemplar's trace_id is the trace of a read the
// server received; so are the trace ids of the result's slowest reads.
func TestRunExemplars(t *testing.T) {
	prom := promtest.Start(t, promtest.Options{Features: []string{"exemplar-storage"}})
	target, seen := sdkTraceIDs(t)
	dir := t.TempDir()
	out, wl := filepath.Join(dir, "r.json"), filepath.Join(dir, "w.yaml")
	docs := peertest.Docs()
	if err := os.WriteFile(wl, fmt.Appendf(nil, "target: %q\nload: {rate: 20/s, duration: 3s}\nturn: {attachments: 2}\nmix:\n  - {class: docs, uris: [%q, %q]}\n",
		target, docs[0].URI, docs[1].URI), 0o644); err != nil {
		t.Fatal(err)
	}
	from := time.Now().Add(-time.Minute)
	_, stderr, code := readbench(t, dir, "run", wl, "--out", out, "-q", "--metrics", "prometheus-rw="+prom+"/api/v1/write", "--metrics-interval", "1s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ids := seen()
	if len(ids) == 0 {
		t.Fatal("the server saw no traceparent")
	}
	var res struct {
		Classes []struct {
			SlowReads struct {
				Slowest []struct {
					TraceID string `json:"trace_id"`
				} `json:"slowest"`
			} `json:"slow_reads"`
		} `json:"classes"`
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, c := range res.Classes {
		for _, r := range c.SlowReads.Slowest {
			kept++
			if !ids[r.TraceID] {
				t.Errorf("slow read's trace %q: not one the server saw", r.TraceID)
			}
		}
	}
	if kept == 0 {
		t.Error("the result names no slow read")
	}

	var got []string
	for deadline := time.Now().Add(20 * time.Second); len(got) == 0 && time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		got = exemplarTraceIDs(t, prom, `readbench_read_latency_seconds_bucket{phase="measured"}`, from, time.Now().Add(time.Minute))
	}
	if len(got) == 0 {
		t.Fatal("Prometheus returns no exemplar for the run's read latency")
	}
	for _, id := range got {
		if !ids[id] {
			t.Errorf("exemplar trace_id %q: not a trace the server received", id)
		}
	}
}

// exemplarTraceIDs is the trace_id of every exemplar query_exemplars
// returns for query between from and to.
func exemplarTraceIDs(t *testing.T, prom, query string, from, to time.Time) []string {
	t.Helper()
	var body []struct {
		Exemplars []struct {
			Labels map[string]string `json:"labels"`
		} `json:"exemplars"`
	}
	q := url.Values{"query": {query}, "start": {strconv.FormatInt(from.Unix(), 10)}, "end": {strconv.FormatInt(to.Unix(), 10)}}
	if err := promtest.Get(prom, "/api/v1/query_exemplars", q, &body); err != nil {
		t.Fatalf("query_exemplars: %v", err)
	}
	var ids []string
	for _, s := range body {
		for _, e := range s.Exemplars {
			ids = append(ids, e.Labels["trace_id"])
		}
	}
	return ids
}
