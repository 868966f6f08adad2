package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestOutRefusesAnExistingFile: --out naming a file that exists is
// refused before the run (as record refuses its own), unless --force; a
// stream (a device) is written through, never "exists".
func TestOutRefusesAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		out     string
		force   bool
		err     string
		replace bool
	}{
		{"an existing file", old, false, "--out: " + old + " exists (--force replaces it, or name another file)", false},
		{"an existing file with --force", old, true, "", true},
		{"a new file", filepath.Join(dir, "new.json"), false, "", false},
		{"standard output", "-", false, "", true},
		{"a device", os.DevNull, false, "", true},
	} {
		p, err := Out(c.out, c.force, nil)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: Out(%q) = %+v, %v; want %q", c.name, c.out, p, err, c.err)
		case c.err == "" && (err != nil || p.Replace != c.replace):
			t.Errorf("%s: Out(%q) = %+v, %v; want Replace %v", c.name, c.out, p, err, c.replace)
		}
	}
}

// fullDisk is a place whose writes fail as on a full disk: /dev/full,
// written through as a device (ENOSPC), which needs no root.
func fullDisk(t *testing.T) Place {
	t.Helper()
	if runtime.GOOS != "linux" {
		needs.Missing(t, "/dev/full (Linux's)", "run the tests on Linux")
	}
	p, err := Out("/dev/full", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSaveNeverLosesAResult: a result that cannot be saved where it was
// asked (a full disk, a folder made read-only during the run, a name
// another run took while this one ran) is saved to a fallback file in
// the temporary folder, named, and the judgement says "not saved"
// (NotSaved) — the exit a CI job can tell from a pass and from a run that
// could not be made — while an interrupted run stays interrupted (130).
// Runs saving under a chosen name in runs/ never replace each other: the
// second takes name-2.json. The whole run was lost before (exit 1, no
// report, no file).
func TestSaveNeverLosesAResult(t *testing.T) {
	fine := situation{o: stats.OK, latency: 5 * time.Millisecond}
	failing := situation{o: stats.Internal, latency: 5 * time.Millisecond}
	cut := situation{o: stats.OK, latency: 5 * time.Millisecond, interrupted: true}
	for _, c := range []struct {
		name     string
		place    func(t *testing.T, dir string) Place
		s        situation
		want     results.Exit
		reason   string
		fallback bool // saved to a fallback file
		path     string
	}{
		{"a full disk", func(t *testing.T, _ string) Place { return fullDisk(t) }, fine, results.NotSaved,
			"the result was not saved: save result: write /dev/full: no space left on device; it was saved to ", true, ""},
		{"a full disk, a run that failed too", func(t *testing.T, _ string) Place { return fullDisk(t) }, failing, results.NotSaved,
			"the result was not saved: ", true, ""},
		{"a full disk, interrupted", func(t *testing.T, _ string) Place { return fullDisk(t) }, cut, results.Interrupted,
			"run interrupted", true, ""},
		{"a folder made read-only during the run", func(t *testing.T, _ string) Place {
			ro := readOnlyFolder(t)
			return Place{Path: filepath.Join(ro, "r.json"), Dir: t.TempDir()}
		}, fine, results.NotSaved, "the result was not saved: save result: ", true, ""},
		{"a name another run took during the run", func(t *testing.T, dir string) Place {
			p, err := Out(filepath.Join(dir, "r.json"), false, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p.Path, []byte("the other run's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, fine, results.NotSaved, "the result was not saved: save result: " + "", true, ""},
		{"--force replaces", func(t *testing.T, dir string) Place {
			path := filepath.Join(dir, "r.json")
			if err := os.WriteFile(path, []byte("an old result\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Out(path, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}, fine, results.Passed, "", false, "r.json"},
		{"a chosen name another run took", func(t *testing.T, dir string) Place {
			if err := os.WriteFile(filepath.Join(dir, "20261202T080000Z-sim-1.json"), []byte("the other run's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return Place{Dir: dir}
		}, fine, results.Passed, "", false, "20261202T080000Z-sim-1-2.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp) // where the fallback goes
			dir := t.TempDir()
			job := Job{drive: c.s.measured, Save: c.place(t, dir)}
			var err error
			if job.Options, err = job.Options.For(jobWorkload(t, true), driver.Overrides{}); err != nil {
				t.Fatal(err)
			}
			done, err := job.Run(context.Background())
			if err != nil {
				t.Fatalf("the run's result was lost: %v", err)
			}
			j := done.Judgement
			said := strings.Join(append(append([]string{}, j.Also...), j.Reason), "\n")
			if j.Exit != c.want || !strings.HasPrefix(j.Reason, c.reason) {
				t.Errorf("judged %v %q, want %v %q...", j.Exit, j.Reason, c.want, c.reason)
			}
			if c.fallback {
				if done.Unsaved == nil || filepath.Dir(done.Path) != tmp || !strings.HasPrefix(filepath.Base(done.Path), "readbench-unsaved-") {
					t.Fatalf("saved to %q (unsaved %+v), want a fallback file in %s", done.Path, done.Unsaved, tmp)
				}
				if !strings.Contains(said, done.Path) {
					t.Errorf("the fallback file %s is not named in %q", done.Path, said)
				}
			} else if done.Unsaved != nil || done.Path != filepath.Join(dir, c.path) {
				t.Fatalf("saved to %q (unsaved %+v), want %s", done.Path, done.Unsaved, filepath.Join(dir, c.path))
			}
			if _, err := results.Load(done.Path); err != nil {
				t.Errorf("the result saved is not whole: %v", err)
			}
			for _, other := range []string{"r.json", "20261202T080000Z-sim-1.json"} {
				if b, err := os.ReadFile(filepath.Join(dir, other)); err == nil && strings.HasPrefix(string(b), "the other run's") != (c.path != "r.json") {
					t.Errorf("%s now holds %.40q", other, b)
				}
			}
		})
	}
}
