//go:build linux

package testproc

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gone reports whether pid has ended within ten seconds (a zombie, not yet
// reaped by whoever inherited it, counts as ended).
func gone(pid int) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		// the state follows the command's closing parenthesis
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return true
		}
	}
	return false
}

// startShell starts, owned by t, a shell that starts a sleep of its own
// and prints both process ids.
func startShell(t *testing.T) (shell, sleep int) {
	cmd := Own(t, exec.Command("sh", "-c", `sleep 600 & echo $$ $!; wait`))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(line)
	shell, _ = strconv.Atoi(f[0])
	sleep, _ = strconv.Atoi(f[1])
	return shell, sleep
}

// TestCleanupEndsTheGroup: when the test ends, the child and what it
// started are killed.
func TestCleanupEndsTheGroup(t *testing.T) {
	var shell, sleep int
	t.Run("owner", func(t *testing.T) { shell, sleep = startShell(t) })
	if !gone(shell) || !gone(sleep) {
		t.Errorf("after the test: shell %d gone %v, its sleep %d gone %v", shell, gone(shell), sleep, gone(sleep))
	}
}

// TestTheBinaryDyingEndsTheChild: a test binary that dies without running
// its cleanups (as go test's -timeout panic does) leaves no child behind,
// nor what the child started: the parent-death signal ends the one, the
// watchdog the other.
func TestTheBinaryDyingEndsTheChild(t *testing.T) {
	if os.Getenv("TESTPROC_DIE") == "1" {
		shell, sleep := startShell(t)
		os.Stdout.WriteString(strconv.Itoa(shell) + " " + strconv.Itoa(sleep) + "\n")
		os.Exit(2) // no cleanups, like the timeout's panic
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTheBinaryDyingEndsTheChild$")
	cmd.Env = append(os.Environ(), "TESTPROC_DIE=1")
	out, _ := cmd.Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	if len(pids) != 2 {
		t.Fatalf("the helper printed %q", out)
	}
	for i, what := range []string{"the shell", "the sleep the shell started"} {
		if !gone(pids[i]) {
			_ = syscall.Kill(pids[i], syscall.SIGKILL)
			t.Errorf("%s (%d) outlived the test binary that started it", what, pids[i])
		}
	}
}
