package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/workload/yamlfile"
)

// TestInitThenRun: init discovers `readbench serve`, writes a workload
// that parses, and that workload runs with only ok outcomes: its classes
// are resolved from the server's catalog, not synthesized.
func TestInitThenRun(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	dir := t.TempDir()
	stdout, stderr, code := readbench(t, dir, "init", "--target", url)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s", code, stderr)
	}
	w, err := yamlfile.Parse("init.yaml", []byte(stdout))
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
	machine := watchMachine()
	stdout, stderr, code = readbench(t, dir, "run", path, "--duration", "1s", "--out", "r.json")
	exitOnBusy(t, machine, code, stdout+stderr, filepath.Join(dir, "r.json"))
	r := loadResult(t, filepath.Join(dir, "r.json"))
	for name, n := range r.Totals.Outcomes {
		// A read the 800 ms deadline cut, or one the generator dropped, is
		// a busy machine's (the simulated server answers in microseconds);
		// any other outcome is a workload init wrote wrong.
		machineCut := (name == "cancelled" || name == "dropped") && machine.Busy()
		if n > 0 && name != "ok" && !machineCut {
			t.Errorf("%d reads ended %s (%s): %v", n, name, machine, r.Totals.Outcomes)
		}
	}
	if r.Totals.Outcomes["ok"] < 10 {
		t.Errorf("only %d ok reads", r.Totals.Outcomes["ok"])
	}
}

func TestInitOutAndExitCodes(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	dir := t.TempDir()
	if _, stderr, code := readbench(t, dir, "init", "--target", url, "--out", "w.yaml"); code != 0 || !strings.Contains(stderr, "wrote w.yaml") {
		t.Fatalf("init --out: exit %d: %s", code, stderr)
	}
	if _, err := yamlfile.Load(filepath.Join(dir, "w.yaml")); err != nil {
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
