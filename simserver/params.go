package simserver

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
)

// decodeParams decodes a request's params into p exactly as
// json.Unmarshal would. raw is the params value of a decoded message, so
// it is valid JSON (the scanner is not the judge of that). Decoding params
// with encoding/json was a sixth of a small read's handling
// (BenchmarkHandlerRead), so the shape clients send — each key once,
// spelled as the tags, strings of valid UTF-8 — is walked with the
// protocol's scanner instead, and anything else (a surrogate escape, a
// key in another case, a repeated key, a value of the wrong type) goes to
// encoding/json, whose answer stands. FuzzDecodeParams checks the two
// agree.
func decodeParams(raw []byte, p *params) error {
	var fast params
	if fastParams(raw, &fast) {
		*p = fast
		return nil
	}
	return json.Unmarshal(raw, p)
}

// errSlow stops the scanner's walk: this input is encoding/json's.
var errSlow = errors.New("simserver: params need encoding/json")

// The JSON names of the fields of params and of requestMeta, for
// keyCheck.
const (
	paramNames = "_meta uri cursor requestState protocolVersion requestId name arguments"
	metaNames  = protocol.MetaProtocolVersion + " " + protocol.MetaClientCapabilities
)

func fastParams(raw []byte, p *params) bool {
	var seen uint
	first := func(bit uint) bool { // a repeated key is merged or overwritten by encoding/json
		ok := seen&bit == 0
		seen |= bit
		return ok
	}
	err := protocol.ObjectFields(raw, func(k, v []byte) error {
		switch string(k) {
		case "_meta":
			if !first(1 << 0) {
				return errSlow
			}
			return fastMeta(v, &p.Meta)
		case "uri":
			if !first(1 << 1) {
				return errSlow
			}
			if isNull(v) {
				return nil
			}
			s, err := fastString(v)
			p.URI = &s
			return err
		case "cursor":
			return setString(first(1<<2), v, &p.Cursor)
		case "requestState":
			return setString(first(1<<3), v, &p.RequestState)
		case "protocolVersion":
			return setString(first(1<<4), v, &p.ProtocolVersion)
		case "name":
			return setString(first(1<<5), v, &p.Name)
		case "requestId":
			return setRaw(first(1<<6), v, &p.RequestID)
		case "arguments":
			return setRaw(first(1<<7), v, &p.Arguments)
		}
		return keyCheck(paramNames, k)
	})
	return err == nil
}

func fastMeta(v []byte, m **requestMeta) error {
	if isNull(v) {
		return nil
	}
	meta := &requestMeta{}
	var seen uint
	first := func(bit uint) bool {
		ok := seen&bit == 0
		seen |= bit
		return ok
	}
	if err := protocol.ObjectFields(v, func(k, v []byte) error {
		switch string(k) {
		case protocol.MetaProtocolVersion:
			return setRaw(first(1<<0), v, &meta.ProtocolVersion)
		case protocol.MetaClientCapabilities:
			return setRaw(first(1<<1), v, &meta.ClientCapabilities)
		}
		return keyCheck(metaNames, k)
	}); err != nil {
		return errSlow // not an object, or not the usual shape
	}
	*m = meta
	return nil
}

// keyCheck lets an unknown key be skipped, as encoding/json skips it,
// unless encoding/json would take it for one of names (space-separated):
// another case of a name, or a key with escapes that might spell one.
func keyCheck(names string, k []byte) error {
	if strings.IndexByte(string(k), '\\') >= 0 {
		return errSlow
	}
	for name := range strings.SplitSeq(names, " ") {
		if strings.EqualFold(string(k), name) {
			return errSlow
		}
	}
	return nil
}

// setString decodes a string field met for the first time: null leaves it
// as it is, as encoding/json does.
func setString(first bool, v []byte, dst *string) error {
	if !first {
		return errSlow
	}
	if isNull(v) {
		return nil
	}
	s, err := fastString(v)
	*dst = s
	return err
}

// setRaw keeps a json.RawMessage field met for the first time: a copy of
// the value's bytes.
func setRaw(first bool, v []byte, dst *json.RawMessage) error {
	if !first {
		return errSlow
	}
	*dst = append(json.RawMessage(nil), v...)
	return nil
}

// fastString decodes a JSON string value as encoding/json does, for the
// strings clients send: valid UTF-8, with the usual escapes (Go's own
// encoder writes & as \u0026). A surrogate escape, or invalid UTF-8,
// which encoding/json replaces, is errSlow.
func fastString(v []byte) (string, error) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", errSlow
	}
	in := v[1 : len(v)-1]
	if s, ok := plainString(v); ok {
		return s, nil
	}
	if !utf8.Valid(in) {
		return "", errSlow
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c != '\\' {
			if c < 0x20 || c == '"' {
				return "", errSlow
			}
			out = append(out, c)
			continue
		}
		if i++; i >= len(in) {
			return "", errSlow
		}
		switch in[i] {
		case '"', '\\', '/':
			out = append(out, in[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+4 >= len(in) {
				return "", errSlow
			}
			r, err := strconv.ParseUint(string(in[i+1:i+5]), 16, 16)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return "", errSlow
			}
			out = utf8.AppendRune(out, rune(r))
			i += 4
		default:
			return "", errSlow
		}
	}
	return string(out), nil
}

func isNull(v []byte) bool { return string(v) == "null" }
