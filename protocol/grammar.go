package protocol

import (
	"encoding/binary"
	"math/bits"
)

// The JSON grammar, once. Every walker of JSON bytes in readbench — the
// lenient scanner (scan.go) and the strict walk of the one-pass decoder
// and of Valid, both on the one walker of walk.go, and the client's
// streaming answer scanner, which meets an answer in pieces cut
// anywhere — takes its rules from here: what is
// whitespace, where a literal, a number and a string may start, the
// number grammar, the escapes, which string bytes are plain, the nesting
// bound. Whatever they accept, encoding/json's validation accepts too
// (the tests hold them to json.Valid); see docs/measurement.md for what a
// reader does with an answer that breaks them. The rules that a stream
// must follow across a cut (a number, an escape) are resumable states.

// MaxDepth bounds nesting: a value nested deeper is a syntax error for
// every walker, so hostile input cannot exhaust the stack, nor the
// client's fixed stack of open containers.
const MaxDepth = 512

// IsSpace reports whether c is JSON whitespace (space, tab, newline,
// carriage return): the only bytes allowed between tokens and around the
// message.
func IsSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// SkipSpace returns the offset of the first byte at or after b[i] that is
// not whitespace (len(b) when none), so that a walker steps over the
// whitespace between tokens the way JSON allows.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// Literal is the literal (true, false or null) that a value starting with
// c must be, or "" when no literal starts so: each starts with its own
// byte, so a walker knows from the first byte what must follow.
func Literal(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'n':
		return "null"
	}
	return ""
}

// literalEnd is the offset just past the literal lit at b[i], or -1.
func literalEnd(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// IsNumberStart reports whether a number starts with c: a minus or a
// digit.
func IsNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

// Where a number is in the grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
const (
	numStart     = iota // before its first byte
	numMinus            // after '-'
	numZero             // after a leading '0'
	numInt              // in the integer digits after a leading 1-9
	numDot              // after '.'
	numFrac             // in the fraction's digits
	numExp              // after 'e' or 'E'
	numExpSign          // after the exponent's sign
	numExpDigits        // in the exponent's digits
	numBad              // outside the grammar
)

// Number follows one JSON number through its bytes, in as many pieces as
// they come in. It keeps two readings side by side: the run a lenient
// walker reads past (digits, '.', 'e', 'E', '+', '-', with at least one
// digit: anything else where a number is due cannot be read past) and
// the strict grammar above, so that a walker can note a number outside
// the grammar and still find the structure after it. The zero value is
// before the number's first byte.
type Number struct {
	state  uint8
	digits bool
}

// numNext is the grammar's state after byte c in state st.
func numNext(st uint8, c byte) uint8 {
	digit := c >= '0' && c <= '9'
	switch st {
	case numStart, numMinus:
		switch {
		case c == '-' && st == numStart:
			return numMinus
		case c == '0':
			return numZero
		case digit:
			return numInt
		}
	case numZero, numInt:
		switch {
		case digit && st == numInt:
			return numInt
		case c == '.':
			return numDot
		case c == 'e' || c == 'E':
			return numExp
		}
	case numDot, numFrac:
		switch {
		case digit:
			return numFrac
		case (c == 'e' || c == 'E') && st == numFrac:
			return numExp
		}
	case numExp:
		switch {
		case c == '+' || c == '-':
			return numExpSign
		case digit:
			return numExpDigits
		}
	case numExpSign, numExpDigits:
		if digit {
			return numExpDigits
		}
	}
	return numBad
}

// Start begins a number with its first byte c, which IsNumberStart
// took: what Feed of that one byte does, without a call, for a streaming
// walker that meets a value's first byte on its own.
func (n *Number) Start(c byte) {
	switch {
	case c == '-':
		*n = Number{state: numMinus}
	case c == '0':
		*n = Number{state: numZero, digits: true}
	default:
		*n = Number{state: numInt, digits: true}
	}
}

// Feed follows the number through b[i:] and returns end, the offset of
// the first byte that is not part of the lenient run (len(b) when the
// run goes on past b: feed the next piece), and bad, the offset of the
// byte at which the number left the grammar, or -1 when it has not left
// it in b (a number leaves it once; later pieces report -1).
func (n *Number) Feed(b []byte, i int) (end, bad int) {
	bad = -1
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			n.digits = true
		case c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
		default:
			return i, bad
		}
		if n.state != numBad {
			if n.state = numNext(n.state, c); n.state == numBad {
				bad = i
			}
		}
	}
	return i, bad
}

// Readable reports whether the run so far has a digit: a lenient walker
// can read past it as a number.
func (n *Number) Readable() bool { return n.digits }

