//go:build unix

package h1

import (
	"io"
	"net"
	"os"
	"syscall"
)

// waiter awaits a connection's response on its descriptor (awaitFirst).
// It is made once per connection, its read callback with it: a wait
// then allocates nothing (a closure over the wait's results would cost
// several allocations per request).
type waiter struct {
	rc    syscall.RawConn
	chunk *[bufSize]byte
	n     int
	rerr  error
	read  func(fd uintptr) bool
}

// newWaiter is the waiter of a connection's descriptor, nil when it has
// none (then a response is awaited through a reader, buffer and all).
func newWaiter(nc net.Conn) *waiter {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	w := &waiter{rc: rc}
	w.read = w.tryRead
	return w
}

// tryRead is the callback of rc.Read: one read into a chunk taken for
// it, given back when nothing had arrived.
func (w *waiter) tryRead(fd uintptr) bool {
	w.chunk = getChunk()
	for {
		w.n, w.rerr = syscall.Read(int(fd), w.chunk[:])
		if errno(w.rerr) != syscall.EINTR {
			break
		}
	}
	if e := errno(w.rerr); e == syscall.EAGAIN || e == syscall.EWOULDBLOCK {
		chunks.Put(w.chunk)
		w.chunk = nil
		return false // wait for readiness, then try again
	}
	return true
}

// errno is err's errno, 0 when it is none: one type check, where
// comparing err with an Errno (an interface with a value) calls the
// runtime's interface comparison.
func errno(err error) syscall.Errno {
	e, _ := err.(syscall.Errno)
	return e
}

// awaitFirst waits until the connection is readable and reads what has
// arrived into a chunk taken at that moment: a read that finds nothing
// gives the chunk back before the wait (the runtime's poller then wakes
// this goroutine), so no buffer is held while the server thinks. The
// connection's deadline ends the wait as it ends a Read.
func (w *waiter) awaitFirst() (*[bufSize]byte, int, error) {
	w.chunk, w.n, w.rerr = nil, 0, nil
	err := w.rc.Read(w.read)
	chunk, n, rerr := w.chunk, w.n, w.rerr
	w.chunk, w.rerr = nil, nil
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
