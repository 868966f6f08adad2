//go:build linux

// Package scripts holds the tests of the shell scripts beside it; it has
// no Go code of its own.
package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fakeApt writes an apt-get stand-in that fails as apt-get does on a held
// lock for its first `fails` calls, then succeeds; every call's arguments
// are appended to the log it returns.
func fakeApt(t *testing.T, fails int) (bin, log string) {
	t.Helper()
	dir := t.TempDir()
	bin, log = filepath.Join(dir, "apt-get"), filepath.Join(dir, "calls")
	script := `#!/bin/sh
echo "$*" >> ` + log + `
n=$(wc -l < ` + log + `)
if [ "$n" -le ` + strconv.Itoa(fails) + ` ]; then
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)" >&2
	echo "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?" >&2
	exit 100
fi
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

func aptInstall(t *testing.T, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", "apt-install.sh", "chromium", "libxml2-utils")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestAptInstallWaitsForTheLock: apt-get failing on another package
// manager's lock is retried, the wait is said with the holder's name, and
// every call asks apt to wait for the dpkg lock too.
func TestAptInstallWaitsForTheLock(t *testing.T) {
	bin, log := fakeApt(t, 2)
	out, err := aptInstall(t, "APT_GET="+bin, "APT_LOCK_POLL=0", "APT_LOCKS=/nonexistent")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "waiting for another package manager (dpkg lock, held by process 4242 (unattended-upgr)), up to 300s") {
		t.Errorf("the wait is not said:\n%s", out)
	}
	if strings.Count(out, "waiting for") != 1 {
		t.Errorf("the wait is said more than once:\n%s", out)
	}
	calls, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[2], "update") || !strings.Contains(lines[3], "install -y -qq --no-install-recommends chromium libxml2-utils") {
		t.Errorf("calls:\n%s\nwant update three times (two refused), then install", calls)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "-o DPkg::Lock::Timeout=") {
			t.Errorf("call %q does not give apt-get a lock timeout", l)
		}
	}
}

// TestAptInstallGivesUp: the wait is bounded, and the failure says what to
// do.
func TestAptInstallGivesUp(t *testing.T) {
	bin, _ := fakeApt(t, 9)
	out, err := aptInstall(t, "APT_GET="+bin, "APT_LOCK_POLL=0.2", "APT_LOCK_TIMEOUT=1", "APT_LOCKS=/nonexistent")
	if err == nil || !strings.Contains(out, "gave up after 1s waiting for another package manager") {
		t.Errorf("err %v, output:\n%s", err, out)
	}
}

// TestAptInstallNamesTheHolder: a lock file held (fcntl, as dpkg and apt
// hold theirs) is seen before apt-get runs, and its holder named.
func TestAptInstallNamesTheHolder(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "lock-frontend")
	f, err := os.Create(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &syscall.Flock_t{Type: syscall.F_WRLCK}); err != nil {
		t.Fatal(err)
	}
	bin, _ := fakeApt(t, 0)
	out, err := aptInstall(t, "APT_GET="+bin, "APT_LOCKS="+lock)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if want := "held by process " + strconv.Itoa(os.Getpid()); !strings.Contains(out, want) {
		t.Errorf("output does not contain %q:\n%s", want, out)
	}
}
