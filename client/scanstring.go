package client

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Strings as they stream: a stretch with nothing to decode (plainRun,
// eight bytes at a time) or, past an escape or in a blob, the stretch to
// the closing quote found with bytes.IndexByte (assembly in the Go
// runtime), is handed on whole to what the string is (a member name, a
// text, a blob); escapes are followed byte by byte, across chunk
// boundaries.

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
		if s.strRole != rBlob {
			// Most strings hold nothing to decode: one pass to the
			// quote, a backslash or a control, which the general path
			// below takes.
			if j, _ := plainRun(p, i); j > i {
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
		switch c {
		case '"', '\\', '/':
			s.escaped(rune(c), false)
		case 'b':
			s.escaped('\b', false)
		case 'f':
			s.escaped('\f', false)
		case 'n':
			s.escaped('\n', false)
		case 'r':
			s.escaped('\r', false)
		case 't':
			s.escaped('\t', false)
		case 'u':
			s.esc, s.uval = 2, 0
			return i + 1
		default:
			s.broken(i, "bad escape")
			return i
		}
		s.esc = 0
		return i + 1
	}
	var h rune
	switch {
	case c >= '0' && c <= '9':
		h = rune(c - '0')
	case c >= 'a' && c <= 'f':
		h = rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		h = rune(c-'A') + 10
	default:
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

// plainRun is where the run of bytes from p[i] without quotes,
// backslashes or controls ends, found eight bytes at a time, and whether
// the run holds a byte of 0x80 or over.
func plainRun(p []byte, i int) (end int, high bool) {
	var seen uint64 // the run's bytes or'ed together
	for ; len(p)-i >= 8; i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		if m := specials(x); m != 0 {
			k := bits.TrailingZeros64(m) / 8
			seen |= x & (1<<(8*k) - 1)
			return i + k, seen&highBits != 0
		}
		seen |= x
	}
	for ; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		seen |= uint64(c)
	}
	return i, seen&highBits != 0
}

// highBits is the high bit of each byte of a word.
const highBits = 0x8080808080808080

// specials flags, by its high bit, each byte of the word x (eight bytes,
// the first lowest) that is a quote, a backslash or a control. A byte is
// flagged when it is a backslash (zero after the first xor) or below 0x21
// after flipping bit 1, which maps the quote (0x22) to 0x20 and the
// controls onto themselves. A borrow runs upwards only from a flagged
// byte, so the lowest flag is exact (those above it may not be).
func specials(x uint64) uint64 {
	const ones = 0x0101010101010101
	y := x ^ (ones * '\\')
	q := x ^ (ones * 0x02)
	return (((y - ones) &^ y) | ((q - ones*0x21) &^ q)) & highBits
}
