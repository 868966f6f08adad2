package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeExamplesRunClean: every workload under examples/ runs against
// `readbench serve` with no read failing (every read ok, or the error its
// class expects), and the README's workload example is examples/docs.yaml's
// own text, so what the README shows is what was run.
func TestReadmeExamplesRunClean(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples/*.yaml: %v", err)
	}
	url := sharedServe(t)
	dir := t.TempDir()
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, filepath.Base(f)+".json")
		_, stderr, code := readbench(t, dir, "run", abs, "--target", url, "--duration", "2s", "-q", "--out", out)
		if code != 0 {
			t.Errorf("%s against serve: exit %d: %s", filepath.Base(f), code, stderr)
			continue
		}
		r := loadResult(t, out)
		for outcome, n := range r.Totals.Outcomes {
			if n > 0 && outcome != "ok" && outcome != "expected_error" {
				t.Errorf("%s against serve: %d reads %s, want every read ok or as expected", filepath.Base(f), n, outcome)
			}
		}
		if r.Totals.Outcomes["ok"] == 0 {
			t.Errorf("%s against serve: no read ok", filepath.Base(f))
		}
	}
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "docs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(example), "\n") {
		lines[strings.TrimRight(l, " ")] = true
	}
	for _, l := range readmeBlock(t, "### Workloads", "yaml") {
		if !lines[strings.TrimRight(l, " ")] {
			t.Errorf("the README's workload line %q is not in examples/docs.yaml", l)
		}
	}
}

// TestReadmeContentsAndInstall: the README's contents list every section
// (## and ###) by its GitHub anchor, and its install section names the
// module go.mod names and an install line that works from a clone.
func TestReadmeContentsAndInstall(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	gomod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(gomod)
	if module == nil {
		t.Fatal("go.mod names no module")
	}
	for _, want := range []string{"go install ./cmd/readbench ", "The module is `" + string(module[1]) + "`",
		"github.com/readbench/readbench/cmd/readbench@latest` is the install line once that module is"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md's install section has no %q", want)
		}
	}
	// The install line works from a clone: it puts readbench in GOBIN.
	gobin := t.TempDir()
	install := exec.Command("go", "install", "./cmd/readbench")
	install.Dir, install.Env = filepath.Join("..", ".."), append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Errorf("go install ./cmd/readbench: %v\n%s", err, out)
	} else if _, err := os.Stat(filepath.Join(gobin, "readbench")); err != nil {
		t.Errorf("go install ./cmd/readbench put no readbench in GOBIN: %v", err)
	}
	_, toc, ok := strings.Cut(readme, "\n## Contents\n")
	if !ok {
		t.Fatal("README.md has no ## Contents")
	}
	toc, _, _ = strings.Cut(toc, "\n## ")
	for _, h := range regexp.MustCompile(`(?m)^#{2,3} (.+)$`).FindAllStringSubmatch(readme, -1) {
		if h[1] == "Contents" {
			continue
		}
		if link := "](#" + anchor(h[1]) + ")"; !strings.Contains(toc, link) {
			t.Errorf("the contents have no link %q to the section %q", link, h[1])
		}
	}
}

// anchor is GitHub's anchor of a heading: lower case, spaces to hyphens,
// punctuation but hyphens and underscores dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
