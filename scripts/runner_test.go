//go:build linux

package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestTestShRunsEveryStep: test.sh runs each step whatever the one before
// did, closes with the count of passed and failed steps naming the
// failed, finds and ends a process a step left running, and exits 1.
func TestTestShRunsEveryStep(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// A make stand-in: its second argument is the step.
	fake := filepath.Join(dir, "make")
	script := `#!/bin/sh
case $2 in
ok) echo "ok step ran" ;;
bad) echo "bad step ran"; exit 3 ;;
leak) setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ` + pidFile + ` ;;
esac
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := testproc.Own(t, exec.Command("bash", "test.sh", "bad", "ok", "leak"))
	cmd.Env = append(os.Environ(), "MAKE="+fake)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want 1", err)
	}
	for _, want := range []string{"bad step ran", "ok step ran", "FAIL  bad", "(exit 3)", "left behind by the run", "sleep 300",
		"2 passed, 2 failed: bad processes-left-behind"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	pid, _ := os.ReadFile(pidFile)
	stat := "/proc/" + strings.TrimSpace(string(pid)) + "/stat"
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(stat)
		if err != nil || strings.Contains(string(b), ") Z ") {
			break // ended (a zombie until its new parent reaps it)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the leaked sleep %s still runs", pid)
		}
	}
}

// TestSaturateShReportsTheCommand: saturate.sh runs the command beside
// its loops, says its wall time and exit status, exits with that status,
// and ends its loops.
func TestSaturateShReportsTheCommand(t *testing.T) {
	cmd := testproc.Own(t, exec.Command("bash", "saturate.sh", "-n", "1", "-t", "30s", "--", "sh", "-c", "sleep 0.3; exit 3"))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("exit %v, want 3:\n%s", err, out)
	}
	if !strings.Contains(string(out), "busy loops (1 per core") || !strings.Contains(string(out), "exit status 3") {
		t.Errorf("output:\n%s", out)
	}
	// Its loops were its children, in its group: none is left in it.
	if n, _ := exec.Command("pgrep", "-g", strconv.Itoa(cmd.Process.Pid)).Output(); len(n) > 0 {
		t.Errorf("left in saturate.sh's group: %s", n)
	}
}
