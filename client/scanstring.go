package client

import (
	"bytes"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
)

// Strings as they stream: a stretch with nothing to decode (plainRun,
// eight bytes at a time) or, past an escape or in a blob, the stretch to
// the closing quote found with bytes.IndexByte (assembly in the Go
// runtime), is handed on whole to what the string is (a member name, a
// text, a blob); escapes are followed byte by byte, across chunk
// boundaries. A blob is first decoded ahead, with no search for its
// quote, as far as it decodes cleanly (blobState.ahead): the search is
// left to the piece that holds its end.

// maxSmallField bounds a captured member (id, uri, mimeType, resultType,
// ttlMs, cacheScope); maxErrorField a JSON-RPC error object; jsonTextKeep
// a text entry kept for the check that text declared as JSON is JSON.
const (
	maxSmallField = 64 << 10
	maxErrorField = 1 << 20
	jsonTextKeep  = 1 << 20
)

// startString begins a string of role r whose opening quote is
// at p[i].
func (s *answerScanner) startString(r uint8, i int) {
	s.state, s.strRole, s.esc = sString, r, 0
	s.strStart = s.offset + int64(i)
}

// stringBytes continues a string from p[i] and returns where it stopped.
func (s *answerScanner) stringBytes(p []byte, i int) int {
	for i < len(p) {
		if s.esc != 0 {
			i = s.escapeByte(p, i)
			if s.state == sBroken {
				return i
			}
			continue
		}
		if s.strRole == rText && !s.dig.on && s.text.high == 0 && s.text.nc == 0 {
			if i = s.text.fast(p, i); i == len(p) {
				return i
			}
		}
		if s.strRole == rBlob {
			if i += s.blob.ahead(p[i:], &s.dig); i == len(p) {
				return i
			}
		}
		if s.strRole != rBlob {
			// Most strings hold nothing to decode: one pass to the
			// quote, a backslash or a control, which the general path
			// below takes.
			if j, _ := protocol.PlainRun(p, i); j > i {
				s.content(p[i:j])
				i = j
			}
			if i == len(p) {
				return i
			}
			if p[i] == '"' {
				return s.closeString(p, i)
			}
		}
		if s.qpos < i {
			s.qpos = len(p)
			if q := bytes.IndexByte(p[i:], '"'); q >= 0 {
				s.qpos = i + q
			}
			if s.strRole != rBlob && s.invalid == "" {
				// The stretch to the quote at once, its escapes and
				// all: one pass, however short the runs between escapes.
				s.controlIn(p[i:s.qpos], i)
			}
		}
		seg := p[i:s.qpos]
		if s.strRole != rBlob { // a blob's validation finds a backslash itself
			if b := bytes.IndexByte(seg, '\\'); b >= 0 {
				seg = seg[:b]
			}
		}
		if len(seg) > 0 {
			n := s.content(seg)
			if s.strRole == rBlob && s.blob.bad {
				// Only a blob that left the alphabet can hold a control.
				s.controlIn(seg[:n], i)
			}
			i += n
			if n < len(seg) { // a blob stopped at a backslash
				s.esc = 1
				i++
				continue
			}
		}
		if i == len(p) {
			return i
		}
		if p[i] == '\\' {
			s.esc = 1
			i++
			continue
		}
		return s.closeString(p, i)
	}
	return i
}

// content hands raw string bytes (no quote; no backslash except for a
// blob) to what the string is. It returns how many it took: a blob stops
// at a backslash.
func (s *answerScanner) content(seg []byte) int {
	switch s.strRole {
	case rKey:
		if s.keyLen < len(s.key) {
			copy(s.key[s.keyLen:], seg)
		}
		s.keyLen += len(seg)
	case rText:
		s.text.raw(seg, &s.dig)
	case rBlob:
		return s.blob.raw(seg, &s.dig)
	}
	return len(seg)
}

// escapeByte reads one byte of an escape at p[i].
func (s *answerScanner) escapeByte(p []byte, i int) int {
	c := p[i]
	if s.esc == 1 {
		if c == 'u' {
			s.esc, s.uval = 2, 0
			return i + 1
		}
		r, ok := protocol.Unescape(c)
		if !ok {
			s.broken(i, "bad escape")
			return i
		}
		s.escaped(rune(r), false)
		s.esc = 0
		return i + 1
	}
	h, ok := protocol.HexDigit(c)
	if !ok {
		s.broken(i, "bad \\u escape")
		return i
	}
	s.uval = s.uval<<4 | h
	s.esc++
	if s.esc == 6 {
		s.esc = 0
		s.escaped(s.uval, true)
	}
	return i + 1
}

// escaped hands a whole escape (its rune; u: a \u escape) on.
func (s *answerScanner) escaped(r rune, u bool) {
	switch s.strRole {
	case rKey:
		s.keyLen = len(s.key) + 1 // a name with an escape is none readbench looks for
	case rText:
		s.text.escape(r, u, &s.dig)
	case rBlob:
		if r >= utf8.RuneSelf {
			s.blob.bad = true // not in the alphabet, whatever it decodes to
			return
		}
		s.blob.char(byte(r), &s.dig)
	}
}

// closeString ends the string whose closing quote is p[i] and returns
// where the walk goes on: past the colon too when one follows a member
// name at once, as it does in what servers send.
func (s *answerScanner) closeString(p []byte, i int) int {
	s.endString(p, i)
	if s.state == sColon && i+1 < len(p) && p[i+1] == ':' {
		s.role = s.memberRole()
		s.state = sValue
		return i + 2
	}
	return i + 1
}

// endString ends the string whose closing quote is p[i].
func (s *answerScanner) endString(p []byte, i int) {
	switch s.strRole {
	case rKey:
		s.state = sColon
		return
	case rText:
		s.text.finish(&s.dig)
		if s.text.keepOn {
			s.text.keepBytes(p[s.text.keepFrom : i+1])
			s.text.keepOn = false
		}
		e := &s.entry
		e.textN, e.textKeep = s.text.n, !s.text.keepLost
	case rBlob:
		e := &s.entry
		e.blobRaw = s.offset + int64(i) - s.strStart - 1
		e.blobOK, e.blobN, e.blobP = s.blob.finish(&s.dig)
		e.headLen = s.blob.decodeHead(e.head[:])
	}
	s.valueEnd(p, i+1)
}
