package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The functions below walk JSON bytes without decoding them into Go values.
// A resources/read answer can hold a 40 MiB base64 string; finding its ends
// with bytes.IndexByte costs about what reading it cost, where a full
// encoding/json decode costs many times that and a copy of the payload.

// ErrSyntax is wrapped by every scanning error.
var ErrSyntax = errors.New("invalid JSON")

func syntaxErr(i int, what string) error {
	return fmt.Errorf("%w at offset %d: %s", ErrSyntax, i, what)
}

// SkipValue returns the offset just past the JSON value that starts at b[i]
// (leading whitespace allowed), on the lenient rules (walk.go): it reads
// a server's large answers at about the cost of finding their strings'
// ends.
func SkipValue(b []byte, i int) (int, error) { return walk{limit: MaxDepth}.value(b, i, 0) }

// SkipString returns the offset just past the JSON string whose opening
// quote is at b[i]. It checks escapes but neither UTF-8 validity nor raw
// control characters: the scanner is a fast, lenient reader, not a
// validator.
func SkipString(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, syntaxErr(i, "expected string")
	}
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, syntaxErr(i, "unterminated string")
		}
		// Only the stretch before the quote can hold escapes. Raw control
		// bytes are not looked for here: that would cost a pass over every
		// payload for a fault no server of interest makes.
		seg := b[j : j+k]
		if bytes.IndexByte(seg, '\\') < 0 {
			return j + k + 1, nil
		}
		end, done, err := scanEscapes(b, j, j+k)
		if err != nil {
			return 0, err
		}
		if done {
			return end, nil
		}
		j = end // the quote at j+k was escaped; keep looking after it
	}
}

// scanEscapes walks b[j:q] (q is a quote) honouring escapes. done reports
// that the quote at q closes the string; otherwise it was escaped and the
// scan resumes at the returned offset.
func scanEscapes(b []byte, j, q int) (end int, done bool, err error) {
	for j < q {
		if b[j] != '\\' {
			j++
			continue
		}
		k := escapeEnd(b, j)
		switch {
		case k >= 0:
		case j+1 >= len(b):
			return 0, false, syntaxErr(j, "unterminated escape")
		case b[j+1] == 'u':
			return 0, false, syntaxErr(j, "bad \\u escape")
		default:
			return 0, false, syntaxErr(j, "bad escape")
		}
		j = k
	}
	if j == q {
		return q + 1, true, nil
	}
	return j, false, nil // an escape consumed the quote at q
}

// ObjectFields calls fn for each member of the JSON object at the start of b
// with the raw key (between the quotes, escapes kept) and the raw value.
// Returning an error from fn stops the walk.
func ObjectFields(b []byte, fn func(key, value []byte) error) error {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return syntaxErr(i, "expected object")
	}
	_, _, err := walk{limit: MaxDepth}.object(b, i, 0, nil, func(_, k, v []byte) error { return fn(k, v) })
	return err
}

// ArrayElements calls fn for each element of the JSON array at the start of b.
func ArrayElements(b []byte, fn func(elem []byte) error) error {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return syntaxErr(i, "expected array")
	}
	_, err := walk{limit: MaxDepth}.array(b, i, 0, fn)
	return err
}

// StringLen returns the number of UTF-8 bytes the raw JSON string token
// (quotes included) decodes to, without building the string: the disk size
// of a text entry. Invalid UTF-8 counts as the replacement character would.
func StringLen(raw []byte) (int64, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return 0, syntaxErr(0, "expected string")
	}
	s := raw[1 : len(raw)-1]
	var n int64
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				n++
				i++
				continue
			}
			r, size := utf8.DecodeRune(s[i:])
			n += int64(utf8.RuneLen(r))
			i += size
			continue
		}
		if i+1 >= len(s) {
			return 0, syntaxErr(i, "unterminated escape")
		}
		if s[i+1] != 'u' {
			n++
			i += 2
			continue
		}
		r, ok := hex4(s[i+2:])
		if !ok {
			return 0, syntaxErr(i, "bad \\u escape")
		}
		i += 6
		if r >= 0xD800 && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if lo, ok := hex4(s[i+2:]); ok && lo >= 0xDC00 && lo < 0xE000 {
				n += 4 // a surrogate pair is one 4-byte rune
				i += 6
				continue
			}
		}
		if r >= 0xD800 && r < 0xE000 {
			n += 3 // a lone surrogate decodes to U+FFFD
			continue
		}
		n += int64(utf8.RuneLen(rune(r)))
	}
	return n, nil
}
