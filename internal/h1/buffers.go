package h1

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"sync"
)

// A connection holds buffers only while it moves bytes: a request's
// writer while the request is written, a response's reader from the
// response's first byte until its body has been read. A connection that
// waits for its answer (a server that takes a second) or sits idle in the
// pool holds neither, so a run of thousands of reads in flight costs a
// connection each, not a connection and 8 KiB of buffers. The buffers
// come from pools shared by every Transport of the process (net/http's
// bufio pools are shared the same way): how many exist follows the I/O
// under way at one moment, not the connections or sessions open.
var (
	bodies  sync.Pool // *[]byte: a request's body until it is written (reqBody)
	writers sync.Pool // *bufio.Writer of bufSize
	readers sync.Pool // *bufio.Reader of bufSize
	chunks  sync.Pool // *[bufSize]byte: a response's first bytes (awaitResponse)
)

// reqBody holds a request's body from RoundTrip's start until the
// request is written (or RoundTrip ends): a request whose answer takes a
// second holds no copy of its body meanwhile. It is RoundTrip's own
// value, so the buffer goes back to the pool once.
type reqBody struct {
	p        *[]byte // a buffer of the pool
	borrowed []byte  // or the caller's bytes (WholeBody): never put in the pool
}

// bytes is the body (nil when there is none, or once released).
func (b *reqBody) bytes() []byte {
	if b.p == nil {
		return b.borrowed
	}
	return *b.p
}

// release gives the body's buffer back; a second call does nothing.
func (b *reqBody) release() {
	if b.p != nil {
		*b.p = (*b.p)[:0]
		bodies.Put(b.p)
	}
	b.p, b.borrowed = nil, nil
}

// readBody reads r to its end into a buffer of the pool.
func readBody(r io.Reader) (reqBody, error) {
	p, ok := bodies.Get().(*[]byte)
	if !ok {
		p = new([]byte)
	}
	b := reqBody{p: p}
	buf := *p
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			*p = buf
			return b, nil
		}
		if err != nil {
			*p = buf
			b.release()
			return reqBody{}, err
		}
	}
}

func getWriter(w io.Writer) *bufio.Writer {
	if bw, ok := writers.Get().(*bufio.Writer); ok {
		bw.Reset(w)
		return bw
	}
	return bufio.NewWriterSize(w, bufSize)
}

func putWriter(bw *bufio.Writer) {
	bw.Reset(nil)
	writers.Put(bw)
}

func getReader(r io.Reader) *bufio.Reader {
	if br, ok := readers.Get().(*bufio.Reader); ok {
		br.Reset(r)
		return br
	}
	return bufio.NewReaderSize(r, bufSize)
}

func getChunk() *[bufSize]byte {
	if b, ok := chunks.Get().(*[bufSize]byte); ok {
		return b
	}
	return new([bufSize]byte)
}

// streamBufSize is the read buffer of a response whose body is an event
// stream (text/event-stream): such a body stays open for minutes or hours,
// by the thousand (listen streams, standalone GET streams), carrying an
// event of a few hundred bytes now and then, and its reader reads it
// through a buffer of its own; a bigger event is read through this one
// piece by piece.
const streamBufSize = 512

// isEventStream reports whether a response's Content-Type is
// text/event-stream.
func isEventStream(h http.Header) bool {
	ct := h["Content-Type"]
	if len(ct) == 0 {
		return false
	}
	const want = "text/event-stream"
	v := strings.TrimLeft(ct[0], " \t")
	return len(v) >= len(want) && strings.EqualFold(v[:len(want)], want) &&
		(len(v) == len(want) || v[len(want)] == ';' || v[len(want)] == ' ' || v[len(want)] == '\t')
}

// streamReader trades the connection's reader, once an event stream's
// head has been parsed, for one of streamBufSize bytes in place (the
// body's framing holds the *bufio.Reader: its value is what changes), so
// that an open stream does not hold a bufSize buffer for its lifetime; the
// connection's cache of head lines is let go too.
// The bytes buffered past the head (the first events, a chunk's size)
// are read first through the limitReader; the big buffer goes back to the
// pool. When more than streamBufSize bytes are buffered the reader is
// kept as it is.
func (c *conn) streamReader() {
	c.heads = headCache{} // the lines of heads read before: a stream's connection reads no other for its lifetime
	n := c.br.Buffered()
	if n > streamBufSize || c.br.Size() <= streamBufSize || len(c.lim.first) != 0 {
		return
	}
	rest, _ := c.br.Peek(n)
	c.lim.dropFirst() // read whole into the reader's buffer (len(c.lim.first) == 0)
	small := bufio.NewReaderSize(&c.lim, streamBufSize)
	if n > 0 {
		c.lim.first = rest // read into small's buffer, before big's goes back
		small.Peek(n)
		c.lim.first = nil
	}
	big := new(bufio.Reader)
	*big = *c.br
	*c.br = *small
	big.Reset(nil)
	readers.Put(big)
}

// dropReader gives the connection's reader back to the pool, once no
// byte it buffers is wanted: the response was read to its end, or the
// connection is closed. A stream's small reader (streamReader) is not
// pooled.
func (c *conn) dropReader() {
	c.lim.err = nil
	if c.br != nil && c.br.Size() != bufSize {
		c.br = nil
		c.lim.dropFirst()
		return
	}
	if c.br != nil {
		c.br.Reset(nil)
		readers.Put(c.br)
		c.br = nil
	}
	c.lim.dropFirst()
}

// awaitResponse waits for the response's first bytes and sets up the
// reader that parses it. Where the connection allows (a socket), the
// wait holds no buffer: a chunk is taken only for the read that follows
// readiness, in the same number of syscalls as a plain read (awaitFirst),
// and its bytes are the reader's first.
func (c *conn) awaitResponse() error {
	if c.raw != nil {
		chunk, n, err := c.raw.awaitFirst()
		if err != nil {
			return err
		}
		c.lim.first, c.lim.firstBuf = chunk[:n], chunk
		c.lim.left -= int64(n)
	}
	c.br = getReader(&c.lim)
	_, err := c.br.Peek(1)
	return err
}

// dropFirst gives back the chunk of a response's first bytes.
func (l *limitReader) dropFirst() {
	if l.firstBuf != nil {
		chunks.Put(l.firstBuf)
		l.first, l.firstBuf = nil, nil
	}
}
