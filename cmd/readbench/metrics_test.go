package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/metrics"
)

// metricsRun runs the default scenario for a few seconds with extra
// flags and returns the result, its stderr and the moment it exited.
func metricsRun(t *testing.T, c *contention, args ...string) (map[string]any, string, time.Time) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	_, stderr, code := readbench(t, dir, append([]string{"run", "--duration", "3s", "--rate", "40/s", "--out", out, "-q"}, args...)...)
	ended := time.Now()
	return exitOnBusy(t, c, code, stderr, out), stderr, ended
}

// counts reads a map of counts under key in m.
func counts(t *testing.T, m map[string]any, key string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for k, v := range m[key].(map[string]any) {
		out[k] = int64(v.(float64))
	}
	return out
}

// checkAgainstResult compares Prometheus's view of the run, at the moment
// the run ended, with its result file: totals exactly, the read p99
// within one bucket, and every dashboard query returns data.
func checkAgainstResult(t *testing.T, prom string, res map[string]any, at time.Time) {
	t.Helper()
	totals := res["totals"].(map[string]any)
	wantOutcomes, wantEnds := counts(t, totals, "outcomes"), counts(t, totals, "turn_ends")
	gotOutcomes := byLabel(t, promQuery(t, prom, `sum by (outcome) (readbench_reads_total{phase="measured"})`, at), "outcome")
	if fmt.Sprint(gotOutcomes) != fmt.Sprint(wantOutcomes) {
		t.Errorf("reads by outcome: prometheus %v, result %v", gotOutcomes, wantOutcomes)
	}
	gotEnds := byLabel(t, promQuery(t, prom, `sum by (end) (readbench_turns_total{phase="measured"})`, at), "end")
	if fmt.Sprint(gotEnds) != fmt.Sprint(wantEnds) {
		t.Errorf("turns by end: prometheus %v, result %v", gotEnds, wantEnds)
	}
	if n := byLabel(t, promQuery(t, prom, `sum(readbench_reads_total{phase="measured"})`, at), ""); n[""] != int64(totals["scheduled"].(float64)) || n[""] == 0 {
		t.Errorf("reads: prometheus %d, result %v", n[""], totals["scheduled"])
	}
	p99 := promQuery(t, prom, `histogram_quantile(0.99, sum by (le) (readbench_read_latency_seconds_bucket{phase="measured"}))`, at)
	want := res["read"].(map[string]any)["p99_ms"].(float64) / 1e3
	if len(p99) != 1 {
		t.Fatalf("read p99: %v", p99)
	}
	if got := p99[0].float(t); math.Abs(float64(bucketOf(got)-bucketOf(want))) > 1 {
		t.Errorf("read p99: prometheus %.4fs (bucket %d), result %.4fs (bucket %d)", got, bucketOf(got), want, bucketOf(want))
	}
	runID := promQuery(t, prom, `count by (run_id) (readbench_reads_total)`, at)
	if len(runID) != 1 {
		t.Fatalf("run ids: %v", runID)
	}
	for _, expr := range dashboardExprs(t) {
		e := strings.NewReplacer("$run_id", regexp.QuoteMeta(runID[0].Metric["run_id"]), "$workload", ".*", "$__rate_interval", "1m").Replace(expr)
		if len(promQuery(t, prom, e, at)) == 0 {
			t.Errorf("dashboard query returns no data: %s", e)
		}
	}
}

// bucketOf is the index of the default bucket v falls in.
func bucketOf(v float64) int {
	return sort.SearchFloat64s(metrics.DefaultBuckets, v)
}

// dashboardExprs are the PromQL expressions of the Grafana dashboard.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../deploy/grafana/readbench.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	if len(exprs) < 8 {
		t.Fatalf("dashboard has %d queries", len(exprs))
	}
	return exprs
}

func TestMetricsRemoteWrite(t *testing.T) {
	prom := startPrometheus(t, "")
	res, stderr, ended := metricsRun(t, watchMachine(), "--metrics", "prometheus-rw="+prom+"/api/v1/write", "--metrics-interval", "1s", "--metrics-native")
	if strings.Contains(stderr, "not delivered") || fmt.Sprint(res["metrics"]) != "map[undelivered_samples:0]" {
		t.Errorf("metrics %v, stderr: %s", res["metrics"], stderr)
	}
	checkAgainstResult(t, prom, res, ended)
	// The native histograms arrived too: histogram_quantile reads them.
	if got := promQuery(t, prom, `histogram_quantile(0.99, sum(readbench_read_latency_seconds{phase="measured"}))`, ended); len(got) != 1 || math.IsNaN(got[0].float(t)) {
		t.Errorf("native read p99: %v", got)
	}
}

func TestMetricsScrape(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	prom := startPrometheus(t, addr)
	res, _, ended := metricsRun(t, watchMachine(), "--metrics", "listen="+addr, "--metrics-linger", "10s")
	checkAgainstResult(t, prom, res, ended)
}

// A dead remote-write endpoint changes nothing in the run: the same
// outcomes as a run without metrics, exit 0, and the lost samples said.
// On a contended machine the two runs' reads may end differently (late
// turns cancelled, dropped or timed out, and exit 1 when most failed):
// then no read of the dead endpoint's run may fail in a way the machine
// does not explain.
func TestMetricsEndpointDown(t *testing.T) {
	c := watchMachine()
	plain, _, _ := metricsRun(t, c)
	dead := fmt.Sprintf("http://127.0.0.1:%d/api/v1/write", freePort(t))
	res, stderr, _ := metricsRun(t, c, "--metrics", "prometheus-rw="+dead, "--metrics-interval", "500ms")
	if got, want := counts(t, res["totals"].(map[string]any), "outcomes"), counts(t, plain["totals"].(map[string]any), "outcomes"); fmt.Sprint(got) != fmt.Sprint(want) {
		var unexplained int64
		for k, n := range got {
			if k != "ok" && k != "expected_error" && k != "cancelled" && k != "dropped" && k != "timeout" {
				unexplained += n
			}
		}
		switch {
		case !c.Busy():
			t.Errorf("outcomes with a dead endpoint %v, without metrics %v (%s)", got, want, c)
		case unexplained > 0:
			t.Errorf("outcomes with a dead endpoint %v, without metrics %v: %d reads failed in a way a busy machine does not explain (%s)", got, want, unexplained, c)
		default:
			t.Logf("outcomes with a dead endpoint %v, without metrics %v: the machine's (%s)", got, want, c)
		}
	}
	said := regexp.MustCompile(`metrics: (\d+) of \d+ samples not delivered to ` + regexp.QuoteMeta(dead)).FindStringSubmatch(stderr)
	if said == nil {
		t.Fatalf("stderr does not say the samples were lost: %q", stderr)
	}
	// The result says it too; a run without --metrics has no metrics key.
	if m, ok := res["metrics"].(map[string]any); !ok || fmt.Sprint(m["undelivered_samples"]) != said[1] {
		t.Errorf("result's metrics %v, stderr says %s samples not delivered", res["metrics"], said[1])
	}
	if m, ok := plain["metrics"]; !ok || m != nil {
		t.Errorf("a run without --metrics: metrics %v (present %v), want null", m, ok)
	}
}
