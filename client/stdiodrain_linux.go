package client

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// unreadBytes is how many bytes written to the pipe w the reader at its
// other end has not read yet. Linux answers FIONREAD (TIOCINQ, its other
// name) on either end of a pipe. The descriptor is reached through
// SyscallConn, never Fd, which would put the pipe in blocking mode and
// keep close from freeing a writer stuck on a child that reads nothing.
func unreadBytes(w any) (int, error) {
	sc, ok := w.(syscall.Conn)
	if !ok {
		return 0, ErrDeliveryUnknown
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrDeliveryUnknown, err)
	}
	var n int
	var ioErr error
	if err := rc.Control(func(fd uintptr) { n, ioErr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrDeliveryUnknown, err)
	}
	if ioErr != nil {
		return 0, fmt.Errorf("%w: FIONREAD: %w", ErrDeliveryUnknown, ioErr)
	}
	return n, nil
}
