package client

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
)

// A text entry as it streams: its decoded length counted as protocol's
// StringLen counts it, the decoded bytes hashed when a digest is asked
// for, and, while nothing is hashed, the stretches with only simple
// escapes counted at once (fast).

// textState counts a text entry's decoded UTF-8 length as protocol's
// StringLen does (invalid UTF-8 and lone surrogates as U+FFFD) and hashes
// the decoded bytes when a digest is asked for.
type textState struct {
	n     int64
	carry [4]byte // an incomplete UTF-8 sequence at the end of a chunk
	nc    int
	high  rune // a high surrogate waiting for its low half; 0 when none

	keep     []byte // the raw text, when it may have to be checked as JSON
	keepOn   bool
	keepFrom int // where the kept text resumes in the current chunk
	keepLost bool
}

var replacement = []byte("\uFFFD")

// start readies t for a text; keep asks for the raw text to be kept.
func (t *textState) start(keep bool, from int) {
	*t = textState{keep: t.keep[:0], keepOn: keep, keepFrom: from, keepLost: !keep}
}

// keepBytes keeps a piece of the raw text, up to jsonTextKeep bytes.
func (t *textState) keepBytes(b []byte) {
	if len(t.keep)+len(b) > jsonTextKeep {
		t.keepOn, t.keepLost, t.keep = false, true, t.keep[:0]
		return
	}
	t.keep = append(t.keep, b...)
}

// raw counts raw bytes of the string (no escapes in them).
func (t *textState) raw(seg []byte, d *digester) {
	if t.high != 0 {
		t.lone(d)
	}
	if t.nc > 0 {
		if seg = t.joinCarry(seg, d); t.nc > 0 {
			return // all of seg went into a sequence still incomplete
		}
	}
	k := incompleteTail(seg)
	body := seg[:len(seg)-k]
	if utf8.Valid(body) {
		t.n += int64(len(body))
		d.write(body)
	} else {
		t.runes(body, d)
	}
	t.nc = copy(t.carry[:], seg[len(seg)-k:])
}

// runes counts bytes that hold invalid UTF-8, rune by rune.
func (t *textState) runes(b []byte, d *digester) {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			t.n += 3
			d.write(replacement)
		} else {
			t.n += int64(size)
			d.write(b[:size])
		}
		b = b[size:]
	}
}

// incompleteTail is how many bytes at the end of b begin a UTF-8
// sequence that the next bytes may complete.
func incompleteTail(b []byte) int {
	for j := len(b) - 1; j >= 0 && j >= len(b)-3; j-- {
		c := b[j]
		if c < utf8.RuneSelf {
			return 0
		}
		if c >= 0xC0 { // a leading byte
			if utf8.FullRune(b[j:]) {
				return 0
			}
			return len(b) - j
		}
	}
	return 0
}

// joinCarry decodes the carried bytes with the start of seg and returns
// the rest of seg.
func (t *textState) joinCarry(seg []byte, d *digester) []byte {
	var buf [8]byte
	nc := t.nc
	take := min(len(seg), 3)
	n := copy(buf[:], t.carry[:nc])
	n += copy(buf[n:], seg[:take])
	b := buf[:n]
	pos := 0
	for pos < nc {
		if !utf8.FullRune(b[pos:]) { // seg is all taken and still too short
			t.nc = copy(t.carry[:], b[pos:])
			return nil
		}
		r, size := utf8.DecodeRune(b[pos:])
		if r == utf8.RuneError && size == 1 {
			t.n += 3
			d.write(replacement)
		} else {
			t.n += int64(size)
			d.write(b[pos : pos+size])
		}
		pos += size
	}
	t.nc = 0
	return seg[pos-nc:]
}

// flushCarry counts carried bytes that nothing completes: each is U+FFFD.
func (t *textState) flushCarry(d *digester) {
	for range t.nc {
		t.n += 3
		d.write(replacement)
	}
	t.nc = 0
}

// lone counts a high surrogate that no low one followed: U+FFFD.
func (t *textState) lone(d *digester) {
	t.n += 3
	d.write(replacement)
	t.high = 0
}

// escape counts one escape; u: a \u escape, whose surrogate halves pair.
func (t *textState) escape(r rune, u bool, d *digester) {
	t.flushCarry(d)
	if t.high != 0 {
		if u && r >= 0xDC00 && r < 0xE000 {
			t.n += 4
			d.writeRune((t.high-0xD800)<<10 | (r - 0xDC00) + 0x10000)
			t.high = 0
			return
		}
		t.lone(d)
	}
	switch {
	case r >= 0xD800 && r < 0xDC00:
		t.high = r
	case r >= 0xD800 && r < 0xE000:
		t.n += 3
		d.write(replacement)
	default:
		t.n += int64(utf8.RuneLen(r))
		d.writeRune(r)
	}
}

// finish ends the text at its closing quote.
func (t *textState) finish(d *digester) {
	t.flushCarry(d)
	if t.high != 0 {
		t.lone(d)
	}
}

// fast counts a text's bytes from p[i] eight at a time while they are
// ASCII without quotes, backslashes or controls, and takes simple escapes
// and whole runes in stride; it stops where the general path must go on
// (the closing quote, a \u escape, an escape or a rune cut by the chunk's
// end, invalid UTF-8, a raw control character) and returns where. Only
// when nothing is hashed.
func (t *textState) fast(p []byte, i int) int {
	end := len(p)
	for i < end {
		if end-i >= 8 {
			x := binary.LittleEndian.Uint64(p[i:])
			m := protocol.StringSpecials(x) | x&protocol.HighBits // and bytes of 0x80 or over
			if m == 0 {
				t.n += 8
				i += 8
				continue
			}
			k := bits.TrailingZeros64(m) / 8 // the lowest one flagged is exact
			t.n += int64(k)
			i += k
		}
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= end || !protocol.IsSimpleEscape(p[i+1]) {
				return i
			}
			t.n++ // each decodes to one ASCII byte
			i += 2
		case c == '"' || c < 0x20:
			return i // the closing quote, or a raw control the general path notes
		case c < utf8.RuneSelf:
			t.n++
			i++
		case c >= 0xC2 && c < 0xE0 && i+1 < end && p[i+1]&0xC0 == 0x80:
			t.n += 2 // a two-byte rune, without a call
			i += 2
		case c >= 0xE1 && c < 0xF0 && c != 0xED && i+2 < end && p[i+1]&0xC0 == 0x80 && p[i+2]&0xC0 == 0x80:
			// A three-byte rune whose leading byte takes any two
			// continuation bytes (E0 and ED limit the second one).
			t.n += 3
			i += 3
		default:
			r, size := utf8.DecodeRune(p[i:end])
			if r == utf8.RuneError && size == 1 {
				return i
			}
			t.n += int64(size)
			i += size
		}
	}
	return i
}
