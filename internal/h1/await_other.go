//go:build !unix

package h1

import "net"

// waiter is never made here: a response is awaited through the
// connection's reader, buffer and all.
type waiter struct{}

// newWaiter is nil here (see waiter).
func newWaiter(net.Conn) *waiter { return nil }

func (*waiter) awaitFirst() (*[bufSize]byte, int, error) {
	panic("h1: awaitFirst without a descriptor")
}
