package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// chromiumArgs run Chromium headless, offline and without touching the
// user's profile: the report must render from the file alone.
func chromiumArgs(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile}
}

// figureRE finds each chart: its id, kind and contents; sectionRE each
// section of the page.
var (
	figureRE  = regexp.MustCompile(`(?s)<figure id="([^"]+)" data-chart="([^"]+)">(.*?)</figure>`)
	sectionRE = regexp.MustCompile(`data-section="([^"]+)"`)
)

// TestBrowserHTMLReport renders the HTML report of a real short run in
// headless Chromium and checks, in the DOM the browser built, that every
// section the table report has is there and every chart was drawn with
// marks and labelled axes. With READBENCH_SCREENS_DIR set (never in CI)
// the screenshot is also copied there as report-run.png, for a person to
// look at.
func TestBrowserHTMLReport(t *testing.T) {
	t.Parallel()
	chromium := needs.Tool(t, "chromium", installChromium)
	dir := t.TempDir()
	if _, stderr, code := readbench(t, dir, "run", "--duration", "2s", "--quiet", "--out", "r.json"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if _, stderr, code := readbench(t, dir, "report", "r.json", "--format", "html", "--out", "r.html"); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	var saved struct {
		Timeline []json.RawMessage `json:"timeline"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	page := "file://" + filepath.Join(dir, "r.html")
	args := append(chromiumArgs(filepath.Join(dir, "profile")), "--dump-dom", page)
	out, err := testproc.Own(t, exec.CommandContext(ctx, chromium, args...)).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	dom := string(out)
	kinds := map[string]bool{}
	for _, m := range figureRE.FindAllStringSubmatch(dom, -1) {
		id, kind, body := m[1], m[2], m[3]
		kinds[kind] = true
		if strings.Contains(body, `<p class="empty">`) && !strings.HasPrefix(kind, "timeline-") {
			continue // says in words that there is nothing to draw
		}
		timeline := strings.HasPrefix(kind, "timeline-")
		if timeline && len(saved.Timeline) == 0 {
			if !strings.Contains(body, "No per-second timeline") {
				t.Errorf("%s: the result has no timeline and the page does not say so", id)
			}
			continue
		}
		marks := strings.Count(body, `<path class="series"`) + strings.Count(body, `<rect class="bar"`)
		labels := strings.Count(body, `class="axis-label"`)
		if marks == 0 || labels != 2 || !strings.Contains(body, "<figcaption>") {
			t.Errorf("%s (%s): %d marks, %d axis labels: not drawn", id, kind, marks, labels)
		}
	}
	for _, k := range []string{"percentile-spectrum", "timeline-rate", "timeline-latency", "class-latency", "inflation"} {
		if !kinds[k] {
			t.Errorf("no %s chart in the rendered page", k)
		}
	}
	sections := map[string]int{}
	for _, m := range sectionRE.FindAllStringSubmatch(dom, -1) {
		sections[m[1]]++
	}
	for _, k := range []string{"latency", "spectrum", "timeline", "bytes", "turn-sizes", "outcomes",
		"cancellation", "cache", "server-cost", "advice"} {
		if sections[k] != 1 {
			t.Errorf("section %s rendered %d times", k, sections[k])
		}
	}
	for _, want := range []string{"90%", "percentile (log scale", "turns/s", "share of wire bytes", "identity ok",
		"cancelled", "server"} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
	shot := filepath.Join(dir, "r.png")
	args = append(chromiumArgs(filepath.Join(dir, "profile2")), "--hide-scrollbars", "--window-size=1400,4200", "--screenshot="+shot, page)
	if out, err := testproc.Own(t, exec.CommandContext(ctx, chromium, args...)).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10_000 {
		t.Errorf("screenshot missing or blank: %v", err)
	}
	if keep := os.Getenv("READBENCH_SCREENS_DIR"); keep != "" {
		png, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(filepath.Join(keep, "report-run.png"), png, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
}
