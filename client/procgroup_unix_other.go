//go:build unix && !linux

package client

import "syscall"

// setParentDeathSignal does nothing where there is no parent-death
// signal: a child there learns of readbench's death from its stdin
// closing.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// signalMarked does nothing where there is no /proc to find marked
// processes in: a process that left the server's group outlives it there.
func signalMarked([]byte, syscall.Signal) error { return nil }
