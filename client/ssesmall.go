package client

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"github.com/readbench/readbench/protocol"
)

// smallEvents reads the text/event-stream of a subscription (a listen
// stream, a legacy standalone GET stream): small events, rare, on streams
// that stay open for hours by the thousand. Its read buffer is listenBuf
// bytes and the event being read is kept only up to maxNotification;
// unlike sseEvents (the answers' reader), it keeps each event's id and
// retry, which resuming a standalone stream needs (SEP-1699). Framing
// follows protocol.SSEReader: LF or CRLF line ends, one space after the
// colon dropped, comments and unknown fields skipped, a blank line
// dispatching an event that had any field.
type smallEvents struct {
	r    *bufio.Reader
	line []byte // a line longer than the read buffer, gathered (bounded)
}

// smallEvent is one event: its data in the caller's buffer, over when the
// data passed maxNotification (the rest was read and dropped).
type smallEvent struct {
	name  string
	id    string
	hasID bool
	retry int // ms; -1 when not given
	data  []byte
	over  bool
	any   bool // a data line came (an event with empty data is a priming event)
}

func newSmallEvents(r io.Reader) *smallEvents {
	return &smallEvents{r: bufio.NewReaderSize(r, listenBuf)}
}

// next reads the next event, appending its data to data[:0]. At a clean
// end of stream it returns io.EOF; cut inside an event,
// io.ErrUnexpectedEOF.
func (s *smallEvents) next(data []byte) (smallEvent, error) {
	ev := smallEvent{retry: -1, data: data[:0]}
	seen := false
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && (seen || len(line) > 0) {
				err = io.ErrUnexpectedEOF
			}
			return ev, err
		}
		if len(line) == 0 {
			if seen {
				return ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		seen = true
		field, value := protocol.SSEField(line)
		switch string(field) {
		case "data":
			if ev.any {
				value = append([]byte{'\n'}, value...)
			}
			ev.any = true
			if ev.over || len(ev.data)+len(value) > maxNotification {
				ev.over, ev.data = true, ev.data[:0]
				continue
			}
			ev.data = append(ev.data, value...)
		case "event":
			ev.name = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.id, ev.hasID = string(value), true
			}
		case "retry":
			if ms, err := strconv.Atoi(string(value)); err == nil && ms >= 0 {
				ev.retry = ms
			}
		}
	}
}

// readLine returns the next line without its end (LF or CRLF); a line
// longer than maxNotification plus a little is cut there (its rest read
// and dropped), which makes its event's data over the bound.
func (s *smallEvents) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		piece, err := s.r.ReadSlice('\n')
		if len(s.line) <= maxNotification+16 {
			s.line = append(s.line, piece[:min(len(piece), maxNotification+17-len(s.line))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return s.line, err
		}
		line := bytes.TrimSuffix(s.line[:len(s.line)-min(1, len(s.line))], []byte{'\r'})
		if cap(s.line) > 4<<10 && len(line) <= listenBuf {
			line = bytes.Clone(line) // a long line's buffer is not kept by an idle stream
			s.line = nil
		}
		return line, nil
	}
}
