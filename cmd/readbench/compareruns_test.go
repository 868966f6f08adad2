package main

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeRuns writes k copies of the results fixture under dir/sub, the
// i-th started i minutes after start, their read and turn latency
// figures scaled by scale and a run-to-run factor (cycling through
// spread), so that compare's tests across runs have runs to test.
func writeRuns(t *testing.T, dir, sub, prefix string, k int, start time.Time, scale float64, spread []float64) []string {
	t.Helper()
	data, err := os.ReadFile("../../results/testdata/result.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range k {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		f := scale * spread[i%len(spread)]
		for _, block := range []string{"read", "read_ok", "turn"} {
			b := doc[block].(map[string]any)
			for _, stat := range []string{"p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "mean_ms"} {
				b[stat] = math.Round(b[stat].(float64)*f*1000) / 1000
			}
		}
		doc["started"] = start.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000Z")
		out, _ := json.Marshal(doc)
		p := filepath.Join(sub, fmt.Sprintf("%s%02d.json", prefix, i))
		if err := os.WriteFile(filepath.Join(dir, p), out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestCompareRuns: compare takes several results per side (folders,
// quoted globs, --base/--new) and gates on the test across runs: 5 runs
// of one server against 5 more exit 0 under read.p50=+10%, 5 runs 30%
// slower exit 1; 3 per side say they need 4 and pass; history holds the
// newest run against up to 10 before it; one pair passes, saying it
// cannot tell, unless --single-run or --fail-on-inconclusive. Every
// format renders a comparison of runs.
func TestCompareRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	spread := []float64{1, 1.04, 0.97, 1.02, 0.99, 1.05, 0.96}
	writeRuns(t, dir, "base", "a", 5, t0, 1, spread)
	writeRuns(t, dir, "same", "b", 5, t0.Add(time.Hour), 1, spread[2:])
	writeRuns(t, dir, "slower", "c", 5, t0.Add(2*time.Hour), 1.3, spread[1:])
	bound := "read.p50=+10%"

	c, code, stderr := compareJSON(t, dir, "base", "same", "--fail-on", bound)
	if code != 0 || !c.Bounds[0].Pass {
		t.Errorf("5 runs against 5 of one server: exit %d %+v %s", code, c.Bounds, stderr)
	}
	c, code, stderr = compareJSON(t, dir, "base", "slower/c*.json", "--fail-on", bound)
	if code != 1 || c.Bounds[0].Pass || c.Method != "runs" || len(c.New.Runs) != 5 {
		t.Errorf("5 runs against 5 of a 30%% slower server: exit %d, method %q, %+v %s", code, c.Method, c.Bounds, stderr)
	}
	if _, _, code := readbench(t, dir, "compare", "--base", "base/a00.json,base/a01.json", "--base", "base/a02.json,base/a03.json",
		"--new", "slower", "--fail-on", bound); code != 1 {
		t.Errorf("--base/--new: exit %d", code)
	}
	// Too few runs to tell: not answered, exit 1 and the first line says
	// so; --fail-on-inconclusive=false lets it pass.
	stdout, _, code := readbench(t, dir, "compare", "base/a0[0-2].json", "slower/c0[0-2].json", "--fail-on", bound)
	if code != 1 || !strings.Contains(stdout, "~ need at least 4 runs per side") || !strings.HasPrefix(strings.SplitN(stdout, "\n", 3)[1], "! the regression question was not answered") {
		t.Errorf("3 runs per side: exit %d\n%s", code, stdout)
	}
	if _, _, code := readbench(t, dir, "compare", "base/a0[0-2].json", "slower/c0[0-2].json", "--fail-on", bound, "--fail-on-inconclusive=false"); code != 0 {
		t.Errorf("3 runs per side, --fail-on-inconclusive=false: exit %d", code)
	}

	// One pair: no verdict, unless asked for the raw bound.
	stdout, _, code = readbench(t, dir, "compare", "base/a00.json", "slower/c00.json", "--fail-on", bound)
	if code != 1 || !strings.Contains(stdout, "one run per side cannot separate the server from the machine") {
		t.Errorf("one pair: exit %d\n%s", code, stdout)
	}
	if _, stderr, code := readbench(t, dir, "compare", "base/a00.json", "slower/c00.json", "--fail-on", bound, "--single-run"); code != 1 || !strings.Contains(stderr, "1 of 1 bounds broken") {
		t.Errorf("one pair, --single-run: exit %d %s", code, stderr)
	}

	// History: the newest run of the folder against the runs before it.
	hist := filepath.Join(dir, "hist")
	writeRuns(t, hist, "runs", "a", 7, t0, 1, spread)
	writeRuns(t, hist, "runs", "z", 1, t0.Add(time.Hour), 1.3, spread)
	c, code, _ = compareJSON(t, hist, "runs", "--fail-on", bound)
	if code != 1 || c.Method != "history" || len(c.Base.Runs) != 7 {
		t.Errorf("history, 30%% slower newest: exit %d, method %q, base %v", code, c.Method, c.Base.Runs)
	}
	c, _, _ = compareJSON(t, hist, "runs", "--history", "3")
	if len(c.Base.Runs) != 3 || c.Base.Runs[0] != "runs/a04.json" {
		t.Errorf("--history 3: base %v", c.Base.Runs)
	}

	for _, format := range []string{"table", "markdown", "junit", "html"} {
		stdout, stderr, code := readbench(t, dir, "compare", "base", "slower", "--fail-on", bound, "--format", format)
		if code != 1 || !strings.Contains(stdout, "Mann-Whitney U") && format != "junit" {
			t.Errorf("--format %s: exit %d %s\n%.400s", format, code, stderr, stdout)
		}
	}
	if _, stderr, code := readbench(t, dir, "compare", "base", "slower", "same"); code != 2 || !strings.Contains(stderr, "quoted glob") {
		t.Errorf("three sides: exit %d %s", code, stderr)
	}
}

// TestCompareNoisyRunsNotAnswered: 5 runs of a 30% slower server against
// 5 of the base on a saturated machine (runs spread ×0.6 to ×1.6, CPU
// pressure 0.99): the medians break two bounds but the U test cannot tell
// (p ≈ 0.4). It used to print "✓ no regression: all bounds held" and exit
// 0 even with --fail-on-inconclusive; now every view leads with "not
// answered", names the CPU pressure, the JUnit suite is red, and the exit
// is 1 — 0 only with --fail-on-inconclusive=false.
func TestCompareNoisyRunsNotAnswered(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	paths := append(writeRuns(t, dir, "base", "a", 5, t0, 1, []float64{1, 1.6, 0.6, 1.3, 0.8}),
		writeRuns(t, dir, "new", "b", 5, t0.Add(time.Hour), 1.3, []float64{0.6, 1.2, 0.7, 1.5, 0.9})...)
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		doc["host"].(map[string]any)["cpu_pressure"] = 0.99
		out, _ := json.Marshal(doc)
		if err := os.WriteFile(filepath.Join(dir, p), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const bound = "read.p50=+10%,turn.p50=+10%,errors=+0.5pp"
	c, code, stderr := compareJSON(t, dir, "base", "new", "--fail-on", bound, "--fail-on-inconclusive")
	if code != 1 || c.Bounds[0].Pass || !strings.Contains(stderr, "2 not answered") {
		t.Errorf("json: exit %d, %+v\n%s", code, c.Bounds, stderr)
	}
	for _, format := range []string{"table", "markdown", "junit", "html"} {
		stdout, _, code := readbench(t, dir, "compare", "base", "new", "--fail-on", bound, "--format", format)
		text := strings.Join(strings.Fields(html.UnescapeString(stdout)), " ") // the table wraps its lines; the page escapes "+"
		if code != 1 || !strings.Contains(text, "the regression question was not answered: read.p50=+10%, turn.p50=+10% could not be told apart from the noise") ||
			!strings.Contains(text, "the CPU was contended 99% of the time") || strings.Contains(stdout, "no regression") {
			t.Errorf("--format %s: exit %d\n%.1500s", format, code, stdout)
		}
		if format == "junit" && !strings.Contains(stdout, `type="not answered"`) {
			t.Errorf("junit: the open question is no failure\n%s", stdout)
		}
	}
	if _, stderr, code := readbench(t, dir, "compare", "base", "new", "--fail-on", bound, "--fail-on-inconclusive=false"); code != 0 {
		t.Errorf("--fail-on-inconclusive=false: exit %d %s", code, stderr)
	}
}
