package client

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// setParentDeathSignal asks the kernel to SIGKILL the child when
// readbench dies. (The kernel ties it to the thread that started the
// child; Go keeps its threads for the life of the process unless a
// goroutine locked to one exits, which readbench never does.)
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// signalMarked sends sig to every process on this machine whose
// environment carries mark (markEnv=token, see markDescendants): what a
// stdio server started and that left its process group — a child that
// called setsid, a daemon that forked twice and was re-parented to init —
// and so escapes signalGroup. /proc/PID/environ is the environment the
// process was started with, which every descendant inherits unless it
// clears it; a process of another user cannot be read and is never
// signalled. Reading it costs a few milliseconds per close, never a read's.
func signalMarked(mark []byte, sig syscall.Signal) error {
	if len(mark) == 0 {
		return nil
	}
	dir, err := os.Open("/proc")
	if err != nil {
		return err
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return err
	}
	self := os.Getpid()
	var errs []error
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + name + "/environ")
		if err != nil || !hasEnvEntry(env, mark) {
			continue
		}
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// hasEnvEntry reports whether a NUL-separated environment holds entry
// whole.
func hasEnvEntry(env, entry []byte) bool {
	for len(env) > 0 {
		e, rest, _ := bytes.Cut(env, []byte{0})
		if bytes.Equal(e, entry) {
			return true
		}
		env = rest
	}
	return false
}
