package protocol

import (
	"bufio"
	"io"
)

// LineReader reads newline-delimited JSON-RPC messages from a stdio pipe.
// A message never contains a raw newline, so a line is a message; lines may
// be tens of megabytes (a base64 blob), so they are not bounded here.
type LineReader struct {
	r   *bufio.Reader
	buf []byte
}

// NewLineReader wraps r with a 256 KiB read buffer.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 256<<10)}
}

// Next returns the next non-empty line without its terminator (LF or CRLF).
// The slice is only valid until the next call: callers that keep it copy it.
// A last line without a newline is returned before io.EOF.
func (l *LineReader) Next() ([]byte, error) {
	for {
		l.buf = l.buf[:0]
		for {
			chunk, err := l.r.ReadSlice('\n')
			l.buf = append(l.buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF && len(l.buf) > 0 {
					return l.buf, nil
				}
				return nil, err
			}
			break
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
