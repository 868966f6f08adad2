//go:build unix && !linux

package client

import "syscall"

// setParentDeathSignal does nothing where there is no parent-death
// signal: a child there learns of readbench's death from its stdin
// closing.
func setParentDeathSignal(*syscall.SysProcAttr) {}
