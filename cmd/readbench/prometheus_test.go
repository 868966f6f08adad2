package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
)

// A real Prometheus for the metrics tests: Debian's prometheus package
// (make deps installs it), on 127.0.0.1 with a temporary storage folder
// and the remote-write receiver on.

// freePort returns a port on 127.0.0.1 nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startPrometheus starts Prometheus and returns its base URL; scrape, when
// not "", is a host:port it scrapes every second.
func startPrometheus(t *testing.T, scrape string) string {
	t.Helper()
	bin := needs.Tool(t, "prometheus", "make deps (apt-get install prometheus)")
	dir := t.TempDir()
	config := "global:\n  scrape_interval: 1s\n"
	if scrape != "" {
		config += fmt.Sprintf("scrape_configs:\n  - job_name: readbench\n    scrape_interval: 1s\n    scrape_timeout: 900ms\n    static_configs:\n      - targets: [%q]\n", scrape)
	}
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--web.enable-remote-write-receiver", "--enable-feature=native-histograms")
	log, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		log.Close()
		if t.Failed() {
			b, _ := os.ReadFile(log.Name())
			t.Logf("prometheus log:\n%s", b)
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && (scrape == "" || len(promQuery(t, base, "up", time.Now())) > 0) {
				return base // and, with a scrape target, its scrape loop has begun (some seconds after the start)
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("prometheus not ready after 30s")
		}
	}
}

// sample is one element of an instant vector.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// float is the sample's value.
func (s sample) float(t *testing.T) float64 {
	t.Helper()
	str, _ := s.Value[1].(string)
	v, err := strconv.ParseFloat(str, 64)
	if err != nil {
		t.Fatalf("value %v: %v", s.Value, err)
	}
	return v
}

// promQuery evaluates expr at the moment at.
func promQuery(t *testing.T, base, expr string, at time.Time) []sample {
	t.Helper()
	q := url.Values{"query": {expr}, "time": {strconv.FormatFloat(float64(at.UnixNano())/1e9, 'f', 3, 64)}}
	resp, err := http.Get(base + "/api/v1/query?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []sample `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if body.Status != "success" {
		t.Fatalf("%s: %s", expr, body.Error)
	}
	return body.Data.Result
}

// byLabel maps each sample's label l to its value.
func byLabel(t *testing.T, samples []sample, l string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	for _, s := range samples {
		m[s.Metric[l]] = int64(s.float(t))
	}
	return m
}
