//go:build !unix

package h1

import (
	"io"
	"net"
)

// waiter is never made here: a response is awaited through the
// connection's reader, buffer and all.
type waiter struct{}

// newWaiter is nil here (see waiter).
func newWaiter(net.Conn) *waiter { return nil }

func (*waiter) awaitFirst() (*[bufSize]byte, int, error) {
	panic("h1: awaitFirst without a descriptor")
}

// reader and writer are nc itself here.
func (*waiter) reader(nc net.Conn) io.Reader { return nc }
func (*waiter) writer(nc net.Conn) io.Writer { return nc }
