package runner

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// readOnlyFolder is a folder this process cannot create files in: a
// folder without write permission, or, for root (whom permissions do not
// stop), /sys on Linux, a file system that refuses new files to anyone.
func readOnlyFolder(t *testing.T) string {
	t.Helper()
	if os.Geteuid() == 0 {
		if runtime.GOOS != "linux" {
			needs.Missing(t, "a folder root cannot write (/sys on Linux)", "run the tests as a user other than root")
		}
		return "/sys"
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	return dir
}

// TestOutUnwritable: an --out that cannot be written is refused before
// the run, for what it is — a folder that cannot be written, a path
// under a file — and never as the servers' stderr log that happens to be
// opened first ("server stderr log: open …"), nor after the load was
// driven and the result lost.
func TestOutUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ro := readOnlyFolder(t)
	for _, c := range []struct {
		name, out, want string
	}{
		{"a folder that cannot be written", filepath.Join(ro, "r.json"),
			"--out: cannot write the result to " + filepath.Join(ro, "r.json") + ": its folder " + ro + " cannot be written: "},
		{"a path under a file", filepath.Join(file, "r.json"),
			"--out: cannot write to " + filepath.Join(file, "r.json") + ": " + file + " is not a folder"},
		{"a path deeper under a file", filepath.Join(file, "a", "r.json"),
			"--out: cannot write to " + filepath.Join(file, "a", "r.json") + ": " + filepath.Join(file, "a") + " is not a folder: a file stands in its path"},
		{"a missing folder", filepath.Join(dir, "nosuch", "r.json"), "the folder " + filepath.Join(dir, "nosuch") + " does not exist"},
	} {
		_, err := Out(c.out, false, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Out(%q) = %v, want %q", c.name, c.out, err, c.want)
		}
	}
	if err := Folder(ro, false); err == nil || !strings.HasPrefix(err.Error(), "cannot write the results in "+ro+": ") {
		t.Errorf("Folder(%q) = %v, want it refused as a folder that cannot be written", ro, err)
	}
	if p, err := Out(filepath.Join(dir, "r.json"), false, nil); err != nil || p.Dir != dir {
		t.Errorf("a writable --out: %+v, %v", p, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".readbench-write-check-*")); len(left) > 0 {
		t.Errorf("the check left %v", left)
	}
}
