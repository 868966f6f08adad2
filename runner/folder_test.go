package runner

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestFolder: --out DIR of capacity and ab (issue 47, item 17). A missing
// folder is made, an empty one is used, one that holds files is refused
// unless force (its files are another search's, which this one would mix
// with its own or replace), and a file is refused whatever force says.
func TestFolder(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	empty := filepath.Join(dir, "empty")
	for _, d := range []string{full, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(full, "step-01.json"), []byte("earlier"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		dir   string
		force bool
		want  string // "" accepted, else in the error
	}{
		{"a missing folder is made", filepath.Join(dir, "new"), false, ""},
		{"an empty folder", empty, false, ""},
		{"a folder holding files", full, false, full + " exists and holds files (--force reuses it"},
		{"a folder holding files, --force", full, true, ""},
		{"a file", file, false, "exists and is not a folder"},
		{"a file, --force", file, true, "exists and is not a folder"},
		{"a missing parent", filepath.Join(dir, "nosuch", "out"), false, "does not exist"},
	} {
		err := Folder(c.dir, c.force)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Folder(%q, %v) = %v, want it accepted", c.name, c.dir, c.force, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Folder(%q, %v) = %v, want %q", c.name, c.dir, c.force, err, c.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(full, "step-01.json")); err != nil || string(b) != "earlier" {
		t.Errorf("the folder refused was changed: %q, %v", b, err)
	}
}

// TestNewFolderConcurrent: commands started in the same second choose
// the same default folder (runs/capacity-<time>); each gets a folder of
// its own, the base name or base-2, base-3 …, never one another made.
func TestNewFolderConcurrent(t *testing.T) {
	t.Chdir(t.TempDir())
	base := filepath.Join("runs", "capacity-20261206T042205Z")
	const n = 8
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = NewFolder(base)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if len(slices.Compact(slices.Clone(got))) != n {
		t.Fatalf("folders %v: two commands share one", got)
	}
	want := []string{base}
	for i := 2; i <= n; i++ {
		want = append(want, base+"-"+string(rune('0'+i)))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("folders %v, want %v", got, want)
	}
}

// TestFileNeverReplaces: a step's or a round's file is saved only where
// no file is (another command writing in the folder keeps its result,
// and this one is refused, wrapping fs.ErrExist), unless replace
// (--force).
func TestFileNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "step-01.json")
	res := &results.Result{}
	if _, err := File(path, false).save(res, ""); err != nil {
		t.Fatalf("a free name: %v", err)
	}
	if err := os.WriteFile(path, []byte("another search's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := File(path, false).save(res, ""); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a name taken: %v, want it refused (fs.ErrExist)", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "another search's" {
		t.Errorf("the file there was replaced: %q", b)
	}
	if _, err := File(path, true).save(res, ""); err != nil {
		t.Errorf("a name taken, replace: %v", err)
	}
}
