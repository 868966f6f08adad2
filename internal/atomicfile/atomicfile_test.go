package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the file holds the data with exactly the mode asked for (not
// the existing file's, not narrowed by the umask), and no temporary file
// is left, whether the name was new or replaced.
func TestWrite(t *testing.T) {
	for _, c := range []struct {
		name     string
		existing fs.FileMode // 0: no file before
		perm     fs.FileMode
	}{
		{"new shared", 0, 0o644},
		{"new private", 0, 0o600},
		{"replaces a private file with a shared one", 0o600, 0o644},
		{"replaces a shared file with a private one", 0o644, 0o600},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "f.json")
		if c.existing != 0 {
			if err := os.WriteFile(path, []byte("old"), c.existing); err != nil {
				t.Fatal(err)
			}
		}
		if err := Write(path, []byte("new\n"), c.perm); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, []byte("new\n")) {
			t.Errorf("%s: file holds %q, %v", c.name, got, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != c.perm {
			t.Errorf("%s: mode %v, %v; want %v", c.name, fi.Mode().Perm(), err, c.perm)
		}
		if names := entries(t, dir); len(names) != 1 {
			t.Errorf("%s: directory holds %v: no temporary file may be left", c.name, names)
		}
	}
}

// TestWriteFailureLeavesNothing: when the rename fails (a directory holds
// the name) or the folder is missing, Write fails and no temporary file is
// left behind.
func TestWriteFailureLeavesNothing(t *testing.T) {
	for _, c := range []struct {
		name, path string
		notExist   bool // the error is fs.ErrNotExist
	}{
		{"a directory holds the name", "taken", false},
		{"the folder is missing", filepath.Join("missing", "f.json"), true},
	} {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "taken"), 0o755); err != nil {
			t.Fatal(err)
		}
		err := Write(filepath.Join(dir, c.path), []byte("x"), 0o644)
		if err == nil || errors.Is(err, fs.ErrNotExist) != c.notExist {
			t.Errorf("%s: %v", c.name, err)
		}
		if names := entries(t, dir); len(names) != 1 {
			t.Errorf("%s: directory holds %v: the temporary file must be removed on failure", c.name, names)
		}
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestWriteNew: a new name gets the whole file with its mode and no
// temporary file is left; an existing file is never replaced (the error
// wraps fs.ErrExist, the old bytes stay), whichever way the file is
// published (a hard link, or O_EXCL where links cannot be made).
func TestWriteNew(t *testing.T) {
	for _, w := range []struct {
		name  string
		write func(string, []byte, fs.FileMode) error
	}{{"WriteNew", WriteNew}, {"writeExclusive", writeExclusive}} {
		for _, c := range []struct {
			name     string
			existing bool
		}{{"new name", false}, {"existing file", true}} {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.json")
			if c.existing {
				if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := w.write(path, []byte("new\n"), 0o644)
			got, _ := os.ReadFile(path)
			switch {
			case c.existing && !errors.Is(err, fs.ErrExist):
				t.Errorf("%s, %s: %v, want an error that wraps fs.ErrExist", w.name, c.name, err)
			case c.existing && string(got) != "old":
				t.Errorf("%s, %s: the file now holds %q: replaced", w.name, c.name, got)
			case !c.existing && (err != nil || string(got) != "new\n"):
				t.Errorf("%s, %s: %v, the file holds %q", w.name, c.name, err, got)
			}
			if fi, err := os.Stat(path); !c.existing && (err != nil || fi.Mode().Perm() != 0o644) {
				t.Errorf("%s, %s: mode %v, %v", w.name, c.name, fi.Mode().Perm(), err)
			}
			if names := entries(t, dir); len(names) != 1 {
				t.Errorf("%s, %s: directory holds %v: no temporary file may be left", w.name, c.name, names)
			}
		}
	}
}

// TestWriteNewConcurrent: writers racing for one name: exactly one takes
// it, with its whole data; every other is told the name exists.
func TestWriteNewConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- WriteNew(path, bytes.Repeat([]byte{byte('a' + i)}, 1<<16), 0o644) }()
	}
	won := 0
	for range n {
		switch err := <-errs; {
		case err == nil:
			won++
		case !errors.Is(err, fs.ErrExist):
			t.Errorf("a writer failed with %v, want fs.ErrExist", err)
		}
	}
	got, err := os.ReadFile(path)
	if won != 1 || err != nil || len(got) != 1<<16 || !bytes.Equal(got, bytes.Repeat(got[:1], 1<<16)) {
		t.Errorf("%d writers took the name; the file holds %d bytes, %v", won, len(got), err)
	}
}
