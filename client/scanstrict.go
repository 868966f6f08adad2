package client

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Two kinds of fault end in a protocol verdict. A fault the walk cannot
// read past (an unexpected byte where structure is due, a bad escape, a
// bad literal, an unclosed message) stops it (broken). A fault it can
// read past, where encoding/json is stricter than the walk, is noted
// (invalidAt) and the walk goes on, so that the message's id, which may
// come after it, still routes the answer to its read: a number outside
// the JSON grammar ("01", "1-2e", "1."), a raw control character in a
// string, and anything but whitespace after the message's object (on
// stdio the scanner sees one line, on SSE one event's data, on HTTP one
// body). Like json.Valid, and unlike a validator of RFC 8259 to the
// letter, invalid UTF-8 in a string is accepted (encoding/json decodes
// it as U+FFFD, which is how text is counted); repeated member names are
// accepted too. Nesting deeper than maxScanDepth, which encoding/json
// allows, is a fault here.

// invalidAt records, at chunk index i, a fault that encoding/json would
// reject and the walk can read past; only the first is kept.
func (s *answerScanner) invalidAt(i int, what string) {
	if s.invalid == "" {
		s.invalid = fmt.Sprintf("answer is not valid JSON: at offset %d: %s", s.offset+int64(i), what)
	}
}

// Where a number is in the JSON grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
const (
	nStart     = iota // before its first byte
	nMinus            // after '-'
	nZero             // after a leading '0'
	nInt              // in the integer digits after a leading 1-9
	nDot              // after '.'
	nFrac             // in the fraction's digits
	nExp              // after 'e' or 'E'
	nExpSign          // after the exponent's sign
	nExpDigits        // in the exponent's digits
	nBad              // outside the grammar (noted once)
)

// numNext is the grammar's state after byte c in state st.
func numNext(st uint8, c byte) uint8 {
	digit := c >= '0' && c <= '9'
	switch st {
	case nStart, nMinus:
		switch {
		case c == '-' && st == nStart:
			return nMinus
		case c == '0':
			return nZero
		case digit:
			return nInt
		}
	case nZero, nInt:
		switch {
		case digit && st == nInt:
			return nInt
		case c == '.':
			return nDot
		case c == 'e' || c == 'E':
			return nExp
		}
	case nDot, nFrac:
		switch {
		case digit:
			return nFrac
		case (c == 'e' || c == 'E') && st == nFrac:
			return nExp
		}
	case nExp:
		switch {
		case c == '+' || c == '-':
			return nExpSign
		case digit:
			return nExpDigits
		}
	case nExpSign, nExpDigits:
		if digit {
			return nExpDigits
		}
	}
	return nBad
}

// numComplete reports whether a number may end in state st (a number
// already outside the grammar was noted when it left it).
func numComplete(st uint8) bool {
	return st == nZero || st == nInt || st == nFrac || st == nExpDigits || st == nBad
}

// numberBytes continues a number from p[i]. The walk takes protocol's
// lenient run of digits, '.', 'e', 'E', '+', '-' with at least one digit
// (anything else is broken); numState follows the JSON grammar beside it,
// and a number outside the grammar is noted as invalid.
func (s *answerScanner) numberBytes(p []byte, i int) int {
	for i < len(p) {
		c := p[i]
		switch {
		case c >= '0' && c <= '9':
			s.digits = true
		case c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
		default:
			if !s.digits {
				s.broken(i, "bad number")
				return i
			}
			if !numComplete(s.num) {
				s.invalidAt(i, "number ends before its digits")
			}
			s.valueEnd(p, i)
			return i // c is handled as structure
		}
		if s.num != nBad {
			if s.num = numNext(s.num, c); s.num == nBad {
				what := fmt.Sprintf("invalid character %q in a number", c)
				if c >= '0' && c <= '9' {
					what = "a number with a leading zero"
				}
				s.invalidAt(i, what)
			}
		}
		i++
	}
	return i
}

// trailing checks what follows the message's object in p[i:]: only
// whitespace may.
func (s *answerScanner) trailing(p []byte, i int) {
	for ; i < len(p); i++ {
		if c := p[i]; c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			s.invalidAt(i, fmt.Sprintf("%q after the message's object", c))
			return
		}
	}
}

// controlAt is the index of the first byte of b below 0x20, which a JSON
// string may not hold raw, or -1. It tests eight bytes a round (a
// borrow out of a byte below 0x20 can flag only bytes after it, so the
// first one flagged is exact; bytes already found clean flag nothing):
// checking a string costs little beside finding its end.
func controlAt(b []byte) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	if len(b) < 8 {
		for i, c := range b {
			if c < 0x20 {
				return i
			}
		}
		return -1
	}
	// The last round reads the last eight bytes, overlapping clean ones.
	for i := 0; ; i += 8 {
		i = min(i, len(b)-8)
		x := binary.LittleEndian.Uint64(b[i:])
		if m := (x - ones*0x20) &^ x & high; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		if i == len(b)-8 {
			return -1
		}
	}
}

// controlIn notes a raw control character in b, which starts at chunk
// index i of a string.
func (s *answerScanner) controlIn(b []byte, i int) {
	if k := controlAt(b); k >= 0 {
		s.invalidAt(i+k, fmt.Sprintf("control character %#02x in a string", b[k]))
	}
}
