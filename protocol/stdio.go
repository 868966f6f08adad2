package protocol

import (
	"bufio"
	"bytes"
	"io"
	"time"
)

// LineReader reads newline-delimited JSON-RPC messages from a stdio pipe.
// A message never contains a raw newline, so a line is a message; lines may
// be tens of megabytes (a base64 blob), so they are unbounded unless SetMax
// bounds them.
type LineReader struct {
	r     *bufio.Reader
	buf   []byte
	first time.Time
	max   int64 // 0: unbounded
	skip  bool  // the rest of a line over max is still to be discarded
}

// SetMax bounds a line to n bytes (its terminator not counted); 0 removes
// the bound. A longer line is never held whole: Next returns a
// *TooLargeError as soon as it knows the line's JSON-RPC id (or at the
// line's end) and discards the rest of the line on the following call.
func (l *LineReader) SetMax(n int64) { l.max = max(n, 0) }

// FirstByte is when the first byte of the line last returned was there to
// read: with the time of its last byte, a client's time to first byte and
// the transfer time of a large answer on a pipe.
func (l *LineReader) FirstByte() time.Time { return l.first }

// NewLineReader wraps r with a 256 KiB read buffer.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 256<<10)}
}

// NextOwned is Next, but the caller owns the returned slice: the reader
// starts a new buffer for the next line. A 160 MB answer is then held
// once, not read into a buffer and copied out of it.
func (l *LineReader) NextOwned() ([]byte, error) {
	line, err := l.Next()
	if err == nil {
		l.buf = nil
	}
	return line, err
}

// HasLine reports whether a whole non-empty line is already buffered, so
// that Next returns it without waiting for input: a server that writes its
// answers through a buffer flushes them when HasLine says it is about to
// wait.
func (l *LineReader) HasLine() bool {
	if l.skip {
		return false
	}
	b, _ := l.r.Peek(l.r.Buffered()) // never waits: only what is buffered
	for {
		k := bytes.IndexByte(b, '\n')
		if k < 0 {
			return false
		}
		if len(bytes.TrimRight(b[:k], "\r")) > 0 {
			return true
		}
		b = b[k+1:]
	}
}

// Next returns the next non-empty line without its terminator (LF or CRLF).
// The slice is only valid until the next call: callers that keep it copy it.
// A last line without a newline is returned before io.EOF.
func (l *LineReader) Next() ([]byte, error) {
	for {
		if l.skip {
			if err := l.discardLine(); err != nil {
				return nil, err
			}
		}
		if _, err := l.r.Peek(1); err == nil { // waits for the line's first byte
			l.first = time.Now()
		}
		var err error
		l.buf, err = appendRawLine(l.r, l.buf[:0], l.max)
		if o, ok := err.(*overflow); ok {
			return nil, l.tooLarge(l.buf, o)
		}
		if err != nil && (err != io.EOF || len(l.buf) == 0) {
			return nil, err
		}
		line := l.buf
		for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
			line = line[:len(line)-1]
		}
		if len(line) > 0 {
			return line, nil
		}
	}
}

// appendRawLine appends one line, terminator included, to dst, however
// long it is when limit is 0. At the end of the stream it returns what it
// read with io.EOF (a last line without a terminator). A line of more than
// limit bytes (terminator not counted) is not appended whole: dst then
// holds its start, and the error is an *overflow with the piece that
// passed the limit.
func appendRawLine(r *bufio.Reader, dst []byte, limit int64) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if limit > 0 && int64(len(dst)+len(bytes.TrimRight(chunk, "\r\n"))) > limit {
			return dst, &overflow{chunk: chunk, err: err}
		}
		dst = append(dst, chunk...)
		if err != bufio.ErrBufferFull {
			return dst, err
		}
	}
}

// overflow is a line that passed the limit: chunk is the piece read last
// (valid until the next read) and err what reading it said.
type overflow struct {
	chunk []byte
	err   error
}

func (o *overflow) Error() string { return "a line over the size limit" }

// drainLine reads on through a line that passed the limit, handing each
// piece to feed (keeping none), until enough says so or the line ends. It
// returns the bytes read and whether the line ended.
func drainLine(r *bufio.Reader, o *overflow, feed func([]byte), enough func() bool) (read int64, ended bool) {
	chunk, err := o.chunk, o.err
	for {
		feed(chunk)
		read += int64(len(chunk))
		if err != bufio.ErrBufferFull {
			return read, true
		}
		if enough() {
			return read, false
		}
		chunk, err = r.ReadSlice('\n')
	}
}

// tooLarge gives up on a line that passed the limit (head is its start):
// it reads on until the line's id is known, and leaves the rest of the
// line to be discarded by the next call.
func (l *LineReader) tooLarge(head []byte, o *overflow) *TooLargeError {
	var sc IDScanner
	_, _ = sc.Write(head)
	n, ended := drainLine(l.r, o, func(p []byte) { _, _ = sc.Write(p) }, sc.Done)
	l.skip = !ended
	id, _ := sc.ID()
	return &TooLargeError{Limit: l.max, Read: int64(len(head)) + n, ID: id}
}

// discardLine discards the rest of a line given up on. It returns nil at
// the line's end, the reading error (io.EOF) when the stream ends first.
func (l *LineReader) discardLine() error {
	for {
		_, err := l.r.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			l.skip = false
			return err
		}
	}
}
