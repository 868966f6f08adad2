package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The numbers at the edge (docs/measurement.md): an overloaded server, a
// server that ignores cancellation across the warmup's end, a transport
// on which late answers cannot be seen.

// edgeResult is the part of a result these tests read.
type edgeResult struct {
	Target struct {
		WireCounts string `json:"wire_counts"`
	} `json:"target"`
	Totals struct {
		Scheduled int64            `json:"scheduled"`
		Outcomes  map[string]int64 `json:"outcomes"`
		Turns     int64            `json:"turns"`
		TurnEnds  map[string]int64 `json:"turn_ends"`
		Asked     float64          `json:"asked_rate"`
		Achieved  float64          `json:"achieved_rate"`
	} `json:"totals"`
	Read           edgeLatency `json:"read"`
	ReadOK         edgeLatency `json:"read_ok"`
	Lag            edgeLatency `json:"lag"`
	Turn           edgeLatency `json:"turn"`
	GeneratorBound *bool       `json:"generator_bound"`
	Cancellation   struct {
		Cancelled   int64  `json:"cancelled"`
		Observable  bool   `json:"late_observable"`
		LateAnswers *int64 `json:"late_answers"`
		WastedBytes *int64 `json:"wasted_bytes"`
	} `json:"cancellation"`
	Timeline []map[string]any `json:"timeline"`
	Warmup   struct {
		Outcomes map[string]int64 `json:"outcomes"`
	} `json:"warmup"`
}

type edgeLatency struct {
	Count       int64   `json:"count"`
	LowerBounds int64   `json:"lower_bounds"`
	P50         float64 `json:"p50_ms"`
	P99         float64 `json:"p99_ms"`
	Max         float64 `json:"max_ms"`
}

// runEdge runs a workload and returns its result and the printed table.
func runEdge(t *testing.T, body string, args ...string) (edgeResult, string) {
	t.Helper()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, body)
	stdout, stderr, code := readbench(t, dir, append([]string{"run", wl, "--full", "--out", "r.json"}, args...)...) // the lag rows, cancellation: detail
	// keys and identity; a run whose every read was cut is useless: exit 1
	if want := wantExit(loadResult(t, filepath.Join(dir, "r.json"))); code != want {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, want, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r edgeResult
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r, stdout
}

// TestOverloadReport: a server that handles two reads at once (50 ms
// each: 40 reads/s) driven at twice that, with a 200 ms deadline and at
// most 4 turns in flight. The report shows what a performance engineer
// needs to sign it: the dropped turns (counted as failed turns), the cut
// reads recorded at the cut as lower bounds, a read tail at or past the
// deadline, the ok-only block beside it, and the scheduling lag.
func TestOverloadReport(t *testing.T) {
	t.Parallel()
	url := startServe(t, "--workers", "2")
	r, table := runEdge(t, `
name: overload
load: {rate: 20/s, warmup: 500ms, duration: 3s, max_in_flight: 4}
turn: {attachments: 4, read_timeout: 5s, deadline: 200ms}
mix:
  - {class: doc, uri: "sim:///doc?mime=text/plain&size=2000&delay=50ms"}
`, "--target", url)
	if r.Totals.TurnEnds["dropped"] == 0 || r.Totals.Outcomes["dropped"] == 0 {
		t.Errorf("turn ends %v, outcomes %v: twice the capacity with max_in_flight 4 must drop turns", r.Totals.TurnEnds, r.Totals.Outcomes)
	}
	if r.Totals.Achieved >= r.Totals.Asked {
		t.Errorf("achieved %.2f turns/s of %.2f asked with dropped turns: a dropped turn is asked, never achieved", r.Totals.Achieved, r.Totals.Asked)
	}
	if r.Totals.Turns != r.Totals.TurnEnds["complete"]+r.Totals.TurnEnds["cut"]+r.Totals.TurnEnds["failed"]+r.Totals.TurnEnds["dropped"] {
		t.Errorf("turns %d, ends %v: every turn, dropped ones included, has one end", r.Totals.Turns, r.Totals.TurnEnds)
	}
	if r.Read.LowerBounds == 0 || r.Read.P99 < 200 {
		t.Errorf("read block %+v: cut reads must be recorded at the cut, so the p99 is at the 200 ms deadline or past it", r.Read)
	}
	if r.Turn.LowerBounds < r.Totals.TurnEnds["dropped"] || r.Turn.P99 < 200 {
		t.Errorf("turn block %+v: cut and dropped turns are lower bounds at the deadline", r.Turn)
	}
	if r.ReadOK.Count == 0 || r.ReadOK.Count >= r.Read.Count {
		t.Errorf("ok block %d values, all-reads %d: ok answers only, beside every read sent", r.ReadOK.Count, r.Read.Count)
	}
	if r.Lag.Count == 0 || r.GeneratorBound == nil {
		t.Errorf("lag block %+v, generator_bound %v: the scheduling lag must be recorded and judged", r.Lag, r.GeneratorBound)
	}
	if _, ok := r.Timeline[0]["lag_max_ms"]; !ok {
		t.Error("the timeline has no per-second scheduling lag")
	}
	for _, want := range []string{"ok reads", "scheduling lag", "dropped (never started)", "lower bounds", "late answers not observable"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table does not say %q:\n%s", want, table)
		}
	}
}

