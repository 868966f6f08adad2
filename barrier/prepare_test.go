package barrier

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrepare: a missing folder is made (parents too) and said to be new,
// an existing one is left as it is, and a file or a folder that cannot be
// made is an error before any shard connects.
func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		dir     string
		created bool
		err     string
	}{
		{"an existing folder", dir, false, ""},
		{"a missing folder, parents too", filepath.Join(dir, "shared", "barrier"), true, ""},
		{"the same folder again", filepath.Join(dir, "shared", "barrier"), false, ""},
		{"a file", file, false, "is a file, not a folder"},
		{"under a file", filepath.Join(file, "barrier"), false, "not a directory"},
	} {
		created, err := Prepare(c.dir)
		if created != c.created || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: created %v, %v; want %v, %q", c.name, created, err, c.created, c.err)
		}
		if c.err == "" {
			if fi, err := os.Stat(c.dir); err != nil || !fi.IsDir() {
				t.Errorf("%s: no folder after Prepare: %v", c.name, err)
			}
		}
	}
}
