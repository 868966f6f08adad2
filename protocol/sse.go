package protocol

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// Event is one Server-Sent Event. Data joins the event's data lines with
// "\n", as the SSE specification says; an event with empty data (a priming
// event) is still returned so that its id and retry can be kept.
type Event struct {
	ID    string
	Name  string // the "event:" field; "" means "message"
	Data  []byte
	Retry int // milliseconds; 0 when not given
	// HasID and HasRetry say the event carried an id field (an empty one
	// resets the last event id, SEP-1699's resumption needs to know) and
	// a valid retry field.
	HasID, HasRetry bool
	// WireBytes counts every byte of the stream consumed for this event,
	// comments and blank lines included: the framing readbench reports.
	WireBytes int64
}

// SSEReader reads events from a text/event-stream body: the answers'
// streams (NewSSEReader), and the subscriptions' long-lived streams
// (NewSSEReaderSize with a small buffer and NextInto with a reused one,
// so that thousands of idle streams cost little).
type SSEReader struct {
	r    *bufio.Reader
	line []byte
	max  int64      // 0: unbounded
	tail *eventTail // the rest of an event over max, still to be discarded; nil when none
	// keepLine, when above 0, is the largest line buffer kept between
	// events: a long line's buffer is not held by an idle stream.
	keepLine int
	comments int64 // comment lines read (keep-alives)
}

// SetMax bounds an event's data, and any one line, to n bytes; 0 removes
// the bound. A bigger event is never held whole: Next returns a
// *TooLargeError as soon as it knows the JSON-RPC id in the event's data
// (or at the event's end) and discards the rest of the event on the
// following call, so a stream shared by many requests stays usable.
func (s *SSEReader) SetMax(n int64) { s.max = max(n, 0) }

// NewSSEReader wraps r with a 64 KiB read buffer, for answers.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// NewSSEReaderSize wraps r with a read buffer of size bytes (it bounds
// only the buffer, not the event), for streams that stay open idle: a
// line longer than 4 KiB is read, and its buffer let go once its event
// was returned.
func NewSSEReaderSize(r io.Reader, size int) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, size), keepLine: 4 << 10}
}

// Buffered is how many bytes the reader holds unread: none, and the next
// event must be read from the stream (a caller may wait for it first).
func (s *SSEReader) Buffered() int { return s.r.Buffered() }

// Comments is how many comment lines (": …", a server's keep-alives) the
// reader has read so far.
func (s *SSEReader) Comments() int64 { return s.comments }

// Next returns the next event. It returns io.EOF at a clean end of stream;
// a stream cut inside an event returns io.ErrUnexpectedEOF.
func (s *SSEReader) Next() (Event, error) { return s.NextInto(nil) }

// NextInto is Next with the event's data appended to data[:0], so that a
// stream's reader reuses one buffer.
func (s *SSEReader) NextInto(data []byte) (Event, error) {
	ev, err := s.next(data[:0])
	if s.keepLine > 0 && cap(s.line) > s.keepLine {
		s.line = nil
	}
	return ev, err
}

// next reads one event into data.
func (s *SSEReader) next(data []byte) (Event, error) {
	var ev Event
	if s.tail != nil {
		n, err := s.discardEvent()
		ev.WireBytes += n
		if err != nil {
			return ev, err
		}
	}
	seen := false // any field line of this event
	hasData := false
	for {
		line, n, err := s.readLine()
		ev.WireBytes += int64(n)
		if o, ok := err.(*overflow); ok {
			return ev, s.tooLarge(&ev, data, hasData, [][]byte{s.line, o.chunk})
		}
		if err != nil {
			if err == io.EOF && (seen || n > 0) {
				return ev, io.ErrUnexpectedEOF
			}
			return ev, err
		}
		if len(line) == 0 { // blank line dispatches
			if !seen {
				continue
			}
			ev.Data = data
			return ev, nil
		}
		if line[0] == ':' { // comment
			s.comments++
			continue
		}
		seen = true
		field, value := SSEField(line)
		switch string(field) {
		case "data":
			if s.max > 0 && int64(len(data)+len(value)) > s.max {
				ev.WireBytes -= int64(n) // the line is counted again, as it is fed
				return ev, s.tooLarge(&ev, data, hasData, [][]byte{s.line})
			}
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			hasData = true
		case "event":
			ev.Name = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.ID, ev.HasID = string(value), true
			}
		case "retry":
			if ms, err := strconv.Atoi(string(value)); err == nil && ms >= 0 {
				ev.Retry, ev.HasRetry = ms, true
			}
		}
	}
}

// readLine returns one line without its terminator (LF, CRLF or CR) and the
// number of bytes consumed including the terminator. The returned slice is
// valid until the next call.
func (s *SSEReader) readLine() ([]byte, int, error) {
	var err error
	s.line, err = appendRawLine(s.r, s.line[:0], s.max)
	if _, over := err.(*overflow); over {
		return nil, 0, err // tooLarge counts the line's bytes as it reads them
	}
	if err != nil {
		// A last line without terminator is not a complete line.
		return nil, len(s.line), err
	}
	n := len(s.line)
	line := s.line[:n-1]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	// A lone CR inside the line also ends a line in SSE; servers in
	// practice use LF, so CR-only framing is treated as part of the value.
	return line, n, nil
}

// WriteEvent writes one event with the given name (may be empty) and data,
// splitting data on newlines into several data lines.
func WriteEvent(w io.Writer, id, name string, data []byte) error {
	var b bytes.Buffer
	if id != "" {
		fmt.Fprintf(&b, "id: %s\n", id)
	}
	if name != "" {
		fmt.Fprintf(&b, "event: %s\n", name)
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		b.WriteString("data: ")
		b.Write(data[:i])
		b.WriteByte('\n')
		data = data[i+1:]
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
	_, err := w.Write(b.Bytes())
	return err
}

// SSEField splits one line of an event stream into its field and value,
// the one space after the colon dropped (a line without a colon is a
// field with an empty value), as the HTML standard's event stream
// parsing says: every reader of event streams splits lines this one way.
func SSEField(line []byte) (field, value []byte) {
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return line, nil
	}
	field, value = line[:i], line[i+1:]
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	return field, value
}
