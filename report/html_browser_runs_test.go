package report

import (
	"bytes"
	"context"
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

var (
	domRunsFigureRE = regexp.MustCompile(`(?s)<figure id="runs-[^"]*" data-chart="runs" data-metric="([^"]+)" data-base="([^"]*)" data-new="([^"]*)" data-change="([^"]*)">(.*?)</figure>`)
	domMedianRE     = regexp.MustCompile(`<text [^>]*class="dot-median" data-side="(base|new)">([^<]*)</text>`)
	domDotRE        = regexp.MustCompile(`<circle [^>]*data-side="(base|new)" data-run="([^"]*)" data-value="([^"]*)"`)
	domRowRE        = regexp.MustCompile(`(?s)<tr data-metric="([^"]+)"[^>]*>(.*?)</tr>`)
	domCellRE       = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	domBarRE        = regexp.MustCompile(`<rect class="bar" data-series="(base|new) (p50|p99)"[^>]*><title>([^<]*) (?:base|new) p(?:50|99): ([^<]*)</title>`)
)

// TestBrowserCompareChartsAgreeWithTables loads the compare page of three
// runs a side in headless Chromium and reads, in the DOM the browser
// built, what the charts draw: each per-run dot plot's medians and its
// change are the deltas table's cells for that metric, its dots are every
// run of each side, every gated figure has a plot, and the per-class bars
// are the table's per-class medians, not the newest run's figures.
func TestBrowserCompareChartsAgreeWithTables(t *testing.T) {
	chromium := needs.Tool(t, "chromium", installChromium)
	base, nw, c := compareRunsFixture(t, 3, 1.3)
	var page bytes.Buffer
	if err := CompareHTML(&page, c, base, nw); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "compare.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := testproc.Own(t, exec.CommandContext(ctx, chromium, append(browserArgs(filepath.Join(dir, "dom")), "--dump-dom", "file://"+file)...)).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	dom := string(out)
	rows := map[string][]string{} // metric: label, base, new, change, noise
	for _, m := range domRowRE.FindAllStringSubmatch(dom, -1) {
		var cells []string
		for _, cm := range domCellRE.FindAllStringSubmatch(m[2], -1) {
			cells = append(cells, cm[1])
		}
		rows[m[1]] = cells
	}
	figures := domRunsFigureRE.FindAllStringSubmatch(dom, -1)
	drawn := map[string]bool{}
	for _, f := range figures {
		metric, fb, fn, fc, body := f[1], f[2], f[3], f[4], f[5]
		drawn[metric] = true
		row, ok := rows[metric]
		if !ok || len(row) < 4 {
			t.Errorf("%s: drawn but no table row", metric)
			continue
		}
		if fb != row[1] || fn != row[2] || fc != row[3] {
			t.Errorf("%s: the chart says %s -> %s (%s), the table %s -> %s (%s)", metric, fb, fn, fc, row[1], row[2], row[3])
		}
		med := map[string]string{}
		for _, m := range domMedianRE.FindAllStringSubmatch(body, -1) {
			med[m[1]] = m[2]
		}
		if med["base"] != row[1] || med["new"] != row[2] {
			t.Errorf("%s: the medians drawn %v, the table %s and %s", metric, med, row[1], row[2])
		}
		dots := map[string]int{}
		for _, m := range domDotRE.FindAllStringSubmatch(body, -1) {
			dots[m[1]]++
		}
		if dots["base"] != len(base) || dots["new"] != len(nw) {
			t.Errorf("%s: %v dots, want a dot for each of %d and %d runs", metric, dots, len(base), len(nw))
		}
	}
	for _, b := range c.Bounds {
		if d, ok := c.Find(b.Metric); !ok || len(d.BaseRuns) == 0 {
			if _, ok := rows[b.Metric]; !ok { // an outcome no run saw: 0 in every run, a row of its own
				t.Errorf("gated %s, in no run: no table row", b.Metric)
			}
			continue
		}
		if !drawn[b.Metric] {
			t.Errorf("gated %s: no chart of its runs", b.Metric)
		}
	}
	if len(figures) < len(c.Bounds) {
		t.Errorf("%d per-run charts for %d bounds", len(figures), len(c.Bounds))
	}
	bars := 0
	for _, m := range domBarRE.FindAllStringSubmatch(dom, -1) {
		side, stat, class, v := m[1], m[2], m[3], m[4]
		row, ok := rows["class."+class+".read."+stat]
		if !ok {
			continue // a turn size's bars
		}
		bars++
		cell := row[1]
		if side == "new" {
			cell = row[2]
		}
		if strings.TrimSuffix(cell, "ms") != v {
			t.Errorf("class %s %s %s: the bar says %s, the table %s", class, side, stat, v, cell)
		}
	}
	if bars == 0 {
		t.Error("no per-class bar read from the page")
	}
}
