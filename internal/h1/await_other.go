//go:build !unix

package h1

import (
	"net"
	"syscall"
)

// rawConn is nil here: a response is awaited through the connection's
// reader, buffer and all.
func rawConn(net.Conn) syscall.RawConn { return nil }

func awaitFirst(syscall.RawConn) (*[bufSize]byte, int, error) {
	panic("h1: awaitFirst without a descriptor")
}
