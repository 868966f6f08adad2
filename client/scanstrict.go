package client

import (
	"fmt"

	"github.com/readbench/readbench/protocol"
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
// accepted too. Nesting deeper than protocol.MaxDepth, which encoding/json
// allows, is a fault here. The grammar itself is protocol's (grammar.go),
// followed across the pieces an answer comes in.

// invalidAt records, at chunk index i, a fault that encoding/json would
// reject and the walk can read past; only the first is kept.
func (s *answerScanner) invalidAt(i int, what string) {
	if s.invalid == "" {
		s.invalid = fmt.Sprintf("answer is not valid JSON: at offset %d: %s", s.offset+int64(i), what)
	}
}

// numberBytes continues a number from p[i]. The walk takes the lenient
// run that protocol.Number reads (anything else where a number is due is
// broken); a number outside the grammar, which Number follows beside it,
// is noted as invalid.
func (s *answerScanner) numberBytes(p []byte, i int) int {
	end, bad := s.num.Feed(p, i)
	if bad >= 0 {
		what := fmt.Sprintf("invalid character %q in a number", p[bad])
		if c := p[bad]; c >= '0' && c <= '9' {
			what = "a number with a leading zero"
		}
		s.invalidAt(bad, what)
	}
	if end == len(p) {
		return end // the number may go on in the next piece
	}
	if !s.num.Readable() {
		s.broken(end, "bad number")
		return end
	}
	if !s.num.Complete() && !s.num.Left() {
		s.invalidAt(end, "number ends before its digits")
	}
	s.valueEnd(p, end)
	return end // p[end] is handled as structure
}

// trailing checks what follows the message's object in p[i:]: only
// whitespace may.
func (s *answerScanner) trailing(p []byte, i int) {
	for ; i < len(p); i++ {
		if c := p[i]; !protocol.IsSpace(c) {
			s.invalidAt(i, fmt.Sprintf("%q after the message's object", c))
			return
		}
	}
}

// controlIn notes a raw control character in b, which starts at chunk
// index i of a string.
func (s *answerScanner) controlIn(b []byte, i int) {
	if k := protocol.ControlAt(b); k >= 0 {
		s.invalidAt(i+k, fmt.Sprintf("control character %#02x in a string", b[k]))
	}
}
