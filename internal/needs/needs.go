// Package needs is how a test says it needs something from outside the Go
// toolchain (Chromium, Node 22, an npm package in peers/): when the thing
// is missing, the test fails in CI, where every test must run, and is
// skipped elsewhere with one line naming what is missing and the command
// that installs it — never a quiet pass. Test code only: nothing outside
// _test.go files imports it.
//
// CI is recognised by the CI environment variable (set by .ci/run's
// caller, GitHub Actions, GitLab and most others).
package needs

import (
	"os"
	"os/exec"
	"testing"
)

// CIEnv names the environment variable whose presence (any value but ""
// or "false") marks a CI run, where a missing tool is a failure.
const CIEnv = "CI"

// InCI reports whether the tests run in CI.
func InCI() bool {
	v := os.Getenv(CIEnv)
	return v != "" && v != "false" && v != "0"
}

// Tool returns the path of the program name on PATH. When it is not
// there the test fails in CI and is skipped elsewhere, saying that install
// installs it.
func Tool(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" (not on PATH)", install)
	}
	return path
}

// File returns path when it exists; else the test fails in CI and is
// skipped elsewhere. what says what the file is ("server-everything").
func File(t testing.TB, path, what, install string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Missing(t, what+" ("+path+" is missing)", install)
	}
	return path
}

// Missing ends the test for want of what: a failure in CI, a skip with
// the command that installs it elsewhere.
func Missing(t testing.TB, what, install string) {
	t.Helper()
	if InCI() {
		t.Fatalf("needs %s; CI runs every test: install it with: %s", what, install)
		return
	}
	t.Skipf("skipped: needs %s; install it with: %s (with %s set, as in CI, this fails)", what, install, CIEnv)
}
