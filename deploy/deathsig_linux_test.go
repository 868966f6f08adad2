package deploy

import (
	"os/exec"
	"syscall"
)

// dieWithTest asks the kernel to kill cmd's process when the test binary
// dies — go test's -timeout ends it with a panic that runs no cleanup —
// so that no readbench of a timed-out test is left running (readbench
// ends its own children the same way). The signal is tied to the thread
// that starts the child; the Go runtime ends a thread only when a
// goroutine locked to it exits, and no test here locks one. (This module
// cannot import the main module's internal/testproc, which does the same
// for the main module's tests.)
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
