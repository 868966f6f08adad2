package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// measuredReads is the number of measured reads by the labels in by, as
// Prometheus has them at the moment at.
func measuredReads(t *testing.T, prom string, at time.Time, by ...string) map[string]int64 {
	t.Helper()
	expr := `sum by (` + strings.Join(by, ", ") + `) (readbench_reads_total{phase="measured"})`
	got := map[string]int64{}
	for _, s := range promQuery(t, prom, expr, at) {
		k := ""
		for _, l := range by {
			k += l + "=" + s.Metric[l] + " "
		}
		got[k] = int64(s.float(t))
	}
	return got
}

// Every step of a capacity search feeds the same remote write, each
// step's series labelled with its step: their totals are the saved
// steps' own.
func TestMetricsCapacity(t *testing.T) {
	prom := startPrometheus(t, "")
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "capacity", "--slo", "read.p99<10s", "--from", "20/s", "--to", "40/s",
		"--refine", "0", "--step-duration", "1s", "--step-warmup", "0s", "--hold", "0", "--out", "caps", "-q",
		"--metrics", "prometheus-rw="+prom+"/api/v1/write", "--metrics-interval", "1s")
	ended := time.Now()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "caps", "step-*.json"))
	if len(files) != 2 {
		t.Fatalf("steps saved: %v", files)
	}
	want := map[string]int64{}
	for _, f := range files {
		var n int
		if _, err := fmt.Sscanf(filepath.Base(f), "step-%02d.json", &n); err != nil {
			t.Fatal(err)
		}
		want["step="+strconv.Itoa(n)+" "] = int64(rawResult(t, f)["totals"].(map[string]any)["scheduled"].(float64))
	}
	if got := measuredReads(t, prom, ended, "step"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads by step: prometheus %v, steps saved %v", got, want)
	}
	if n := len(promQuery(t, prom, `count by (run_id) (readbench_asked_rate)`, ended)); n != 1 {
		t.Errorf("the steps' run ids: %d, want 1", n)
	}
}

// Every run of an ab feeds the same remote write, labelled with its side
// and round: their totals are the kept runs' own.
func TestMetricsAB(t *testing.T) {
	prom := startPrometheus(t, "")
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "ab", "--base", "embedded", "--new", "embedded", "--rounds", "2",
		"--duration", "1s", "--rate", "20/s", "--out", "ab", "-q", "--format", "json",
		"--metrics", "prometheus-rw="+prom+"/api/v1/write", "--metrics-interval", "1s")
	ended := time.Now()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "ab", "base", "round-*.json")) // base/ and new/: the kept runs
	more, _ := filepath.Glob(filepath.Join(dir, "ab", "new", "round-*.json"))
	files = append(files, more...)
	want := map[string]int64{}
	for _, f := range files {
		var round int
		var side string
		if _, err := fmt.Sscanf(filepath.Base(f), "round-%02d-%s", &round, &side); err != nil {
			t.Fatal(err)
		}
		side = side[:len(side)-len(".json")]
		want[fmt.Sprintf("side=%s round=%d ", side, round)] = int64(rawResult(t, f)["totals"].(map[string]any)["scheduled"].(float64))
	}
	if len(want) != 4 {
		t.Fatalf("runs kept: %v (%s)", files, stderr) // an attempt excluded: its retry has the same labels, and another file name
	}
	if got := measuredReads(t, prom, ended, "side", "round"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads by side and round: prometheus %v, runs saved %v", got, want)
	}
}

// serveMetricsWorkload has no warmup: every read the server answers is one
// the result counts.
const serveMetricsWorkload = `name: serve-metrics
seed: 3
load: {rate: 20/s, warmup: 0s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 5s}
mix:
  - {class: md, weight: 1, mime: text/markdown, size: 1KiB}
`

// serve --metrics listen=ADDR exports the simulated server's side: the
// reads it answered are the reads the run says were answered.
func TestServeMetrics(t *testing.T) {
	dir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	url := startServe(t, "--metrics", "listen="+addr)
	out := filepath.Join(dir, "r.json")
	if _, stderr, code := readbench(t, dir, "run", writeWorkload(t, dir, serveMetricsWorkload), "--target", url, "--out", out, "-q"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	outcomes := counts(t, rawResult(t, out)["totals"].(map[string]any), "outcomes")
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	answered := regexp.MustCompile(`(?m)^readbench_sim_answers_total\{code="",outcome="result",server_name="[^"]+",server_version="[^"]+"\} (\d+)$`).FindSubmatch(body)
	if answered == nil {
		t.Fatalf("no answered reads in:\n%s", body)
	}
	if n, _ := strconv.ParseInt(string(answered[1]), 10, 64); n != outcomes["ok"] || n == 0 {
		t.Errorf("the server answered %d reads, the run got %v", n, outcomes)
	}
	for _, want := range []string{"readbench_sim_reads_in_flight{", "readbench_sim_answer_bytes_total{", "readbench_sim_reads_total{",
		`readbench_sim_traces_total{route="header",`, `readbench_sim_traces_total{route="meta",`,
		`readbench_sim_trace_errors_total{reason="invalid",`, `readbench_sim_trace_errors_total{reason="mismatch",`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %s in:\n%s", want, body)
		}
	}
}
