package simserver

import (
	"encoding/json"
	"errors"

	"github.com/readbench/readbench/protocol"
)

// The params of a request are decoded in the message's own pass
// (protocol.DecodeVisit, decodeMessage) by paramsDecoder, exactly as
// json.Unmarshal would decode them: decoding params with encoding/json
// was a sixth of a small read's handling (BenchmarkHandlerRead). The
// decoder takes the shape clients send — each key once, spelled as the
// tags, strings of valid UTF-8 — and rejects anything else (a surrogate
// escape, a key in another case, a repeated key, a value of the wrong
// type), which newCall then leaves to encoding/json, whose answer stands.
// FuzzDecodeParams checks the two agree.

// errSlow stops the walk: these params are encoding/json's.
var errSlow = errors.New("simserver: params need encoding/json")

// paramsDecoder decodes params member by member as protocol.DecodeVisit
// hands them over.
type paramsDecoder struct {
	p params
	seen
	// meta holds the members of _meta, which come to visit before _meta
	// itself.
	meta metaDecoder
}

// visit is what protocol.DecodeVisit calls with each member of params
// and of the members' object values: those of _meta are decoded,
// the others (a tool's arguments, clientInfo) are not the server's
// concern here.
func (d *paramsDecoder) visit(parent, k, v []byte) error {
	switch {
	case parent == nil:
		return d.member(k, v)
	case string(parent) == "_meta":
		return d.meta.member(k, v)
	}
	return nil
}

// seen is the members a decoder has met, by bit: a repeated key is
// encoding/json's to decode (it keeps the last).
type seen uint

// first reports whether the member of that bit is met for the first time.
func (s *seen) first(bit uint) bool {
	ok := *s&seen(bit) == 0
	*s |= seen(bit)
	return ok
}

// member decodes one member of params; errSlow (or a string's error)
// means the params are encoding/json's to decode.
func (d *paramsDecoder) member(k, v []byte) error {
	p := &d.p
	switch string(k) {
	case "_meta":
		if !d.first(1 << 0) {
			return errSlow
		}
		switch {
		case isNull(v):
			return nil
		case v[0] != '{':
			return errSlow // encoding/json's type error
		}
		p.Meta = &d.meta.m // its members came before
		return nil
	case "uri":
		if !d.first(1 << 1) {
			return errSlow
		}
		if isNull(v) {
			return nil
		}
		s, err := fastString(v)
		p.URI = &s
		return err
	case "cursor":
		return setString(d.first(1<<2), v, &p.Cursor)
	case "requestState":
		return setString(d.first(1<<3), v, &p.RequestState)
	case "protocolVersion":
		return setString(d.first(1<<4), v, &p.ProtocolVersion)
	case "name":
		return setString(d.first(1<<5), v, &p.Name)
	case "requestId":
		return setRaw(d.first(1<<6), v, &p.RequestID)
	case "arguments":
		return setRaw(d.first(1<<7), v, &p.Arguments)
	case "notifications":
		return setRaw(d.first(1<<8), v, &p.Notifications)
	}
	return unknownKey(k, "_meta", "uri", "cursor", "requestState", "protocolVersion", "requestId", "name", "arguments", "notifications")
}

// metaDecoder decodes the members of _meta.
type metaDecoder struct {
	m requestMeta
	seen
}

func (d *metaDecoder) member(k, v []byte) error {
	switch string(k) {
	case protocol.MetaProtocolVersion:
		return setRaw(d.first(1<<0), v, &d.m.ProtocolVersion)
	case protocol.MetaClientCapabilities:
		return setRaw(d.first(1<<1), v, &d.m.ClientCapabilities)
	case protocol.MetaTraceParent:
		return setRaw(d.first(1<<2), v, &d.m.TraceParent)
	case protocol.MetaTraceState:
		return setRaw(d.first(1<<3), v, &d.m.TraceState)
	}
	return unknownKey(k, protocol.MetaProtocolVersion, protocol.MetaClientCapabilities, protocol.MetaTraceParent, protocol.MetaTraceState)
}

// unknownKey lets an unknown key be skipped, as encoding/json skips it,
// unless encoding/json would take it for one of the names of the fields
// being decoded (protocol.FoldsOnto).
func unknownKey(k []byte, names ...string) error {
	if protocol.FoldsOnto(k, names...) {
		return errSlow
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

// setRaw keeps a json.RawMessage field met for the first time: the
// value's bytes, shared with the decoded message, which owns them and
// never changes them (the full slice expression keeps an append from
// writing past them).
func setRaw(first bool, v []byte, dst *json.RawMessage) error {
	if !first {
		return errSlow
	}
	*dst = json.RawMessage(v[:len(v):len(v)])
	return nil
}

// fastString decodes a JSON string value as encoding/json does
// (protocol.Unquote); errSlow for one it leaves to encoding/json.
func fastString(v []byte) (string, error) {
	if s, ok := protocol.Unquote(v); ok {
		return s, nil
	}
	return "", errSlow
}

func isNull(v []byte) bool { return string(v) == "null" }
