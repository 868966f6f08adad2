//go:build !unix

package client

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup does nothing where there are no process groups.
func ownProcessGroup(*exec.Cmd) {}

// signalGroup ends the child itself where there are no process groups
// (and no signals but kill).
func signalGroup(p *os.Process, _ syscall.Signal) error { return p.Kill() }

// signalMarked does nothing where there are no signals.
func signalMarked([]byte, syscall.Signal) error { return nil }
