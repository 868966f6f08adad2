package protocol

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendParams appends the JSON encoding of a request's params. A read's
// params are a small map of strings (the URI, the per-request _meta), and
// a load run encodes one per read: encoding/json's reflection was a tenth
// of the generator's CPU per 1 KiB read. The values requests are built of
// — maps with string keys, slices, strings, bools, integers, nil and
// already encoded json.RawMessage — are written here, byte for byte what
// json.Marshal writes (keys sorted, HTML characters escaped, invalid
// UTF-8 replaced; FuzzAppendParams holds the two together); anything else
// goes to json.Marshal.
func appendParams(dst []byte, v any) ([]byte, error) {
	if out, ok := appendFast(dst, v); ok {
		return out, nil
	}
	p, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, p...), nil
}

// appendFast appends v when every value in it is of a kind it knows; ok
// is false (and dst must be discarded) otherwise.
func appendFast(dst []byte, v any) (_ []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return appendString(dst, x), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case json.RawMessage:
		// Trusted to be compact, valid JSON: the callers build it with
		// json.Marshal once (a session's _meta) and reuse it.
		if x == nil {
			return append(dst, "null"...), true
		}
		return append(dst, x...), true
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), true
		}
		var small [8]string // requests' maps are small: no allocation for their keys
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(appendString(dst, k), ':')
			if dst, ok = appendFast(dst, x[k]); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	case []any:
		if x == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendFast(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return dst, false
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does by
// default: the short escapes, \u00XX for other control characters and
// for <, > and & (HTML-safe), \ufffd for invalid UTF-8, and \u2028 and
// \u2029 (which JavaScript reads as line ends).
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
