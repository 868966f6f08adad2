//go:build !linux

package client

import "syscall"

// proc is one process, where there is no /proc to read it from.
type proc struct {
	pid   int
	start uint64
}

// descendants finds nothing where there is no /proc to read parent links
// from: there, a process that left the server's group outlives it.
func descendants(int) []proc { return nil }

// signalProcs has nothing to signal where descendants finds nothing.
func signalProcs([]proc, syscall.Signal) error { return nil }
