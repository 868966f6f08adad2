package simserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/readbench/readbench/protocol"
)

// encodeContents renders the contents array of a read, faults applied, as
// the JSON bytes that go on the wire. Payloads are copied from the
// generator's pre-encoded blocks (base64 for blobs, escaped text for text);
// Server caches the result as well.
func (g *generator) encodeContents(s *Spec) []byte {
	if s.Fault == FaultEmpty {
		return []byte("[]")
	}
	per := 96 + len(s.URI) + len(s.DeclaredMIME()) + base64.StdEncoding.EncodedLen(int(s.Size))
	dst := make([]byte, 0, 2+s.Entries*per)
	dst = append(dst, '[')
	for i := range s.Entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = g.appendEntry(dst, s, i)
	}
	return append(dst, ']')
}

// appendEntry appends contents entry i of a read.
func (g *generator) appendEntry(dst []byte, s *Spec, i int) []byte {
	e := g.entryMeta(s, i)
	seed := g.entrySeed(s, i)
	dst = append(dst, `{"uri":`...)
	dst = appendJSONString(dst, e.URI)
	if e.MIME != "" {
		dst = append(dst, `,"mimeType":`...)
		dst = appendJSONString(dst, e.MIME)
	}
	if s.rev != 0 { // a changed document says which revision it is
		dst = append(dst, `,"_meta":{"`+MetaRevision+`":`...)
		dst = strconv.AppendUint(dst, s.rev, 10)
		dst = append(dst, '}')
	}
	text := s.kind != nil
	switch s.Fault {
	case FaultNeither:
		// no payload field at all: the bug a client must not read as an empty document
	case FaultBadBase64:
		dst = append(dst, `,"blob":"`...)
		start := len(dst)
		dst = g.appendPayload64(dst, s, seed, text)
		if len(dst) == start {
			dst = append(dst, '=')
		} else {
			dst[start+(len(dst)-start)/2] = '!' // outside the base64 alphabet
		}
		dst = append(dst, '"')
	case FaultBoth:
		dst = append(dst, `,"text":`...)
		if text {
			dst = g.appendText(dst, s, seed)
		} else {
			dst = append(dst, `""`...)
		}
		dst = append(dst, `,"blob":"`...)
		dst = append(g.appendPayload64(dst, s, seed, text), '"')
	default:
		if text {
			dst = append(dst, `,"text":`...)
			dst = g.appendText(dst, s, seed)
		} else {
			dst = append(dst, `,"blob":"`...)
			dst = append(g.appendBlob64(dst, s, seed), '"')
		}
	}
	return append(dst, '}')
}

// appendText appends a text entry's content as a JSON string.
func (g *generator) appendText(dst []byte, s *Spec, seed uint64) []byte {
	return g.textBlock(s.kind).appendJSON(dst, int(s.Size), seed)
}

// appendPayload64 appends the base64 of an entry's content, text or not
// (the faults that put text in a blob).
func (g *generator) appendPayload64(dst []byte, s *Spec, seed uint64, text bool) []byte {
	if text {
		return base64.StdEncoding.AppendEncode(dst, g.data(s, seed))
	}
	return g.appendBlob64(dst, s, seed)
}

// appendJSONString appends s as a JSON string, as servers write them
// (protocol.AsServersSend).
func appendJSONString[T string | []byte](dst []byte, s T) []byte {
	return protocol.AppendString(dst, s, protocol.AsServersSend)
}

// appendEscaped appends s escaped for the inside of a JSON string, as
// servers write them.
func appendEscaped[T string | []byte](dst []byte, s T) []byte {
	return protocol.AppendEscaped(dst, s, protocol.AsServersSend)
}

// marshal encodes v as JSON without HTML escaping: a server that sends
// `&` as \u0026 is legal but not what most servers do, and URIs are full of
// them.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// mustMarshal encodes values built here from maps, strings and numbers,
// which cannot fail to encode.
func mustMarshal(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
