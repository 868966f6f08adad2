package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRunOutUnwritable: `run --out` into a folder that cannot be written
// is refused at once, before any load (exit 2, naming the result), and
// not as "server stderr log: open …".
func TestRunOutUnwritable(t *testing.T) {
	t.Parallel()
	ro := "/sys" // root: permissions do not stop it; /sys refuses new files to anyone
	if os.Geteuid() != 0 || runtime.GOOS != "linux" {
		ro = filepath.Join(t.TempDir(), "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(ro, 0o755) })
	}
	out := filepath.Join(ro, "r.json")
	start := time.Now()
	_, stderr, code := readbench(t, t.TempDir(), "run", "--duration", "20s", "--out", out)
	took := time.Since(start)
	if code != exitUsage || !strings.Contains(stderr, "--out: cannot write the result to "+out+": its folder "+ro+" cannot be written") ||
		strings.Contains(stderr, "stderr log") || took > 10*time.Second {
		t.Errorf("exit %d after %v (a 20 s run), stderr:\n%s", code, took, stderr)
	}
}
