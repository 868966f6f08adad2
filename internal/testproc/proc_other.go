//go:build !linux

package testproc

import "os/exec"

// own does nothing where the tests do not run in CI: the child alone is
// killed, by the cleanup and by a context's cancellation.
func own(*exec.Cmd) {}

func kill(cmd *exec.Cmd) error { return cmd.Process.Kill() }
