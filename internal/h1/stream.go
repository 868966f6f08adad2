package h1

import "io"

// AwaitBody waits until the body has something to read: bytes buffered,
// bytes (or the server's close) on the connection, or the end of the
// wait the connection's deadline or the request's context makes. It
// reads what arrived into a chunk of the pool (awaitFirst), which the
// body's next read takes first and gives back once read through: the
// same system calls as a read that waited itself; the read that follows
// says what came, an error included. A long-lived stream (an event stream that is idle for
// minutes) waits here rather than in a read: the wait holds no buffer
// and only a shallow stack (a few frames of the caller's), which the
// garbage collector shrinks while the stream is idle, where a read
// blocked under the body's framing and readers holds the stack those
// layers grew. A body of another transport, or a connection without a
// descriptor, returns at once.
func AwaitBody(body io.Reader) {
	b, ok := body.(*bodyReader)
	if !ok || b.done || b.c.raw == nil || b.c.br == nil {
		return
	}
	c := b.c
	if c.br.Buffered() != 0 || len(c.lim.first) != 0 || c.lim.err != nil {
		return
	}
	chunk, n, err := c.raw.awaitFirst()
	if err != nil {
		c.lim.err = err // the next read's, as if it had waited itself
		return
	}
	c.lim.first, c.lim.firstBuf = chunk[:n], chunk
}
