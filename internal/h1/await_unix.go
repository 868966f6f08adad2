//go:build unix

package h1

import (
	"io"
	"net"
	"os"
	"syscall"
)

// waiter does a connection's I/O on its descriptor: it awaits a response
// (awaitFirst), reads (Read) and writes (Write) through the descriptor's
// RawConn, in raw system calls (rawsys_linux.go). A socket's descriptor
// is non-blocking, so a call never blocks: the runtime's bookkeeping
// around a call that might (entersyscall, exitsyscall, waking its
// monitor thread) would cost more than a small read or write itself. A
// wait for readiness, and the connection's deadline, are the runtime
// poller's, as for net.Conn. It is made once per connection, its
// callbacks with it: a call then allocates nothing (a closure over its
// results would cost several allocations per request).
type waiter struct {
	rc    syscall.RawConn
	chunk *[bufSize]byte // awaitFirst's, taken for its read
	buf   []byte         // Read's or Write's
	n     int
	rerr  error
	read  func(fd uintptr) bool // tryRead
	into  func(fd uintptr) bool // tryReadInto
	write func(fd uintptr) bool // tryWrite
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
	w.read, w.into, w.write = w.tryRead, w.tryReadInto, w.tryWrite
	return w
}

// tryRead is awaitFirst's callback of rc.Read: one read into a chunk
// taken for it, given back when nothing had arrived.
func (w *waiter) tryRead(fd uintptr) bool {
	w.chunk = getChunk()
	if !w.readOnce(fd, w.chunk[:]) {
		chunks.Put(w.chunk)
		w.chunk = nil
		return false // wait for readiness, then try again
	}
	return true
}

// tryReadInto is Read's callback of rc.Read.
func (w *waiter) tryReadInto(fd uintptr) bool { return w.readOnce(fd, w.buf) }

// readOnce reads into p, again after EINTR; false when nothing has
// arrived (then the caller waits for readiness).
func (w *waiter) readOnce(fd uintptr, p []byte) bool {
	for {
		n, e := rawRead(fd, p)
		switch e {
		case 0:
			w.n = n
			return true
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			w.rerr = e
			return true
		}
	}
}

// Read reads what has arrived into p, waiting for it as net.Conn's Read
// does; io.EOF when the server closed the connection.
func (w *waiter) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	w.buf, w.n, w.rerr = p, 0, nil
	err := w.rc.Read(w.into)
	n, rerr := w.n, w.rerr
	w.buf, w.rerr = nil, nil
	if err := readErr(err, rerr, n); err != nil {
		return 0, err
	}
	return n, nil
}

// readErr is the error of a read through rc: the poller's (a deadline,
// a closed connection), the system call's, or io.EOF when nothing came.
func readErr(err, rerr error, n int) error {
	switch {
	case err != nil:
		return &net.OpError{Op: "read", Net: "tcp", Err: err}
	case rerr != nil:
		return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", rerr)}
	case n <= 0:
		return io.EOF
	}
	return nil
}

// tryWrite is Write's callback of rc.Write: it writes until all of w.buf
// is out, or the socket's buffer is full (then the caller waits for room).
func (w *waiter) tryWrite(fd uintptr) bool {
	for w.n < len(w.buf) {
		n, e := rawWrite(fd, w.buf[w.n:])
		switch e {
		case 0:
			w.n += n
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			w.rerr = e
			return true
		}
	}
	return true
}

// Write writes all of p, waiting for room as net.Conn's Write does; n is
// what left before an error.
func (w *waiter) Write(p []byte) (int, error) {
	w.buf, w.n, w.rerr = p, 0, nil
	err := w.rc.Write(w.write)
	n, werr := w.n, w.rerr
	w.buf, w.rerr = nil, nil
	switch {
	case err != nil:
		return n, &net.OpError{Op: "write", Net: "tcp", Err: err}
	case werr != nil:
		return n, &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", werr)}
	}
	return n, nil
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
	if err := readErr(err, rerr, n); err != nil {
		if chunk != nil {
			chunks.Put(chunk)
		}
		return nil, 0, err
	}
	return chunk, n, nil
}

// reader and writer are what a connection reads and writes through: its
// waiter where it has one, nc itself otherwise.
func (w *waiter) reader(nc net.Conn) io.Reader {
	if w == nil {
		return nc
	}
	return w
}

func (w *waiter) writer(nc net.Conn) io.Writer {
	if w == nil {
		return nc
	}
	return w
}