// Complete reports whether the number may end where it is: it is in the
// grammar and not waiting for digits. A number that ends before its
// digits ("1.", "1e+") is outside the grammar though every byte of it
// was.
func (n *Number) Complete() bool {
	switch n.state {
	case numZero, numInt, numFrac, numExpDigits:
		return true
	}
	return false
}

// Left reports whether the number left the grammar (the fault Feed
// reported once).
func (n *Number) Left() bool { return n.state == numBad }

// Unescape is the byte that the two-byte escape \c stands for, and
// whether \c is one (\" \\ \/ \b \f \n \r \t); 'u', which four hex digits
// follow, is not: see HexDigit.
func Unescape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// IsSimpleEscape reports whether \c is a two-byte escape, as Unescape
// does, by a bit test rather than a branch per case: in a long text,
// which escape comes next is not predictable.
func IsSimpleEscape(c byte) bool {
	const below64 = 1<<'"' | 1<<'/'
	const from64 = 1<<('\\'-64) | 1<<('b'-64) | 1<<('f'-64) | 1<<('n'-64) | 1<<('r'-64) | 1<<('t'-64)
	set := uint64(below64)
	if c >= 64 {
		set = from64
	}
	return c < 128 && set>>(c&63)&1 != 0
}

// HexDigit is the value of the hex digit c of a \u escape, and whether c
// is one (either case).
func HexDigit(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}

// hex4 reads the four hex digits at the start of h (a \u escape's).
func hex4(h []byte) (rune, bool) {
	if len(h) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range h[:4] {
		d, ok := HexDigit(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | d
	}
	return r, true
}

// escapeEnd is the offset just past the escape whose backslash is at
// b[j], or -1 when it is not one.
func escapeEnd(b []byte, j int) int {
	if j+1 >= len(b) {
		return -1
	}
	if c := b[j+1]; c != 'u' {
		if IsSimpleEscape(c) {
			return j + 2
		}
		return -1
	}
	if _, ok := hex4(b[j+2:]); !ok {
		return -1
	}
	return j + 6
}

// HighBits is the high bit of each byte of a word, the mask that
// StringSpecials flags with.
const HighBits = 0x8080808080808080

// StringSpecials flags, by its high bit, each byte of the word x (eight
// string bytes, the first lowest, as binary.LittleEndian reads them) that
// a string cannot take as it is: a quote, a backslash or a control
// character. A byte is flagged when it is a backslash (zero after the
// first xor) or below 0x21 after flipping bit 1, which maps the quote
// (0x22) to 0x20 and the controls onto themselves. A borrow runs upwards
// only from a flagged byte, so the lowest flag is exact (those above it
// may not be): eight bytes are judged at once.
func StringSpecials(x uint64) uint64 {
	const ones = 0x0101010101010101
	y := x ^ (ones * '\\')
	q := x ^ (ones * 0x02)
	return (((y - ones) &^ y) | ((q - ones*0x21) &^ q)) & HighBits
}

// PlainRun is where the run of string bytes from b[i] without quotes,
// backslashes or control characters ends (eight bytes at a time), and
// whether the run holds a byte of 0x80 or over: most strings hold nothing
// to decode, and a walker finds their end, or the escape it must follow,
// in one pass. JSON takes any other byte raw, invalid UTF-8 included
// (encoding/json decodes it as U+FFFD).
func PlainRun(b []byte, i int) (end int, high bool) {
	var seen uint64 // the run's bytes or'ed together
	for ; len(b)-i >= 8; i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := StringSpecials(x); m != 0 {
			k := bits.TrailingZeros64(m) / 8
			seen |= x & (1<<(8*k) - 1)
			return i + k, seen&HighBits != 0
		}
		seen |= x
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		seen |= uint64(c)
	}
	return i, seen&HighBits != 0
}

// ControlAt is the index of the first byte of b below 0x20, which a JSON
// string may not hold raw, or -1: a walker that found a string's end by
// other means (bytes.IndexByte) checks its bytes with it. It tests eight
// bytes a round (a borrow out of a byte below 0x20 can flag only bytes
// after it, so the first one flagged is exact; bytes already found clean
// flag nothing), so checking a string costs little beside finding its
// end.
func ControlAt(b []byte) int {
	const ones = 0x0101010101010101
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
		if m := (x - ones*0x20) &^ x & HighBits; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		if i == len(b)-8 {
			return -1
		}
	}
}

// Valid reports whether b is one JSON value, with whitespace around it
// only, as encoding/json's Valid does, but nested at most MaxDepth deep:
// the grammar every walker here follows, judged whole. FuzzValid holds
// it to json.Valid.
func Valid(b []byte) bool {
	end := walk{strict: true, limit: MaxDepth}.end(b, 0, 0)
	return end >= 0 && SkipSpace(b, end) == len(b)
}
