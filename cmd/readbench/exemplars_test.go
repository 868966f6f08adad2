package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/internal/promtest"
)

// TestRunExemplars: a run's --metrics remote write gives a real
// Prometheus (exemplar storage on) exemplars on the read latency
// buckets, and every exemplar's trace_id is the trace of a read the
// server received; so are the trace ids of the result's slowest reads.
//
// On a contended machine readbench may call the server overloaded (exit
// 1), and a read cut by its timeout may never have reached the server:
// then a cut slow read's trace, and an exemplar's, may be one the server
// did not see, but an answered read's never, and at least one exemplar
// must still be the server's.
func TestRunExemplars(t *testing.T) {
	prom := promtest.Start(t, promtest.Options{Features: []string{"exemplar-storage"}})
	target, rec := peertest.StartTracingSDKHTTP(t, nil)
	dir := t.TempDir()
	out, wl := filepath.Join(dir, "r.json"), filepath.Join(dir, "w.yaml")
	docs := peertest.Docs()
	if err := os.WriteFile(wl, fmt.Appendf(nil, "target: %q\nload: {rate: 20/s, duration: 3s}\nturn: {attachments: 2}\nmix:\n  - {class: docs, uris: [%q, %q]}\n",
		target, docs[0].URI, docs[1].URI), 0o644); err != nil {
		t.Fatal(err)
	}
	from := time.Now().Add(-time.Minute)
	machine := watchMachine()
	_, stderr, code := readbench(t, dir, "run", wl, "--out", out, "-q", "--metrics", "prometheus-rw="+prom+"/api/v1/write", "--metrics-interval", "1s")
	raw := exitOnBusy(t, machine, code, stderr, out)
	outcomes := counts(t, raw["totals"].(map[string]any), "outcomes")
	cut := machine.Busy() && outcomes["timeout"]+outcomes["cancelled"] > 0 // reads that may not have reached the server
	ids := map[string]bool{}                                               // the traces the server's OpenTelemetry propagator read in the headers
	for _, s := range rec.Seen() {
		if s.Header.IsValid() {
			ids[s.Header.TraceID().String()] = true
		}
	}
	if len(ids) == 0 {
		t.Fatal("the server saw no traceparent")
	}
	var res struct {
		Classes []struct {
			SlowReads struct {
				Slowest []struct {
					TraceID    string `json:"trace_id"`
					LowerBound bool   `json:"lower_bound"`
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
			if !ids[r.TraceID] && !(cut && r.LowerBound) {
				t.Errorf("slow read's trace %q (cut %v): not one the server saw (%s)", r.TraceID, r.LowerBound, machine)
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
		t.Fatalf("Prometheus returns no exemplar for the run's read latency (%s)", machine)
	}
	seen := 0
	for _, id := range got {
		if ids[id] {
			seen++
		} else if !cut {
			t.Errorf("exemplar trace_id %q: not a trace the server received (%s)", id, machine)
		}
	}
	if seen == 0 {
		t.Errorf("no exemplar's trace_id of %d is a trace the server received (%s)", len(got), machine)
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