// TestLateAnswersChargedToTheirPhase: a server that ignores cancellation
// answers reads cancelled in the warmup after the measured phase began;
// those late answers belong to the warmup, so the measured phase never
// counts more late answers than reads it gave up on (it used to).
func TestLateAnswersChargedToTheirPhase(t *testing.T) {
	t.Parallel()
	r, _ := runEdge(t, `
name: deaf
load: {rate: 20/s, warmup: 1s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s, deadline: 50ms}
mix:
  - {class: deaf, uri: "sim:///deaf?mime=text/plain&size=500&delay=700ms&honor_cancel=false"}
`)
	c := r.Cancellation
	abandoned := r.Totals.Outcomes["cancelled"] + r.Totals.Outcomes["timeout"]
	if !c.Observable || c.LateAnswers == nil || *c.LateAnswers == 0 {
		t.Fatalf("cancellation %+v: a deaf stdio server's late answers must be seen", c)
	}
	if !strings.Contains(r.Target.WireCounts, "message") {
		t.Errorf("target.wire_counts %q on stdio", r.Target.WireCounts)
	}
	if *c.LateAnswers > abandoned {
		t.Errorf("%d late answers charged to a phase that gave up on %d reads: warmup answers leaked in", *c.LateAnswers, abandoned)
	}
}

// TestLateAnswersNotObservableOverHTTP: on Streamable HTTP a cancelled
// read's stream is closed, so the count is null and the table says "not
// observable", never "0 late answers".
func TestLateAnswersNotObservableOverHTTP(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	r, table := runEdge(t, `
name: cut-http
load: {rate: 20/s, duration: 1s}
turn: {attachments: 1, read_timeout: 5s, deadline: 50ms}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=100&delay=300ms&honor_cancel=false"}
`, "--target", url)
	c := r.Cancellation
	if c.Cancelled == 0 || c.Observable || c.LateAnswers != nil || c.WastedBytes != nil {
		t.Errorf("cancellation %+v: want cancelled reads and null late answers", c)
	}
	if !strings.Contains(table, "not observable") || strings.Contains(table, "0 late answers") {
		t.Errorf("the table must say late answers are not observable:\n%s", table)
	}
	// Wire bytes over HTTP are the body: the result says so.
	if !strings.Contains(r.Target.WireCounts, "headers not counted") {
		t.Errorf("target.wire_counts %q: an HTTP run must say its wire bytes leave the headers out", r.Target.WireCounts)
	}
}
