//go:build linux && !race

package h1

import (
	"syscall"
	"unsafe"
)

// rawRead and rawWrite are read(2) and send(2) without the runtime's
// bookkeeping for a call that may block (syscall.RawSyscall): for a
// non-blocking socket's descriptor only (waiter). Not under the race
// detector (rawsys_unix_other.go). A write never raises
// SIGPIPE (MSG_NOSIGNAL): a server gone is EPIPE, as net.Conn says it.

func rawRead(fd uintptr, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(n), 0
}

func rawWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), syscall.MSG_NOSIGNAL, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), 0
}
