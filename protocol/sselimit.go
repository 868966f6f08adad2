package protocol

import (
	"bufio"
	"bytes"
)

// An event over an SSEReader's limit is read on without being kept: its
// data lines go through an IDScanner (joined by "\n", as the event's data
// would be) until the JSON-RPC id is known or the event ends, and the rest
// of the event is discarded by the next call to Next.

// tooLarge gives up on the event being read: data is its data so far
// (hasData: at least one data line) and pieces the bytes read so far of
// the line that passed the limit.
func (s *SSEReader) tooLarge(ev *Event, data []byte, hasData bool, pieces [][]byte) *TooLargeError {
	var sc IDScanner
	_, _ = sc.Write(data)
	t := &eventTail{sc: &sc, hasData: hasData, state: atLineStart}
	for _, p := range pieces {
		t.feed(p)
		ev.WireBytes += int64(len(p))
	}
	for !t.ended && !sc.Done() {
		n, ended, err := t.drain(s.r)
		ev.WireBytes += n
		if ended || err != nil {
			t.ended = true
		}
	}
	s.tail = nil
	if !t.ended {
		t.sc = nil
		s.tail = t // discarded by the next call
	}
	id, _ := sc.ID()
	return &TooLargeError{Limit: s.max, Read: ev.WireBytes, ID: id}
}

// discardEvent discards the rest of an event given up on and returns the
// bytes it read.
func (s *SSEReader) discardEvent() (int64, error) {
	t := s.tail
	s.tail = nil
	var total int64
	for {
		n, ended, err := t.drain(s.r)
		total += n
		if ended || err != nil {
			return total, err
		}
	}
}

// The states of eventTail, at a byte of the stream.
const (
	atLineStart = iota // the first byte of a line
	inField            // a field's name
	atValue            // just after the colon: one space is skipped
	inValue            // a data field's value
	inOther            // the rest of any other line
)

// eventTail follows the lines of an event byte by byte without keeping
// them, handing the values of data lines to sc (nil: discard only).
type eventTail struct {
	sc      *IDScanner
	state   int
	field   [5]byte
	flen    int
	hasData bool // a data line came before: the next is joined with "\n"
	ended   bool // the blank line that ends the event was read
}

// drain reads on from r, one slice at a time, until the event ends or sc
// needs no more. It returns the bytes read, whether the event ended, and
// the stream's error.
func (t *eventTail) drain(r *bufio.Reader) (int64, bool, error) {
	var n int64
	for {
		chunk, err := r.ReadSlice('\n')
		n += int64(len(chunk))
		t.feed(chunk)
		switch {
		case t.ended:
			return n, true, nil
		case err != nil && err != bufio.ErrBufferFull:
			return n, true, err
		case t.sc != nil && t.sc.Done():
			return n, false, nil
		}
	}
}

// feed follows p.
func (t *eventTail) feed(p []byte) {
	for i := 0; i < len(p) && !t.ended; i++ {
		c := p[i]
		switch t.state {
		case atLineStart:
			switch c {
			case '\n':
				t.ended = true
			case '\r':
			default:
				t.flen = 0
				t.state = inField
				i-- // the byte starts the field's name
			}
		case inField:
			switch c {
			case ':':
				t.state = inOther
				if t.isData() {
					t.state = atValue
				}
			case '\n':
				t.state = atLineStart
				if t.isData() { // "data" alone: an empty data line
					t.startData()
				}
			default:
				if t.flen < len(t.field) {
					t.field[t.flen] = c
				}
				t.flen++
			}
		case atValue:
			t.startData()
			t.state = inValue
			if c != ' ' {
				i--
			}
		case inValue:
			j := bytes.IndexByte(p[i:], '\n')
			end := len(p)
			if j >= 0 {
				end = i + j
			}
			if t.sc != nil {
				_, _ = t.sc.Write(p[i:end])
			}
			i = end - 1
			if j >= 0 {
				t.state = atLineStart
				i = end
			}
		case inOther:
			if j := bytes.IndexByte(p[i:], '\n'); j >= 0 {
				i += j
				t.state = atLineStart
			} else {
				i = len(p)
			}
		}
	}
}

func (t *eventTail) isData() bool { return t.flen == 4 && string(t.field[:4]) == "data" }

// startData begins a data line's value: joined to the previous one by "\n".
func (t *eventTail) startData() {
	if t.hasData && t.sc != nil {
		_, _ = t.sc.Write([]byte{'\n'})
	}
	t.hasData = true
}
