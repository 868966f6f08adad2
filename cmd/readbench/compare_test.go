package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// compareWorkload is short and bounded (40 turns/s of 4 reads for 3 s:
// 480 reads a run) with a 40 ms median delay, large beside the machine's
// own jitter, so a 30% slower server is a clear change and two runs of one
// server are not.
const compareWorkload = `name: compare-e2e
seed: 7
load: {rate: 40/s, warmup: 500ms, duration: 3s}
turn: {attachments: 4, read_timeout: 5s, deadline: 2s}
mix:
  - {class: md, weight: 3, mime: text/markdown, size: 4KiB, delay: "lognormal(40ms, 60ms)"}
  - {class: png, weight: 1, mime: image/png, size: 20KiB, delay: "lognormal(40ms, 60ms)"}
`

// comparison is the part of `compare --format json` the tests read.
type comparison struct {
	Method  string
	Base    struct{ Runs []string }
	New     struct{ Runs []string }
	Latency []struct {
		Block  string
		Deltas []struct {
			Metric string
			Base   float64
			New    float64
			Noise  string
		}
	}
	Content struct {
		Compared int
		Changed  []struct {
			URI  string
			What []string
		}
	}
	Bounds []struct {
		Bound   string
		Pass    bool
		Noise   string
		Verdict string
	}
}

// compareJSON runs compare --format json and decodes it.
func compareJSON(t *testing.T, dir string, args ...string) (comparison, int, string) {
	t.Helper()
	stdout, stderr, code := readbench(t, dir, append([]string{"compare", "--format", "json"}, args...)...)
	var c comparison
	if code != 2 {
		if err := json.Unmarshal([]byte(stdout), &c); err != nil {
			t.Fatalf("compare json: %v\n%s\n%s", err, stdout, stderr)
		}
	}
	return c, code, stderr
}

