package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseEvents reads a text/event-stream as it arrives and hands each
// event's data to a sink piece by piece (its data lines joined with "\n",
// as the SSE specification says), so that an event of any size is never
// held: the answer scanner reads it as it comes. Framing follows
// protocol.SSEReader: LF or CRLF line ends, one space after the colon
// dropped, comments and unknown fields skipped, a blank line dispatching
// an event that had any field.
type sseEvents struct {
	r *bufio.Reader

	state   int
	field   [8]byte
	flen    int
	name    [32]byte
	nlen    int
	seen    bool // a field line of this event
	hasData bool // a data line of this event: the next is joined with "\n"
	cr      bool // a '\r' held back at the end of a piece of a value
}

// sseEvent is what next says of an event besides its data.
type sseEvent struct {
	name string // the "event" field; "" means "message"
	data int64  // bytes of data handed to the sink
	wire int64  // bytes of the stream the event took, framing included
}

// errSinkStopped is returned by next when the sink asked to stop.
var errSinkStopped = errors.New("stopped by the reader of the event")

// The states of sseEvents, at a byte of the stream.
const (
	evLineStart = iota
	evField     // a field's name
	evDataStart // after "data:": one space is skipped
	evData      // a data value
	evNameStart // after "event:": one space is skipped
	evName      // the event's name
	evSkip      // the rest of a comment or of another field
)

// newSSEEvents reads r with a 64 KiB buffer.
func newSSEEvents(r io.Reader) *sseEvents {
	return &sseEvents{r: bufio.NewReaderSize(r, 64<<10)}
}

// next reads the next event, handing its data to sink (which returns
// false to stop reading there: next then returns errSinkStopped). At a
// clean end of stream it returns io.EOF; cut inside an event,
// io.ErrUnexpectedEOF.
func (e *sseEvents) next(sink func([]byte) bool) (sseEvent, error) {
	var ev sseEvent
	e.state, e.seen, e.hasData, e.cr, e.nlen = evLineStart, false, false, false, 0
	feed := func(b []byte) bool {
		ev.data += int64(len(b))
		return sink(b)
	}
	for {
		piece, err := e.r.ReadSlice('\n')
		ev.wire += int64(len(piece))
		done, ok := e.piece(piece, feed)
		if !ok {
			return ev, errSinkStopped
		}
		if done {
			ev.name = string(e.name[:min(e.nlen, len(e.name))])
			return ev, nil
		}
		switch {
		case err == nil || err == bufio.ErrBufferFull:
		case err == io.EOF && (e.seen || e.state != evLineStart || len(piece) > 0):
			return ev, io.ErrUnexpectedEOF
		default:
			return ev, err
		}
	}
}

// piece follows one piece of a line (ReadSlice's: it ends at the line's
// '\n' or is a full buffer). done reports the blank line that ends an
// event; ok is false when the sink stopped.
func (e *sseEvents) piece(p []byte, sink func([]byte) bool) (done, ok bool) {
	for i := 0; i < len(p); {
		switch e.state {
		case evLineStart:
			c := p[i]
			switch {
			case c == '\n' || (c == '\r' && i+1 < len(p) && p[i+1] == '\n'):
				if e.seen {
					return true, true
				}
				i = len(p) // a blank line before any field
				continue
			case c == ':':
				e.state = evSkip
			default:
				e.state, e.flen = evField, 0
				continue
			}
			i++
		case evField:
			c := p[i]
			i++
			switch {
			case c == ':':
				e.seen = true
				e.state = evSkip
				switch e.fieldName() {
				case "data":
					e.state = evDataStart
				case "event":
					e.state, e.nlen = evNameStart, 0
				}
			case c == '\n' || (c == '\r' && i < len(p) && p[i] == '\n'):
				e.seen = true
				switch e.fieldName() {
				case "data": // "data" alone: an empty data line
					if !e.startData(sink) {
						return false, false
					}
				case "event":
					e.nlen = 0
				}
				e.state = evLineStart
				if c == '\r' {
					i++
				}
			default:
				if e.flen < len(e.field) {
					e.field[e.flen] = c
				}
				e.flen++
			}
		case evDataStart, evNameStart:
			if p[i] == ' ' {
				i++
			}
			if e.state == evNameStart {
				e.state = evName
				continue
			}
			e.state = evData
			if !e.startData(sink) {
				return false, false
			}
		case evData, evName:
			var ok bool
			i, ok = e.value(p, i, sink)
			if !ok {
				return false, false
			}
		case evSkip:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return false, true
			}
			i += j + 1
			e.state = evLineStart
		}
	}
	return false, true
}

// value follows a data value or the event's name from p[i] to the line's
// end or the piece's; a '\r' before the '\n' is not part of it.
func (e *sseEvents) value(p []byte, i int, sink func([]byte) bool) (int, bool) {
	j := bytes.IndexByte(p[i:], '\n')
	end := len(p)
	if j >= 0 {
		end = i + j
	}
	seg := p[i:end]
	if e.cr {
		e.cr = false
		if len(seg) > 0 || j < 0 {
			if !e.put([]byte{'\r'}, sink) {
				return 0, false
			}
		}
	}
	if len(seg) > 0 && seg[len(seg)-1] == '\r' {
		seg = seg[:len(seg)-1]
		e.cr = j < 0 // at a piece's end: a '\n' may follow
	}
	if !e.put(seg, sink) {
		return 0, false
	}
	if j < 0 {
		return len(p), true
	}
	e.state = evLineStart
	return end + 1, true
}

// put hands a piece of a value on: data to the sink, a name kept.
func (e *sseEvents) put(b []byte, sink func([]byte) bool) bool {
	if e.state == evName {
		if e.nlen < len(e.name) {
			copy(e.name[e.nlen:], b)
		}
		e.nlen += len(b)
		return true
	}
	return len(b) == 0 || sink(b)
}

// startData begins a data line: joined to the previous one by "\n".
func (e *sseEvents) startData(sink func([]byte) bool) bool {
	if e.hasData {
		if !sink(newline) {
			return false
		}
	}
	e.hasData = true
	return true
}

var newline = []byte{'\n'}

func (e *sseEvents) fieldName() string {
	if e.flen > len(e.field) {
		return ""
	}
	return string(e.field[:e.flen])
}
