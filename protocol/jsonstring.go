package protocol

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// StringStyle is how AppendString writes what JSON leaves to the writer:
// which characters it escapes, and what becomes of invalid UTF-8. The
// client and the simulated server write strings differently on purpose,
// each like the software it stands for.
type StringStyle uint8

const (
	// LikeEncodingJSON is byte for byte what encoding/json's Marshal
	// writes: the short escapes (\b \f \n \r \t \" \\), \u00XX for other
	// control characters and for <, > and & (HTML-safe), \u2028 and
	// \u2029 (which JavaScript reads as line ends) escaped, and each
	// invalid UTF-8 byte as \ufffd. The client's requests are written so
	// (FuzzAppendParams holds the two together).
	LikeEncodingJSON StringStyle = iota
	// AsServersSend escapes only what JSON requires (\" \\ \n \r \t and
	// \u00XX for other control characters) and writes everything else,
	// non-ASCII included, raw, as most servers send it; each run of
	// invalid UTF-8 becomes one raw U+FFFD, as strings.ToValidUTF8 does,
	// so the output is always valid JSON. The simulated server's answers
	// are written so.
	AsServersSend
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, quotes included, written in
// style.
func AppendString[T string | []byte](dst []byte, s T, style StringStyle) []byte {
	dst = append(dst, '"')
	return append(AppendEscaped(dst, s, style), '"')
}

// AppendEscaped appends s escaped for the inside of a JSON string, written
// in style: the simulated server escapes the pieces of its texts once and
// joins them on every answer. Runs of plain bytes are copied at once.
func AppendEscaped[T string | []byte](dst []byte, s T, style StringStyle) []byte {
	std := style == LikeEncodingJSON
	invalid := false // AsServersSend: the byte before was invalid UTF-8, already replaced
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			invalid = false
			if b >= 0x20 && b != '"' && b != '\\' && (!std || b != '<' && b != '>' && b != '&') {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch {
			case b == '"' || b == '\\':
				dst = append(dst, '\\', b)
			case b == '\n':
				dst = append(dst, '\\', 'n')
			case b == '\r':
				dst = append(dst, '\\', 'r')
			case b == '\t':
				dst = append(dst, '\\', 't')
			case b == '\b' && std:
				dst = append(dst, '\\', 'b')
			case b == '\f' && std:
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		// A string of at most utf8.UTFMax bytes does not escape: converting
		// a []byte's bytes to it costs no allocation.
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			if std {
				dst = append(dst, `\ufffd`...)
			} else if !invalid {
				dst = append(dst, "\uFFFD"...)
			}
			invalid = true
		case std && (r == '\u2028' || r == '\u2029'):
			invalid = false
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			invalid = false
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// Unquote decodes the JSON string token raw (quotes included) as
// encoding/json does, for the strings clients send: valid UTF-8 with the
// usual escapes (Go's encoder writes & as \u0026). ok is false for
// anything else — not a well-formed string, invalid UTF-8 or a raw
// control character, a surrogate escape (which encoding/json pairs or
// replaces) — and the caller then asks encoding/json. A server decodes
// the strings of its requests so without encoding/json's reflection.
func Unquote(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	if end, plain := strictString(raw, 0); plain && end == len(raw) {
		return string(in), true
	}
	if !utf8.Valid(in) {
		return "", false
	}
	var out strings.Builder
	out.Grow(len(in))
	for {
		k := bytes.IndexByte(in, '\\') // the plain stretch up to the next escape
		if k < 0 {
			k = len(in)
		}
		for _, c := range in[:k] {
			if c < 0x20 || c == '"' {
				return "", false
			}
		}
		out.Write(in[:k])
		if in = in[k:]; len(in) == 0 {
			return out.String(), true
		}
		if len(in) < 2 {
			return "", false
		}
		if c, ok := Unescape(in[1]); ok {
			out.WriteByte(c)
			in = in[2:]
			continue
		}
		r, ok := hex4(in[2:])
		if in[1] != 'u' || !ok || utf16.IsSurrogate(r) {
			return "", false
		}
		out.WriteRune(r)
		in = in[6:]
	}
}
