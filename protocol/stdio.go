package protocol

import (
	"bufio"
	"io"
	"time"
)

// LineReader reads newline-delimited JSON-RPC messages from a stdio pipe.
// A message never contains a raw newline, so a line is a message; lines may
// be tens of megabytes (a base64 blob), so they are not bounded here.
type LineReader struct {
	r     *bufio.Reader
	buf   []byte
	first time.Time
}

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

// Next returns the next non-empty line without its terminator (LF or CRLF).
// The slice is only valid until the next call: callers that keep it copy it.
// A last line without a newline is returned before io.EOF.
func (l *LineReader) Next() ([]byte, error) {
	for {
		if _, err := l.r.Peek(1); err == nil { // waits for the line's first byte
			l.first = time.Now()
		}
		var err error
		l.buf, err = appendRawLine(l.r, l.buf[:0])
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
// long it is. At the end of the stream it returns what it read with io.EOF
// (a last line without a terminator).
func appendRawLine(r *bufio.Reader, dst []byte) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice('\n')
		dst = append(dst, chunk...)
		if err != bufio.ErrBufferFull {
			return dst, err
		}
	}
}
