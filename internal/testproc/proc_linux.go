package testproc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
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
	watchOnce.Do(startWatchdog)
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

// MarkEnv names the environment variable the test binary sets for every
// process it starts from then on (os.Environ, which exec uses when a
// command's Env is nil and tests extend otherwise): its value is unique
// to the test binary.
const MarkEnv = "TESTPROC_BINARY"

var watchOnce sync.Once

// watchdog is what the test binary leaves behind to end what it leaves
// behind: the parent-death signal kills the child the test started, but
// not what that child started in turn (a shell's readbench, whose stdio
// servers do die with it), which goes on after a timeout's panic. So the
// first Own starts this shell, without the mark, which waits for the test
// binary to end and then kills every process carrying its mark.
const watchdog = `mark="$1=$2"; parent=$3
while kill -0 "$parent" 2>/dev/null; do sleep 1; done
for f in /proc/[0-9]*/environ; do
	if tr '\0' '\n' 2>/dev/null <"$f" | grep -qxF "$mark"; then
		p=${f#/proc/}; kill -KILL "${p%/environ}" 2>/dev/null
	fi
done`

// startWatchdog marks the test binary's environment and starts the
// watchdog (when there is no sh, nothing is started and the marks are
// unused).
func startWatchdog() {
	mark := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	w := exec.Command("sh", "-c", watchdog, "watchdog", MarkEnv, mark, fmt.Sprint(os.Getpid()))
	w.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, MarkEnv+"=") })
	w.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // not in the terminal's group: a Ctrl-C does not end it before the test binary
	if err := w.Start(); err != nil {
		return
	}
	// Not waited for: it outlives the binary (a goroutine waiting for it
	// would be one goleak reports).
	_ = os.Setenv(MarkEnv, mark)
}
