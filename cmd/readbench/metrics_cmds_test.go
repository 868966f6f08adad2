package main

import (
	"fmt"
	"path/filepath"
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
