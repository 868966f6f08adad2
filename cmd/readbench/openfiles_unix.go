//go:build unix

package main

import "syscall"

// raiseOpenFiles raises the soft open-files limit to the hard one (a
// no-op where Go's runtime already did) and returns both; ok is false
// when they cannot be read.
func raiseOpenFiles() (soft, hard uint64, ok bool) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, 0, false
	}
	if l.Cur < l.Max {
		raised := syscall.Rlimit{Cur: l.Max, Max: l.Max}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			l.Cur = l.Max
		}
	}
	return uint64(l.Cur), uint64(l.Max), true
}
