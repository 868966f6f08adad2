package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/capacity"
)

// TestCapacitySearchesAtOnceKeepBoth: two searches started at once, each
// in its default folder runs/capacity-<time> (named to the second), keep
// both their steps: each makes a folder of its own (-2 when the other took
// the name), and neither writes in a folder an earlier search left (issue
// 47, item 17: they shared one and replaced each other's step files).
// The folders of the next seconds are taken beforehand by an "earlier
// search" so that the name is surely taken, whenever the searches start.
func TestCapacitySearchesAtOnceKeepBoth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, answeringWorkload)
	url := startServe(t)
	var sentinels []string
	for s := range 30 {
		d := filepath.Join(dir, "runs", "capacity-"+time.Now().Add(time.Duration(s)*time.Second).UTC().Format("20060102T150405Z"))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(d, "step-01.json")
		if err := os.WriteFile(f, []byte("an earlier search's step"), 0o644); err != nil {
			t.Fatal(err)
		}
		sentinels = append(sentinels, f)
	}
	const n = 2
	type ran struct {
		stdout, stderr string
		code           int
	}
	got := make([]ran, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stdout, stderr, code := readbench(t, dir, "capacity", w, "--target", url, "--slo", "read.p99<2s", "--from", "5/s", "--to", "5/s",
				"--step-duration", "1s", "--step-warmup", "0s", "--refine", "0", "--hold", "0", "--retries", "0", "--format", "json", "-q",
				"--fail-on-unknown=false")
			got[i] = ran{stdout, stderr, code}
		}()
	}
	wg.Wait()
	files := map[string]bool{}
	for i, r := range got {
		var rep capacity.RateFinding
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || len(rep.Steps) == 0 {
			t.Fatalf("search %d: exit %d, %v:\n%s\n%s", i, r.code, err, r.stderr, r.stdout)
		}
		for _, s := range rep.Steps {
			if files[s.File] {
				t.Errorf("both searches saved a step as %s", s.File)
			}
			files[s.File] = true
			if !strings.HasPrefix(s.File, filepath.Join("runs", "capacity-")) || !strings.Contains(filepath.Base(filepath.Dir(s.File)), "Z-") {
				t.Errorf("search %d saved %s: want a folder of its own, runs/capacity-<time>-N", i, s.File)
			}
			loadResult(t, filepath.Join(dir, s.File))
		}
	}
	for _, f := range sentinels {
		if b, err := os.ReadFile(f); err != nil || string(b) != "an earlier search's step" {
			t.Errorf("%s was replaced: %q, %v", f, b, err)
		}
	}
}

// TestOutFolderThatHoldsFiles: an --out DIR that holds files is refused
// by capacity and ab before any load (exit 2, the folder left as it was),
// for its files are another search's or experiment's; --force reuses it
// (issue 47, item 17).
func TestOutFolderThatHoldsFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, answeringWorkload)
	url := startServe(t)
	out := filepath.Join(dir, "out")
	keep := filepath.Join(out, "step-01.json")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("an earlier search's step"), 0o644); err != nil {
		t.Fatal(err)
	}
	capacityArgs := []string{"capacity", w, "--target", url, "--slo", "read.p99<2s", "--from", "5/s", "--to", "5/s", "--step-duration", "1s",
		"--step-warmup", "0s", "--refine", "0", "--hold", "0", "--retries", "0", "--format", "json", "-q", "--fail-on-unknown=false", "--out", "out"}
	for _, args := range [][]string{
		capacityArgs,
		{"ab", w, "--base", url, "--new", url, "--rounds", "2", "--duration", "1s", "--out", "out", "-q"},
	} {
		_, stderr, code := readbench(t, dir, args...)
		if code != exitUsage || !strings.Contains(stderr, "out exists and holds files (--force reuses it") {
			t.Errorf("%s: exit %d, stderr:\n%s", args[0], code, stderr)
		}
		if b, _ := os.ReadFile(keep); string(b) != "an earlier search's step" {
			t.Fatalf("%s: the folder's file was replaced: %q", args[0], b)
		}
	}
	stdout, stderr, code := readbench(t, dir, append(capacityArgs, "--force")...)
	var rep capacity.RateFinding
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 || len(rep.Steps) != 1 || rep.Steps[0].File != filepath.Join("out", "step-01.json") {
		t.Fatalf("--force: exit %d, %v:\n%s\n%s", code, err, stderr, stdout)
	}
	loadResult(t, keep)
}
