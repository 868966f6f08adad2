package protocol

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrTooLarge is wrapped by the error a reader returns for a message over
// its size limit (LineReader.SetMax, SSEReader.SetMax). Test with
// errors.Is; errors.As with *TooLargeError gives the details.
var ErrTooLarge = errors.New("message over the size limit")

// TooLargeError is one message (a stdio line, an SSE event) that passed the
// reader's limit. The reader kept no more than the limit of its bytes: it
// stopped as soon as it knew the message's JSON-RPC id, or at the message's
// end, and the next call discards what is left of the message first, so
// the stream stays usable (a stdio pipe and an HTTP+SSE stream are shared
// by many requests).
type TooLargeError struct {
	Limit int64  // the reader's limit in bytes
	Read  int64  // bytes of the message read when the reader gave up on it (more than Limit)
	ID    []byte // the message's top-level "id", raw, when it was seen; nil otherwise
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("a message of more than %d bytes (the answer size limit; %d read when it was given up on)", e.Limit, e.Read)
}

// Unwrap makes every TooLargeError match ErrTooLarge.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// maxIDBytes bounds what IDScanner keeps of an id: a JSON-RPC id readbench
// sent is an integer of at most 20 digits; anything longer is not ours.
const maxIDBytes = 64

// IDScanner finds the top-level "id" member of a JSON object fed to it in
// pieces, keeping only a few bytes whatever the object's size: a message
// over the size limit is discarded as it arrives, yet its answer must still
// reach the request it answers. Feed it with Write; ID says what it found.
// It never fails: on input that is not an object it finds nothing.
type IDScanner struct {
	depth     int
	inStr     bool
	esc       bool
	expectKey bool // at the top level, the next string is a member name
	inKey     bool
	key       [8]byte
	keyLen    int
	keyOdd    bool // the name is longer than key or has escapes: not "id"
	isID      bool // the last member name was "id"
	capturing bool // inside the id's value
	val       []byte
	done      bool
	found     bool
}

// Write feeds p; it never fails (it implements io.Writer for io.Copy).
func (s *IDScanner) Write(p []byte) (int, error) {
	for _, c := range p {
		if s.done {
			break
		}
		s.scan(c)
	}
	return len(p), nil
}

// Done reports whether more input cannot change what ID says.
func (s *IDScanner) Done() bool { return s.done }

// ID returns the raw value of the top-level "id" member (whitespace
// outside strings removed) and whether one was found whole.
func (s *IDScanner) ID() ([]byte, bool) {
	if !s.found {
		return nil, false
	}
	return bytes.Clone(s.val), true
}

func (s *IDScanner) scan(c byte) {
	if s.inStr {
		s.scanString(c)
		return
	}
	switch c {
	case ' ', '\t', '\r', '\n':
	case '"':
		s.inStr = true
		if s.depth == 1 && s.expectKey {
			s.inKey, s.expectKey, s.keyLen, s.keyOdd = true, false, 0, false
			return
		}
		s.add(c)
	case '{', '[':
		s.add(c)
		s.depth++
		if s.depth == 1 {
			s.expectKey = true
			s.done = c != '{' // not an object: no id
		}
	case '}', ']':
		if s.depth > 1 {
			s.add(c)
		}
		s.depth--
		if s.depth <= 0 {
			s.finish()
			s.done = true
		}
	case ',':
		if s.depth == 1 {
			s.finish()
			s.expectKey = true
			return
		}
		s.add(c)
	case ':':
		if s.depth == 1 {
			s.capturing, s.isID = s.isID, false
			return
		}
		s.add(c)
	default:
		if s.depth == 0 {
			s.done = true // not an object
			return
		}
		s.add(c)
	}
}

// scanString handles one byte inside a string.
func (s *IDScanner) scanString(c byte) {
	s.add(c)
	switch {
	case s.esc:
		s.esc = false
		s.keyOdd = true
	case c == '\\':
		s.esc = true
	case c == '"':
		s.inStr = false
		if s.inKey {
			s.inKey = false
			s.isID = !s.keyOdd && string(s.key[:s.keyLen]) == "id"
		}
	case s.inKey:
		if s.keyLen == len(s.key) {
			s.keyOdd = true
			return
		}
		s.key[s.keyLen] = c
		s.keyLen++
	}
}

// add keeps c when it belongs to the id's value.
func (s *IDScanner) add(c byte) {
	if !s.capturing {
		return
	}
	if len(s.val) == maxIDBytes {
		s.capturing, s.val, s.done = false, nil, true // too long to be an id readbench sent
		return
	}
	s.val = append(s.val, c)
}

// finish ends the value being captured, if any: the first id wins.
func (s *IDScanner) finish() {
	if s.capturing {
		s.capturing, s.found, s.done = false, true, true
	}
}