// TestCompareServers is the release question end to end, against
// `readbench serve` servers: two runs of one server compare within the
// noise and exit 0 under a 10% bound; a server made 30% slower, one run
// against one, is inconclusive (exit 0, saying so) and breaks the bound
// with --single-run (exit 1); a misspelt bound is a usage error (exit 2);
// a server that changed the bytes of one URI is caught; the JUnit
// validates; and compare DIR picks the runs of the workload.
func TestCompareServers(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "w.yaml"), []byte(compareWorkload), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(url, out string) {
		t.Helper()
		if stdout, stderr, code := readbench(t, dir, "run", "w.yaml", "--target", url, "--out", out, "-q"); code != 0 {
			t.Fatalf("run %s: exit %d\n%s\n%s", out, code, stdout, stderr)
		}
	}
	// One run at a time: two runs side by side on a 2-core machine measure
	// each other (a same-server pair once differed 20-fold at p50). base
	// and same stay in that order: compare DIR takes the newest as new. The
	// altered server changes one URI of base (chosen from its digests).
	same := startServe(t)
	run(same, "runs/base.json")
	run(same, "runs/same.json")
	run(startServe(t, "--delay-scale", "1.3"), "slower.json")
	uri := alteredURI(t, dir)
	name := uri[:strings.Index(uri, "?")+1] // "sim:///md-5-2?": this URI only
	run(startServe(t, "--alter-content", name), "altered.json")

	bound := "read.p50=+10%,turn.p50=+10%"
	// One run a side cannot tell: not answered (exit 1) even for the
	// same server; let pass, it exits 0. A figure the same on both sides
	// is held, unchanged (one was, once, on a busy machine: the p50s of
	// both runs equal at the histograms' precision), and no bound is
	// broken or held by a test.
	c, code, stderr := compareJSON(t, dir, "runs/base.json", "runs/same.json", "--fail-on", bound)
	open := 0
	for _, b := range c.Bounds {
		switch {
		case b.Verdict == "inconclusive":
			open++
		case b.Verdict != "pass" || b.Noise != "unchanged":
			t.Errorf("same server, one run a side: %s %s (%s), want not answered or unchanged", b.Bound, b.Verdict, b.Noise)
		}
	}
	if len(c.Bounds) != 2 || open == 0 && code != 0 || open > 0 && (code != 1 || !strings.Contains(stderr, fmt.Sprintf(" %d not answered", open))) {
		t.Errorf("same server: %d bounds, %d not answered, exit %d: %s", len(c.Bounds), open, code, stderr)
	}
	if _, stderr, code := readbench(t, dir, "compare", "runs/base.json", "runs/same.json", "--fail-on", bound, "--fail-on-inconclusive=false"); code != 0 {
		t.Errorf("same server, --fail-on-inconclusive=false: exit %d: %s", code, stderr)
	}
	for _, l := range c.Latency {
		if l.Block != "read" && l.Block != "turn" {
			continue
		}
		for _, d := range l.Deltas {
			if d.Noise == "significant" && (strings.HasSuffix(d.Metric, ".p50") || strings.HasSuffix(d.Metric, ".p90")) {
				t.Errorf("same server: %s %v → %v called significant", d.Metric, d.Base, d.New)
			}
		}
	}

	// One run a side cannot tell: not answered, which fails by default
	// (the views and the exit agree), and passes, loudly, when let.
	c, code, stderr = compareJSON(t, dir, "runs/base.json", "slower.json", "--fail-on", bound)
	if code != 1 || c.Method != "pair" || len(c.Bounds) != 2 || c.Bounds[0].Pass || !strings.Contains(stderr, "2 not answered") {
		t.Errorf("30%% slower server, one run a side: exit %d (want 1: not answered), %+v %s", code, c.Bounds, stderr)
	}
	if _, stderr, code := readbench(t, dir, "compare", "runs/base.json", "slower.json", "--fail-on", bound, "--fail-on-inconclusive=false"); code != 0 {
		t.Errorf("30%% slower server, one run a side, --fail-on-inconclusive=false: exit %d %s", code, stderr)
	}
	c, code, _ = compareJSON(t, dir, "runs/base.json", "slower.json", "--fail-on", bound, "--single-run")
	if code != 1 {
		t.Errorf("30%% slower server, --single-run: exit %d, want 1", code)
	}
	for _, b := range c.Bounds {
		if b.Pass {
			t.Errorf("30%% slower server, --single-run: %s held", b.Bound)
		}
	}
	if _, stderr, code := readbench(t, dir, "compare", "runs/base.json", "slower.json", "--fail-on", bound, "--single-run"); code != 1 || !strings.Contains(stderr, "2 of 2 bounds broken") {
		t.Errorf("table: exit %d, stderr %s", code, stderr)
	}

	for arg, want := range map[string]string{
		"read.p5O=+10%":           `did you mean "read.p50"`,
		"class.mdd.read.p50=+10%": `unknown class "mdd" (did you mean "md"?)`,
		"read.p50=10%":            "want a sign",
	} {
		if _, stderr, code := readbench(t, dir, "compare", "runs/base.json", "slower.json", "--fail-on", arg); code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("--fail-on %s: exit %d, stderr %q, want 2 and %q", arg, code, stderr, want)
		}
	}

	// JUnit: the bounds as test cases, valid against the schema.
	stdout, _, code := readbench(t, dir, "compare", "runs/base.json", "slower.json", "--fail-on", bound, "--single-run", "--format", "junit")
	if code != 1 || !strings.Contains(stdout, `failures="2"`) {
		t.Errorf("junit: exit %d\n%s", code, stdout)
	}
	validateJUnitFile(t, dir, stdout)

	// HTML: the compare page, its overlaid spectra drawn from both results.
	stdout, stderr, code = readbench(t, dir, "compare", "runs/base.json", "slower.json", "--fail-on", bound, "--single-run", "--format", "html")
	if code != 1 || !strings.Contains(stdout, `<figure id="spectrum"`) || !strings.Contains(stdout, `data-series="new read"`) {
		t.Errorf("html: exit %d, %s\n%.300s", code, stderr, stdout)
	}

	// History: runs/ holds base and same; the newest against the one
	// before, the only run of the workload before it.
	stdout, stderr, code = readbench(t, dir, "compare", "runs")
	if code != 0 || !strings.Contains(stdout, "base       runs/base.json") || !strings.Contains(stdout, "new        runs/same.json") {
		t.Errorf("compare runs: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, stderr, code := readbench(t, dir, "compare", "--last", "2"); code != 2 || !strings.Contains(stderr, "not 2") {
		t.Errorf("--last 2 with two runs: exit %d, %s", code, stderr)
	}

	c, code, stderr = compareJSON(t, dir, "runs/base.json", "altered.json", "--fail-on-content-change")
	if code != 1 || len(c.Content.Changed) != 1 || c.Content.Changed[0].URI != uri || strings.Join(c.Content.Changed[0].What, ",") != "bytes" || c.Content.Compared < 400 {
		t.Errorf("altered %s: exit %d, content %+v, %s", name, code, c.Content, stderr)
	}
	stdout, _, code = readbench(t, dir, "compare", "runs/base.json", "altered.json")
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(stdout), " "), uri+": bytes changed") { // lines wrap to the width
		t.Errorf("altered, no flag: exit %d\n%s", code, stdout)
	}
}

