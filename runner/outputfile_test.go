package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFile: what report's and compare's --out may be, checked
// before any work: the message names the path given (never a temporary
// file) and why.
func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.html")
	if err := os.WriteFile(existing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string // want "": accepted
	}{
		{filepath.Join(dir, "new.html"), ""},
		{existing, ""},
		{"-", ""},
		{os.DevNull, ""},
		{"/proc/y.html", "--out: cannot write to /proc/y.html: its folder /proc cannot be written"},
		{filepath.Join(dir, "no", "x.html"), "does not exist"},
		{dir, "is a directory"},
	} {
		err := OutputFile(tc.path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("OutputFile(%q): %v, want it accepted", tc.path, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), ".tmp")):
			t.Errorf("OutputFile(%q): %v, want %q (and no temporary file named)", tc.path, err, tc.want)
		}
	}
}
