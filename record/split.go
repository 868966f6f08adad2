package record

import (
	"bytes"
	"encoding/json"
)

// emitFunc receives each message of an answer, whole, and the bytes of
// its framing; over when the message passed the limit (or could not be
// kept), msg then nil and framing the bytes that passed. msg is valid
// only during the call.
type emitFunc func(msg []byte, framing int64, over bool)

// splitter cuts an answer into JSON-RPC messages as it streams in. What
// it keeps of a message is in a spool: a few MiB in memory, the rest in
// a file, never the answer twice.
type splitter interface {
	feed(p []byte, emit emitFunc)
	end(emit emitFunc)
}

// newSplitter is the splitter for an answer of media type ct (an event
// stream, else a JSON body); messages past limit bytes are not kept, and
// the part of one past spoolMemory goes to a file in dir.
func newSplitter(sse bool, limit int64, dir string) splitter {
	if sse {
		return &sseSplitter{sp: spool{limit: limit, dir: dir}}
	}
	return &bodySplitter{sp: spool{limit: limit, dir: dir}}
}

// emitSpooled hands the spool's message to emit, framing bytes around it.
func emitSpooled(sp *spool, framing int64, emit emitFunc) {
	msg, release, err := sp.view()
	defer release()
	if err != nil {
		emit(nil, sp.n+framing, true)
		return
	}
	emit(msg, framing, false)
}

// bodySplitter keeps a JSON body whole (one message or a batch).
type bodySplitter struct{ sp spool }

func (s *bodySplitter) feed(p []byte, _ emitFunc) { s.sp.Write(p) }

func (s *bodySplitter) end(emit emitFunc) {
	defer s.sp.reset()
	msg, release, err := s.sp.view()
	defer release()
	if err != nil {
		emit(nil, s.sp.n, true)
		return
	}
	b := bytes.TrimSpace(msg)
	if len(b) > 0 && b[0] == '[' { // a batch (2025-03-26) is copied apart
		var batch []json.RawMessage
		if json.Unmarshal(b, &batch) == nil {
			for _, m := range batch {
				emit(m, 0, false)
			}
		}
		return
	}
	emit(b, s.sp.n-int64(len(b)), false)
}

// sseSplitter reads an event stream: each event's data lines, joined by
// newlines, are one message, streamed into the spool as they arrive (a
// data line may be the whole 64 MiB answer); the rest of the event is
// its framing. Fields other than data are skipped.
type sseSplitter struct {
	sp     spool
	head   []byte // the start of the line, until it is known to be data or not
	inData bool   // the line is a data line, going into the spool
	skip   bool   // the line is another field's
	cr     bool   // the data line's last byte so far is a '\r', held back
	lines  int    // data lines of the event so far
	size   int64  // bytes of the event so far
}

// dataPrefix is how much of a line tells a data line ("data: ").
const dataPrefix = len("data: ")

func (s *sseSplitter) feed(p []byte, emit emitFunc) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.size += int64(len(p))
			s.segment(p)
			return
		}
		s.size += int64(i + 1)
		s.segment(p[:i])
		s.endLine(emit)
		p = p[i+1:]
	}
}

// segment takes the next bytes of the current line.
func (s *sseSplitter) segment(b []byte) {
	switch {
	case s.inData:
		s.data(b)
	case s.skip:
	default:
		n := min(dataPrefix-len(s.head), len(b))
		s.head = append(s.head, b[:n]...)
		if len(s.head) == dataPrefix {
			s.decide()
			s.segment(b[n:])
		}
	}
}

// decide says, from the line's head, whether it is a data line (its value
// starts going into the spool) or another field's.
func (s *sseSplitter) decide() {
	v, ok := bytes.CutPrefix(bytes.TrimSuffix(s.head, []byte("\r")), []byte("data:"))
	s.head = s.head[:0]
	if !ok {
		s.skip = true
		return
	}
	s.inData = true
	if s.lines++; s.lines > 1 {
		s.sp.Write([]byte{'\n'})
	}
	s.data(bytes.TrimPrefix(v, []byte(" ")))
}

// data writes a piece of a data line's value, a last '\r' held back
// until it is known not to end the line.
func (s *sseSplitter) data(b []byte) {
	if len(b) == 0 {
		return
	}
	if s.cr {
		s.sp.Write([]byte{'\r'})
		s.cr = false
	}
	if b[len(b)-1] == '\r' {
		s.cr, b = true, b[:len(b)-1]
	}
	s.sp.Write(b)
}

// endLine ends the current line; an empty one ends the event.
func (s *sseSplitter) endLine(emit emitFunc) {
	if !s.inData && !s.skip {
		if len(bytes.TrimSuffix(s.head, []byte("\r"))) == 0 {
			s.head = s.head[:0]
			s.endEvent(emit)
			return
		}
		s.decide() // a line shorter than the prefix
	}
	s.inData, s.skip, s.cr = false, false, false
}

func (s *sseSplitter) endEvent(emit emitFunc) {
	if s.lines > 0 || s.sp.over() {
		emitSpooled(&s.sp, s.size-s.sp.n, emit)
	}
	s.sp.reset()
	s.lines, s.size = 0, 0
}

func (s *sseSplitter) end(emit emitFunc) {
	if s.inData || s.skip || len(s.head) > 0 {
		s.endLine(emit)
	}
	if s.lines > 0 {
		s.endEvent(emit) // an empty line ends the last event
	}
	s.sp.reset()
}

// lineSplitter reads newline-delimited messages (a stdio server's
// output), each streamed into the spool until its newline.
type lineSplitter struct{ sp spool }

func (s *lineSplitter) feed(p []byte, emit emitFunc) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.sp.Write(p)
			return
		}
		s.sp.Write(p[:i])
		s.endLine(emit, 1)
		p = p[i+1:]
	}
}

func (s *lineSplitter) endLine(emit emitFunc, newline int64) {
	msg, release, err := s.sp.view()
	if err != nil {
		emit(nil, s.sp.n+newline, true)
	} else {
		m := trimNewline(msg)
		emit(m, s.sp.n+newline-int64(len(m)), false)
	}
	release()
	s.sp.reset()
}

func (s *lineSplitter) end(emit emitFunc) {
	if s.sp.n > 0 {
		s.endLine(emit, 0)
	}
	s.sp.reset()
}
