package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
	"github.com/readbench/readbench/results"
)

// ScreensEnv names the environment variable of a directory where the
// browser test also copies its screenshots, for a person to look at;
// unset (as in CI), the screenshots stay in the test's temporary
// directory.
const screensEnv = "READBENCH_SCREENS_DIR"

// installChromium is how a machine gets the browser the test drives.
const installChromium = "make deps (it runs apt-get install chromium)"

// browserArgs run Chromium headless, offline and without touching the
// user's profile: the page must render from the file alone.
func browserArgs(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile}
}

var (
	domFigureRE  = regexp.MustCompile(`(?s)<figure id="([^"]+)" data-chart="([^"]+)">(.*?)</figure>`)
	domSectionRE = regexp.MustCompile(`data-section="([^"]+)"`)
)

// TestBrowserHTMLPages renders the result page and the compare page in
// headless Chromium and checks, in the DOM the browser built, that every
// section is there and every chart was drawn with marks and labelled
// axes; then it screenshots both pages.
func TestBrowserHTMLPages(t *testing.T) {
	chromium := needs.Tool(t, "chromium", installChromium)
	dir := t.TempDir()
	base, nw, c := comparePair(t, 1.3)
	var rp, cp, kp bytes.Buffer
	if err := WriteHTML(&rp, []*results.Result{everything(t)}); err != nil {
		t.Fatal(err)
	}
	if err := CapacityHTML(&kp, capacityFixture()); err != nil {
		t.Fatal(err)
	}
	if err := CompareHTML(&cp, c, oneRun(base), oneRun(nw)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name     string
		page     []byte
		sections []string
		height   int
		charts   int
	}{{"report", rp.Bytes(), append(slices.Clone(resultSectionKinds), "subscriptions"), 6000, 7}, {"compare", cp.Bytes(), compareSectionKinds, 7600, 6},
		{"capacity", kp.Bytes(), []string{"summary", "latency", "steps"}, 1400, 1}} {
		t.Run(p.name, func(t *testing.T) {
			file := filepath.Join(dir, p.name+".html")
			if err := os.WriteFile(file, p.page, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			url := "file://" + file
			out, err := testproc.Own(t, exec.CommandContext(ctx, chromium, append(browserArgs(filepath.Join(dir, p.name+"-dom")), "--dump-dom", url)...)).Output()
			if err != nil {
				t.Fatalf("chromium --dump-dom: %v", err)
			}
			dom := string(out)
			checkDOM(t, dom, p.sections, p.charts)
			shot := filepath.Join(dir, p.name+".png")
			args := append(browserArgs(filepath.Join(dir, p.name+"-shot")), "--hide-scrollbars",
				"--window-size=1400,"+strconv.Itoa(p.height), "--screenshot="+shot, url)
			if out, err := testproc.Own(t, exec.CommandContext(ctx, chromium, args...)).CombinedOutput(); err != nil {
				t.Fatalf("chromium --screenshot: %v\n%s", err, out)
			}
			png, err := os.ReadFile(shot)
			if err != nil || len(png) < 50_000 {
				t.Fatalf("screenshot missing or blank (%d bytes): %v", len(png), err)
			}
			if keep := os.Getenv(screensEnv); keep != "" {
				if err := os.WriteFile(filepath.Join(keep, p.name+".png"), png, 0o644); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// checkDOM checks the rendered page: each section kind once, every chart
// with marks and two axis labels (or the note of an empty one), no
// script; at least minCharts charts.
func checkDOM(t *testing.T, dom string, kinds []string, minCharts int) {
	t.Helper()
	seen := map[string]int{}
	for _, m := range domSectionRE.FindAllStringSubmatch(dom, -1) {
		seen[m[1]]++
	}
	for _, k := range kinds {
		if seen[k] != 1 {
			t.Errorf("section %s rendered %d times", k, seen[k])
		}
	}
	figures := domFigureRE.FindAllStringSubmatch(dom, -1)
	if len(figures) < minCharts {
		t.Errorf("%d charts rendered", len(figures))
	}
	for _, m := range figures {
		id, kind, body := m[1], m[2], m[3]
		if strings.Contains(body, `<p class="empty">`) {
			continue // says in words that there is nothing to draw
		}
		marks := strings.Count(body, `<path class="series"`) + strings.Count(body, `<rect class="bar"`)
		labels := strings.Count(body, `class="axis-label"`)
		if marks == 0 || labels != 2 || !strings.Contains(body, "<figcaption>") {
			t.Errorf("%s (%s): %d marks, %d axis labels: not drawn", id, kind, marks, labels)
		}
	}
	if strings.Contains(dom, "<script") {
		t.Error("the rendered page has a script")
	}
}
