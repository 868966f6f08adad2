// Package testproc ends what a test starts. A process a test starts
// (a Node peer, the readbench binary, a busy loop) must not outlive the
// test: not when the test fails, and not when go test's -timeout ends the
// test binary with a panic, which runs no cleanups.
//
// Test code only: nothing outside _test.go files imports it.
package testproc

import (
	"os/exec"
	"testing"
)

// Own readies cmd, not yet started, to be ended with the test, and
// returns it. It gives the command, before it starts, the three things
// that make sure of it:
//
//   - a process group of its own, so that what the child starts in turn
//     (readbench's stdio servers, a shell's commands) is ended with it;
//   - a t.Cleanup that kills that group, on failure and success alike, and
//     a context's cancellation (exec.CommandContext) that kills the group
//     rather than the child alone;
//   - on Linux, a parent-death signal: the kernel kills the child when the
//     test binary dies, cleanups or not (proc_linux.go says which thread
//     that hangs on); and, for what the child started in turn, a watchdog
//     process that kills, once the test binary is gone, every process
//     carrying the binary's mark in its environment (MarkEnv).
//
// The test may still wait for it, signal it and read its output as
// before.
func Own(t testing.TB, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	if cmd.Process != nil {
		t.Fatal("testproc.Own: the command has already started")
	}
	Shared(cmd)
	t.Cleanup(func() {
		if cmd.Process != nil {
			_ = kill(cmd)
		}
	})
	return cmd
}

// Shared is Own without the cleanup, for a process several tests share
// (its owner stops it): it still has a group of its own, which a
// context's cancellation kills whole, and dies with the test binary.
func Shared(cmd *exec.Cmd) *exec.Cmd {
	own(cmd)
	if cmd.Cancel != nil { // exec.CommandContext: its default kills the child alone
		cmd.Cancel = func() error { return kill(cmd) }
	}
	return cmd
}
