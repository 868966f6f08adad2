//go:build unix

package h1

import (
	"io"
	"net"
	"os"
	"syscall"
)

// rawConn is the connection's descriptor for awaitFirst, nil when it has
// none (then a response is awaited through a reader, buffer and all).
func rawConn(nc net.Conn) syscall.RawConn {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// awaitFirst waits until the connection is readable and reads what has
// arrived into a chunk taken at that moment: a read that finds nothing
// gives the chunk back before the wait (the runtime's poller then wakes
// this goroutine), so no buffer is held while the server thinks. The
// connection's deadline ends the wait as it ends a Read.
func awaitFirst(rc syscall.RawConn) (*[bufSize]byte, int, error) {
	var chunk *[bufSize]byte
	var n int
	var rerr error
	err := rc.Read(func(fd uintptr) bool {
		chunk = getChunk()
		for {
			n, rerr = syscall.Read(int(fd), chunk[:])
			if rerr != syscall.EINTR {
				break
			}
		}
		if rerr == syscall.EAGAIN || rerr == syscall.EWOULDBLOCK {
			chunks.Put(chunk)
			chunk = nil
			return false // wait for readiness, then try again
		}
		return true
	})
	switch {
	case err != nil:
		err = &net.OpError{Op: "read", Net: "tcp", Err: err}
	case rerr != nil:
		err = &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", rerr)}
	case n <= 0:
		err = io.EOF
	}
	if err != nil {
		if chunk != nil {
			chunks.Put(chunk)
		}
		return nil, 0, err
	}
	return chunk, n, nil
}
