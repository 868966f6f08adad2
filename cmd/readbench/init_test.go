package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/workload"
)

// TestInitThenRun: init discovers `readbench serve`, writes a workload
// that parses, and that workload runs with only ok outcomes: its classes
// are resolved from the server's catalog, not synthesized.
func TestInitThenRun(t *testing.T) {
	url := startServe(t)
	dir := t.TempDir()
	stdout, stderr, code := readbench(t, dir, "init", "--target", url)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s", code, stderr)
	}
	w, err := workload.Parse("init.yaml", []byte(stdout))
	if err != nil {
		t.Fatalf("init's workload does not parse: %v\n%s", err, stdout)
	}
	if w.Target.Address != url || len(w.Mix) < 5 || w.Turn.Deadline.String() != "800ms" || w.Turn.ReadTimeout.String() != "5s" || w.Load.Model != "open" {
		t.Errorf("workload %+v", w)
	}
	for _, c := range w.Mix {
		if c.MIME == "" || c.SizeRange == nil || c.Weight <= 0 {
			t.Errorf("class %+v: want a mime, a size range and a weight", c)
		}
	}
	for _, want := range []string{"#   template: \"sim:///{name}?mime={mime}&size={size}\"", "#   expect: not_found", "readbench-simserver"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("workload lacks %q:\n%s", want, stdout)
		}
	}
	path := filepath.Join(dir, "init.yaml")
	if err := os.WriteFile(path, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = readbench(t, dir, "run", path, "--duration", "1s", "--out", "r.json")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	for name, n := range r.Totals.Outcomes {
		if n > 0 && name != "ok" {
			t.Errorf("%d reads ended %s: %v", n, name, r.Totals.Outcomes)
		}
	}
	if r.Totals.Outcomes["ok"] < 10 {
		t.Errorf("only %d ok reads", r.Totals.Outcomes["ok"])
	}
}