// alteredURI is the URI of the base run whose bytes the altered server
// changes: a markdown one when there is one.
func alteredURI(t *testing.T, dir string) string {
	t.Helper()
	var base struct {
		Digests map[string]struct{ SHA256 string }
	}
	data, _ := os.ReadFile(filepath.Join(dir, "runs/base.json"))
	if err := json.Unmarshal(data, &base); err != nil || len(base.Digests) == 0 {
		t.Fatalf("the base run has no digests: %v", err)
	}
	var uri string
	for u := range base.Digests {
		if strings.HasPrefix(u, "sim:///md-5-") {
			uri = u
		}
	}
	if uri == "" {
		for u := range base.Digests {
			uri = u
			break
		}
	}
	return uri
}

// validateJUnitFile validates doc against report/testdata/junit.xsd with
// xmllint.
func validateJUnitFile(t *testing.T, dir, doc string) {
	t.Helper()
	xmllint := needs.Tool(t, "xmllint", "apt-get install libxml2-utils (or make deps)")
	path := filepath.Join(dir, "junit.xml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	schema, _ := filepath.Abs("../../report/testdata/junit.xsd")
	if out, err := exec.Command(xmllint, "--noout", "--schema", schema, path).CombinedOutput(); err != nil {
		t.Errorf("JUnit does not validate: %v\n%s\n%s", err, out, doc)
	}
}

// TestThresholdBrokenExitsAfterSaving: a workload threshold that breaks
// exits 1, after the result is saved with the verdicts under
// "thresholds"; the report prints each pass and fail with its value; a
// misspelt one is refused before the run (exit 2, nothing saved).
func TestThresholdBrokenExitsAfterSaving(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := `name: thresholds-e2e
load: {rate: 20/s, warmup: 0s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 800ms}
mix:
  - {class: md, weight: 1, mime: text/markdown, size: 1KiB, delay: 5ms}
thresholds: {read.p50: "<1us", errors: "<1%"}
`
	if err := os.WriteFile(filepath.Join(dir, "w.yaml"), []byte(w), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := readbench(t, dir, "run", "w.yaml", "--out", "r.json", "--threshold", "rate>1/s")
	if code != 1 || !strings.Contains(stderr, "1 of 3 thresholds broken: read.p50<1us (measured") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"FAIL  read.p50<1us", "PASS  errors<1%", "PASS  rate>1/s", "measured 20.0/s"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	var r struct {
		Thresholds []struct {
			Bound    string
			Measured float64
			Pass     bool
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatalf("the result was not saved: %v", err)
	}
	if err := json.Unmarshal(data, &r); err != nil || len(r.Thresholds) != 3 || r.Thresholds[1].Bound != "read.p50<1us" || r.Thresholds[1].Pass || r.Thresholds[1].Measured < 5 {
		t.Errorf("thresholds saved: %+v, %v", r.Thresholds, err)
	}
	stdout, _, code = readbench(t, dir, "report", "r.json", "--format", "junit")
	// three thresholds and the run's health, which passes: the thresholds decide
	if code != 0 || !strings.Contains(stdout, `tests="4" failures="1"`) || !strings.Contains(stdout, `<testcase name="health"`) {
		t.Errorf("report --format junit: exit %d\n%s", code, stdout)
	}
	validateJUnitFile(t, dir, stdout)

	_, stderr, code = readbench(t, dir, "run", "w.yaml", "--out", "bad.json", "--threshold", "turn.p99<8OOms")
	if code != 2 || !strings.Contains(stderr, "column 10") {
		t.Errorf("misspelt threshold: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.json")); err == nil {
		t.Errorf("a refused threshold still ran")
	}
}
