// Package promtest is a real Prometheus for tests: Debian's prometheus
// package (make deps installs it) on a free port of 127.0.0.1, its
// storage in the test's temporary folder, the remote-write receiver on,
// killed when the test ends (its log printed when the test failed). A
// test on a machine without it is skipped, and fails in CI
// (internal/needs). Test code only: nothing outside _test.go files
// imports it.
package promtest

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
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// Options say what the Prometheus started does beyond receiving remote
// writes.
type Options struct {
	// Scrape, when not "", is a host:port whose /metrics it scrapes every
	// second; Start returns once its scrape loop has begun.
	Scrape string
	// Features are its --enable-feature names ("native-histograms",
	// "exemplar-storage").
	Features []string
}

// Start starts Prometheus and returns its base URL.
func Start(t *testing.T, o Options) string {
	t.Helper()
	bin := needs.Tool(t, "prometheus", "make deps (apt-get install prometheus)")
	dir := t.TempDir()
	config := "global:\n  scrape_interval: 1s\n"
	if o.Scrape != "" {
		config += fmt.Sprintf("scrape_configs:\n  - job_name: readbench\n    scrape_interval: 1s\n    scrape_timeout: 900ms\n    static_configs:\n      - targets: [%q]\n", o.Scrape)
	}
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(FreePort(t))
	args := []string{"--config.file=" + cfg, "--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr, "--web.enable-remote-write-receiver"}
	if len(o.Features) > 0 {
		args = append(args, "--enable-feature="+strings.Join(o.Features, ","))
	}
	cmd := testproc.Own(t, exec.Command(bin, args...))
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
			if resp.StatusCode == http.StatusOK && (o.Scrape == "" || scraping(base)) {
				return base // and, with a scrape target, its scrape loop has begun (some seconds after the start)
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("prometheus not ready after 30s")
		}
	}
}

// scraping reports whether the scrape loop has recorded its first up.
func scraping(base string) bool {
	var data struct {
		Result []json.RawMessage `json:"result"`
	}
	err := Get(base, "/api/v1/query", url.Values{"query": {"up"}}, &data)
	return err == nil && len(data.Result) > 0
}

// Get calls one of the HTTP API's endpoints (path, e.g.
// "/api/v1/query_exemplars") and decodes its data into v.
func Get(base, path string, q url.Values, v any) error {
	resp, err := http.Get(base + path + "?" + q.Encode())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if body.Status != "success" {
		return fmt.Errorf("%s %s: %s", path, q.Encode(), body.Error)
	}
	if err := json.Unmarshal(body.Data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// FreePort returns a port on 127.0.0.1 nothing listens on now.
func FreePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
