//go:build unix

package h1

import (
	"net"
	"syscall"
)

// alive reports whether an idle connection can carry a request: nothing
// is waiting to be read on it, neither the server's close nor bytes it
// sent unasked. One non-blocking peek, no wait.
func alive(nc net.Conn) bool {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	ok = false
	var b [1]byte
	err = rc.Control(func(fd uintptr) { // Control: a deadline left by the last request does not matter here
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		ok = err == syscall.EAGAIN || err == syscall.EWOULDBLOCK // nothing pending
	})
	return err == nil && ok
}
