package main

import (
	"fmt"
	"path/filepath"
	"testing"
)

// What is measured, end to end: each response-shape violation lands in its
// own counter of the result's shape block (and only there), unusable answers
// are protocol outcomes, and a server-wide stall shows in the read tail
// (latency measured from each turn's intended start) while the median and
// the seconds around it stay fast.

// shapeKeys are the counters of the result's shape block (stats.Shape).
var shapeKeys = []string{"neither", "both", "uri_rewritten", "mime_missing", "mime_mismatch",
	"bad_base64", "empty_contents", "multi_entry"}

func TestShapeViolationsEachInTheirCounter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		uri     string // the violating class's URI
		counter string // the shape counter it must land in ("" for none)
		perRead int64  // counts per read of the class
		outcome string // the outcome of every read of the class
	}{
		{"neither", "sim:///v?mime=text/plain&size=200&fault=neither", "neither", 1, "protocol"},
		{"both", "sim:///v?mime=text/plain&size=200&fault=both", "both", 1, "protocol"},
		{"bad_base64", "sim:///v?mime=image/png&size=2000&fault=bad_base64", "bad_base64", 1, "protocol"},
		{"empty", "sim:///v?mime=text/plain&size=200&fault=empty", "empty_contents", 1, "protocol"},
		{"rewrite_uri", "sim:///v?mime=text/plain&size=200&fault=rewrite_uri", "uri_rewritten", 1, "ok"},
		{"no_mime", "sim:///v?mime=text/plain&size=200&fault=no_mime", "mime_missing", 1, "ok"},
		{"png declared as jpeg", "sim:///v?mime=image/png&size=2000&declare=image/jpeg", "mime_mismatch", 1, "ok"},
		{"prose declared as json", "sim:///v?mime=text/plain&size=200&declare=application/json", "mime_mismatch", 1, "ok"},
		{"folder read", "sim:///v?mime=text/plain&size=200&entries=3", "multi_entry", 1, "ok"},
		{"healthy only", "sim:///v?mime=image/png&size=2000", "", 0, "ok"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// The violating class beside a healthy one: the healthy reads must
			// add nothing to any shape counter. The healthy class is most of
			// the mix, so a run whose violations are protocol errors is not
			// failing and exits 0 (at 50/50 most reads could fail, and a run
			// held to no threshold most of whose reads fail exits 1).
			wl := writeWorkload(t, dir, fmt.Sprintf(`
name: shape
load: {rate: 20/s, warmup: 0s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: violation, weight: 30, uri: %q}
  - {class: healthy, weight: 70, uri: "sim:///h?mime=text/markdown&size=300"}
`, c.uri))
			stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			r := loadResult(t, filepath.Join(dir, "r.json"))
			raw := rawResult(t, filepath.Join(dir, "r.json"))
			if len(r.Classes) != 2 || r.Classes[0].Class != "violation" || r.Classes[1].Class != "healthy" {
				t.Fatalf("classes %+v", r.Classes)
			}
			bad, good := r.Classes[0], r.Classes[1]
			reads := sumOutcomes(bad.Outcomes)
			if reads == 0 || bad.Outcomes[c.outcome] != reads {
				t.Errorf("violating class: outcomes %v, want all %d %s", bad.Outcomes, reads, c.outcome)
			}
			if n := sumOutcomes(good.Outcomes); n == 0 || good.Outcomes["ok"] != n {
				t.Errorf("healthy class: outcomes %v, want all ok", good.Outcomes)
			}
			shape, ok := raw["shape"].(map[string]any)
			if !ok {
				t.Fatalf("shape block %v", raw["shape"])
			}
			for _, k := range shapeKeys {
				got, ok := shape[k].(float64)
				if !ok {
					t.Errorf("shape has no %q counter: %v", k, shape)
					continue
				}
				want := int64(0)
				if k == c.counter {
					want = reads * c.perRead
				}
				if int64(got) != want {
					t.Errorf("shape.%s = %v, want %d (%d violating reads): %v", k, got, want, reads, shape)
				}
			}
		})
	}
}

// TestOneSecondStallShowsInTheTail: a server that stalls every read for one
// second, once in a run of 100 reads/s, must show it at p99 (measured from
// the intended start, so reads queued behind the stall count their wait)
// while the median stays fast, and the timeline must show the second the
// stall ended apart from the fast seconds.
func TestOneSecondStallShowsInTheTail(t *testing.T) {
	// Stalls start at every multiple of --stall-every after the server's
	// start. With 4s and a 5s run started shortly after the server, the
	// stall [4s, 5s) falls inside the run and the next (8s) does not, unless
	// the run started over 3s after the server.
	url := startServe(t, "--stall-every", "4s", "--stall-for", "1s")
	dir := t.TempDir()
	wl := writeWorkload(t, dir, fmt.Sprintf(`
name: stall
target: %s
sessions: 2
load: {rate: 100/s, warmup: 0s, duration: 5s}
turn: {attachments: 1, read_timeout: 5s}
mix:
  - {class: fast, uri: "sim:///fast?mime=text/plain&size=1KiB&delay=1ms"}
`, url))
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	onlyGood(t, r)
	t.Logf("read p50 %.3f ms, p99 %.3f ms, outcomes %v", r.Read.P50, r.Read.P99, r.Totals.Outcomes)
	if r.Read.P99 < 500 {
		t.Errorf("read p99 %.3f ms: the 1 s stall is hidden", r.Read.P99)
	}
	if r.Read.P50 >= 50 {
		t.Errorf("read p50 %.3f ms: the median should stay fast", r.Read.P50)
	}
	raw := rawResult(t, filepath.Join(dir, "r.json"))
	timeline, _ := raw["timeline"].([]any)
	var slow, fast int
	for _, s := range timeline {
		sec, _ := s.(map[string]any)
		reads, _ := sec["reads"].(float64)
		p99, ok := sec["p99_ms"].(float64)
		if !ok || reads == 0 {
			continue
		}
		t.Logf("t=%v reads %v p50 %v p99 %v", sec["t_s"], reads, sec["p50_ms"], p99)
		switch {
		case p99 >= 500:
			slow++
		case p99 < 50:
			fast++
		}
	}
	if slow == 0 || fast == 0 {
		t.Errorf("timeline: %d seconds with p99 >= 500 ms, %d with p99 < 50 ms; want at least one of each: %v", slow, fast, timeline)
	}
}