func TestInitOutAndExitCodes(t *testing.T) {
	url := startServe(t)
	dir := t.TempDir()
	if _, stderr, code := readbench(t, dir, "init", "--target", url, "--out", "w.yaml"); code != 0 || !strings.Contains(stderr, "wrote w.yaml") {
		t.Fatalf("init --out: exit %d: %s", code, stderr)
	}
	if _, err := workload.LoadFile(filepath.Join(dir, "w.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"init"}, 2, "--target is required"},
		{[]string{"init", "--target", "ftp://example.com"}, 2, "unknown target"},
		{[]string{"init", "--target", url, "extra"}, 2, "takes no arguments"},
		{[]string{"init", "--target", url, "--header", "no colon"}, 2, "Name: value"},
		{[]string{"init", "--target", url, "--out", "w.yaml"}, 2, "w.yaml exists (use --force"},
		{[]string{"init", "--target", "http://127.0.0.1:1/mcp"}, 1, "127.0.0.1:1"},
		{[]string{"init", "--target", url, "--out", "w.yaml", "--force"}, 0, "wrote w.yaml"},
	} {
		_, stderr, code := readbench(t, dir, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", c.args, code, c.code, c.want, stderr)
		}
	}
	if stdout, _, code := readbench(t, dir, "init", "--help"); code != 0 || !strings.Contains(stdout, "readbench init --target") {
		t.Errorf("init --help (exit %d) shows no example:\n%s", code, stdout)
	}
}

// TestStarterWorkload: the writer copes with what real listings hold —
// unknown sizes, no type, colliding class names, odd templates, a remote
// host, secret headers — and what it writes parses to what was observed.
func TestStarterWorkload(t *testing.T) {
	cat := &driver.Catalog{
		Server:          driver.ServerInfo{Name: "Docs Server!", Version: "2.0"},
		ProtocolVersion: "2025-11-25",
		Pages:           2,
		Sampled:         1,
		Resources: []workload.Resource{
			{URI: "file:///repo/a.md", MIME: "text/markdown", Size: 5891},
			{URI: "file:///repo/b.md", MIME: "text/markdown; charset=utf-8", Size: 87788, Sampled: true},
			{URI: "file:///repo/c.md", MIME: "text/markdown", Size: workload.UnknownSize},
			{URI: "file:///repo/x.foo", MIME: "text/x-foo", Size: 10},
			{URI: "file:///repo/y.foo", MIME: "application/x-foo", Size: workload.UnknownSize},
			{URI: "file:///repo/true", MIME: "application/true", Size: 0},
			{URI: "file:///repo/blob", Size: 3},
		},
		Templates: []driver.Template{{URITemplate: "file:///repo/{+path}{?rev,lang}", Name: "Repo files"}, {URITemplate: "x://{a}"}},
		Warnings:  []string{"resources/list: stopped after 2 pages, the server offered more"},
	}
	target, _ := workload.ParseTarget("https://docs.example.com/mcp")
	text, err := starterWorkload("https://docs.example.com/mcp", target, map[string]string{"Authorization": "Bearer s3cret", "X-Team": "${TEAM}"}, cat)
	if err != nil {
		t.Fatal(err)
	}
	out := string(text)
	w, err := workload.Parse("starter.yaml", text)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []struct{ name, mime, size string }{
		{"markdown", "text/markdown", "5837..87859"}, // written 5.7KiB..85.8KiB
		{"true", "application/true", "0..0"},
		{"x-foo", "application/x-foo", "any"},
		{"text-x-foo", "text/x-foo", "10..10"},
	}
	if len(w.Mix) != len(want) {
		t.Fatalf("%d classes, want %d:\n%s", len(w.Mix), len(want), out)
	}
	for i, c := range w.Mix {
		if c.Name != want[i].name || c.MIME != want[i].mime || c.SizeText() != want[i].size {
			t.Errorf("class %d: %s %s %s, want %+v", i, c.Name, c.MIME, c.SizeText(), want[i])
		}
		if b := c.SizeBounds(); c.MIME == "text/markdown" && (!b.Contains(5891) || !b.Contains(87788)) {
			t.Errorf("markdown bounds %v leave out what was observed", b)
		}
	}
	if w.Mix[0].Weight != 50 || w.Mix[1].Weight != 16.7 {
		t.Errorf("weights %v, %v", w.Mix[0].Weight, w.Mix[1].Weight)
	}
	if got := w.Headers; got["Authorization"] != "${READBENCH_AUTHORIZATION}" || got["X-Team"] != "${TEAM}" || strings.Contains(out, "s3cret") {
		t.Errorf("headers %v (the literal value must never be written)", got)
	}
	if len(w.AllowHosts) != 1 || w.AllowHosts[0] != "docs.example.com" {
		t.Errorf("allow_hosts %v", w.AllowHosts)
	}
	for _, s := range []string{
		"# Discovery warning: resources/list: stopped after 2 pages",
		`#   vars: {path: [VALUE], rev: [VALUE], lang: [VALUE]}`,
		`# - class: repo-files`, `# - class: template-2`,
		`#   uri: "file:///repo/readbench-no-such-resource"`,
		"1 listed resources have no MIME type",
		"name: \"docs-server-starter\"",
		"1 of unknown size need size: any",
		"size: 5.7KiB..85.8KiB ",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if _, err := starterWorkload("x", target, nil, &driver.Catalog{}); err == nil || !strings.Contains(err.Error(), "nothing to build a mix from") {
		t.Errorf("empty catalog: %v", err)
	}
}

func TestRoughSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		up   bool
		want string
	}{
		{0, false, "0"}, {1023, true, "1023"}, {1024, false, "1KiB"}, {5891, false, "5.7KiB"}, {5891, true, "5.8KiB"},
		{3807400, true, "3.7MiB"}, {1 << 20, true, "1MiB"}, {1<<40 + 1, true, "1.1TiB"},
	} {
		got := roughSize(c.n, c.up)
		if got != c.want {
			t.Errorf("roughSize(%d, %v) = %s, want %s", c.n, c.up, got, c.want)
		}
		n, err := workload.ParseSize(got)
		if err != nil || (c.up && n < c.n) || (!c.up && n > c.n) {
			t.Errorf("roughSize(%d, %v) = %s reads back as %d: not a bound", c.n, c.up, got, n)
		}
	}
}
