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

// fast counts a text's bytes from p[i] while they need no decoding: runs
// without quotes, backslashes or controls (plainRun) and the simple
// escapes between them, the whole stretch checked as UTF-8 at once
// (escapes are ASCII) when a run held a byte over ASCII. It stops where
// the general path must go on (the closing quote, a \u escape, an escape
// or a rune cut by the chunk's end, a raw control character, a run that
// is not valid UTF-8) and returns where. Only when nothing is hashed.
func (t *textState) fast(p []byte, i int) int {
	from, n := i, t.n
	end, high := t.stretch(p, i, false)
	if !high {
		return end
	}
	if end == len(p) {
		k := incompleteTail(p[from:end])
		t.n -= int64(k)
		end -= k
	}
	if utf8.Valid(p[from:end]) {
		return end
	}
	t.n = n
	end, _ = t.stretch(p, from, true) // to the run that is not valid
	return end
}

// stretch counts the runs and simple escapes from p[i] (see fast) and
// returns where they end and whether a run held a byte over ASCII; with
// each, it checks every such run as UTF-8 and stops at the first that is
// not valid.
func (t *textState) stretch(p []byte, i int, each bool) (end int, high bool) {
	for {
		j, h := plainRun(p, i)
		if h && each && !utf8.Valid(p[i:j]) {
			return i, true
		}
		t.n += int64(j - i)
		i, high = j, high || h
		if i+1 >= len(p) || p[i] != '\\' || !isSimpleEscape(p[i+1]) {
			return i, high
		}
		t.n++ // each decodes to one ASCII byte
		i += 2
	}
}

// isSimpleEscape reports whether c follows a backslash in one of JSON's
// two-byte escapes (\" \\ \/ \b \f \n \r \t), by a bit test rather
// than a branch per case: which escape comes next is not predictable.
func isSimpleEscape(c byte) bool {
	const below64 = 1<<'"' | 1<<'/'
	const from64 = 1<<('\\'-64) | 1<<('b'-64) | 1<<('f'-64) | 1<<('n'-64) | 1<<('r'-64) | 1<<('t'-64)
	set := uint64(below64)
	if c >= 64 {
		set = from64
	}
	return c < 128 && set>>(c&63)&1 != 0
}

// plainRun is where the run of bytes from p[i] without quotes,
// backslashes or controls ends, found eight bytes at a time, and whether
// the run holds a byte of 0x80 or over.
func plainRun(p []byte, i int) (end int, high bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var seen uint64 // the run's bytes or'ed together
	for ; len(p)-i >= 8; i += 8 {
		x := binary.LittleEndian.Uint64(p[i:])
		// A byte is flagged when it is a backslash (zero after the first
		// xor) or below 0x21 after flipping bit 1, which maps the quote
		// (0x22) to 0x20 and the controls onto themselves. A borrow runs
		// upwards only from a flagged byte, so the lowest flag is exact.
		y := x ^ (ones * '\\')
		q := x ^ (ones * 0x02)
		if m := (((y - ones) &^ y) | ((q - ones*0x21) &^ q)) & highs; m != 0 {
			k := bits.TrailingZeros64(m) / 8
			seen |= x & (1<<(8*k) - 1)
			return i + k, seen&highs != 0
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
	return i, seen&highs != 0
}
