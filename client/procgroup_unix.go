//go:build unix

package client

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// A stdio child is started in a process group of its own: an interrupt at
// the terminal reaches readbench alone (which then cancels, saves and ends
// its children in order, instead of losing them mid-read), and ending the
// group ends whatever the child started too (npx's node, a shell's
// server), so that no server outlives readbench. What leaves the group
// (setsid, a daemon) is found by the mark markDescendants puts in its
// environment, where /proc tells (Linux: signalMarked), and by the
// server's tree of descendants listed before it is closed
// (proctree_linux.go).

// ownProcessGroup makes cmd the leader of a new process group; on Linux
// the kernel also kills it should readbench die without closing its
// sessions (a crash, an out-of-memory kill, SIGKILL).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to the child's whole process group. A group that
// is already gone is not an error.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	if err := syscall.Kill(-p.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
