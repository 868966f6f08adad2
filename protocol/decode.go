package protocol

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// The one-pass decoder. encoding/json's reflection and its separate
// validation pass were over a third of the simulated server's CPU per
// small read over stdio, for a message of a few hundred bytes whose shape
// hardly varies. decodeFast takes that shape — an object with the members
// of Message spelled exactly, each once, a "jsonrpc" of "2.0" and a plain
// ASCII method — in one pass that validates the whole message as strictly
// as encoding/json does. Anything else (an escape or a letter case
// encoding/json might fold onto a member, a repeated member, an "error"
// member, bad JSON, deep nesting) is left to decodeJSON, whose answer,
// error text included, stands. FuzzDecode holds the two together.

// fastDepth bounds the nesting the one-pass path walks; deeper messages
// (none a client sends) go to encoding/json, which has its own bound.
const fastDepth = 64

// DecodeVisit is Decode that also hands the members of the params object
// to visit (nil: none) during the same pass, so that a server learns the
// parameters it needs without walking params again. visit sees each
// member of params with parent nil, and before it, when the member's
// value is an object, each member of that object with parent the
// member's key (so a server reads _meta's members without walking _meta
// again). Keys are raw (between their quotes, escapes kept), values raw
// JSON; all are slices of the message's own copy of b, valid as long as
// the message and never to be modified. A member visit rejects stops the
// visits.
//
// visited reports that params is an object and visit accepted every one
// of its members. When it is false (no params, params of another type, a
// rejected member, or a message the one-pass path left to encoding/json)
// visit may have seen some members or none, and the caller decodes
// m.Params itself.
func DecodeVisit(b []byte, visit func(parent, key, value []byte) error) (m *Message, visited bool, err error) {
	if m, visited, ok := decodeFast(b, visit); ok {
		return m, visited, nil
	}
	m, err = decodeJSON(b)
	return m, false, err
}

// Members of Message and the bits that mark them seen.
const (
	seenJSONRPC = 1 << iota
	seenID
	seenMethod
	seenParams
	seenResult
)

// decodeFast is the one-pass path; ok is false when the message is not
// one it takes.
func decodeFast(in []byte, visit func(parent, key, value []byte) error) (m *Message, visited, ok bool) {
	b := bytes.Clone(in) // one allocation holds every raw member the message keeps
	strict := walk{strict: true, limit: fastDepth}
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false, false
	}
	m = &Message{}
	var seen uint
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil, false, false // no jsonrpc member: encoding/json words the error
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false, false
		}
		ke, plain := strictString(b, i)
		if ke < 0 || !plain {
			return nil, false, false
		}
		key := b[i+1 : ke-1]
		i = SkipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return nil, false, false
		}
		vs := SkipSpace(b, i+1)
		if vs >= len(b) {
			return nil, false, false
		}
		bit, ve := uint(0), -1
		switch string(key) {
		case "jsonrpc":
			bit = seenJSONRPC
			if ve, plain = strictString(b, vs); ve >= 0 && (!plain || string(b[vs:ve]) != `"2.0"`) {
				ve = -1
			}
			m.JSONRPC = "2.0"
		case "method":
			bit = seenMethod
			if ve, plain = strictString(b, vs); ve >= 0 && !plain {
				ve = -1
			} else if ve >= 0 {
				m.Method = methodName(b[vs+1 : ve-1])
			}
		case "id":
			bit, ve = seenID, strict.end(b, vs, 1)
			if ve >= 0 {
				m.ID = b[vs:ve:ve]
			}
		case "params":
			bit = seenParams
			if visit != nil && b[vs] == '{' {
				var err error
				if ve, visited, err = (walk{strict: true, params: true, limit: fastDepth}).object(b, vs, 1, nil, visit); err != nil {
					ve = -1
				}
			} else {
				ve = strict.end(b, vs, 1)
			}
			if ve >= 0 {
				m.Params = b[vs:ve:ve]
			}
		case "result":
			bit, ve = seenResult, strict.end(b, vs, 1)
			if ve >= 0 {
				m.Result = b[vs:ve:ve]
			}
		default:
			if FoldsOnto(key, "jsonrpc", "id", "method", "params", "result", "error") {
				return nil, false, false
			}
			ve = strict.end(b, vs, 1)
		}
		if ve < 0 || seen&bit != 0 {
			return nil, false, false
		}
		seen |= bit
		i = SkipSpace(b, ve)
		if i >= len(b) {
			return nil, false, false
		}
		if b[i] == '}' {
			break
		}
		if b[i] != ',' {
			return nil, false, false
		}
		i = SkipSpace(b, i+1)
	}
	if SkipSpace(b, i+1) != len(b) || seen&seenJSONRPC == 0 {
		return nil, false, false
	}
	return m, visited, true
}

// FoldsOnto reports whether encoding/json might decode the member whose
// raw key (between its quotes, escapes kept) is key into a field named one
// of names: its matching ignores case, with Unicode's folding (K and ſ
// fold onto k and s), and a key with escapes might spell any name. A
// one-pass decoder that meets such a key leaves the message to
// encoding/json.
func FoldsOnto(key []byte, names ...string) bool {
	ascii := true
	for _, c := range key {
		if c == '\\' {
			return true
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	for _, name := range names {
		// Two ASCII strings equal under folding have the same length; a
		// non-ASCII key may fold onto a name of another length.
		if (!ascii || len(key) == len(name)) && strings.EqualFold(string(key), name) {
			return true
		}
	}
	return false
}

// methodName is the method as a string, without an allocation for the
// methods of this protocol.
func methodName(b []byte) string {
	switch string(b) {
	case MethodResourcesRead:
		return MethodResourcesRead
	case MethodCancelled:
		return MethodCancelled
	case MethodPing:
		return MethodPing
	case MethodInitialize:
		return MethodInitialize
	case MethodInitialized:
		return MethodInitialized
	case MethodDiscover:
		return MethodDiscover
	case MethodResourcesList:
		return MethodResourcesList
	case MethodToolsCall:
		return MethodToolsCall
	}
	return string(b)
}
