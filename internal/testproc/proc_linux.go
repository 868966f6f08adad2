package testproc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// own makes the child the leader of a new process group and asks the
// kernel to SIGKILL it when its parent dies.
//
// The parent-death signal is tied to the thread that forked the child,
// not to the process: it fires when that thread exits. The Go runtime
// ends a thread only when a goroutine locked to it (runtime.LockOSThread)
// returns without unlocking it, and a locked thread runs no other
// goroutine; so a child started from any goroutine that has not locked
// its thread — every test here (none locks one) — gets the signal when
// the test binary dies, and not before. A test that starts a child from a
// locked goroutine must keep that goroutine alive as long as the child.
func own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// kill sends SIGKILL to the child's whole group. Once the child has been
// waited for, its group id stays reserved (Linux hands out no process id
// still in use as a group's) as long as anything of the group lives, so
// the signal reaches what it left behind and nothing else; an empty group
// is reported as done.
func kill(cmd *exec.Cmd) error {
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
