package client

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// What the streaming scanner concludes: the small members it kept, each
// entry when it closes, and the verdict at the answer's end, in the order
// and with the rules of the buffered walk it replaces.

// maxURIs bounds the entry uris kept when the request's uri is not known
// while its entries stream by (an id after the payload).
const maxURIs = 1024

// overlong stands for a captured string too long to keep.
const overlong = "\x00overlong"

// captured handles a small member kept whole in s.capBuf.
func (s *answerScanner) captured() {
	raw, over := s.capBuf, s.capOver
	s.capBuf, s.capOver = s.capBuf[:0], false
	switch s.capWhat {
	case capID:
		if !s.msg.idDone {
			s.msg.idDone = true
			if !over {
				s.msg.id = append(s.msg.id[:0], raw...)
			}
		}
	case capMethod:
		s.msg.method = string(bytes.Trim(raw, `"`))
		if s.msg.method == "" {
			s.msg.method = "?" // a method member all the same: not a response
		}
	case capError:
		s.msg.hasError, s.msg.errOver = true, over
		s.msg.errRaw = append(s.msg.errRaw[:0], raw...)
	case capResultType:
		unquote(raw, over, &s.res.resultType, protocol.ResultComplete, protocol.ResultInputRequired)
	case capTTL:
		s.res.hasTTL = !over && unmarshalInt(raw, &s.res.ttlMs) && s.res.ttlMs >= 0
	case capScope:
		unquote(raw, over, &s.res.cacheScope, "public", "private")
	case capURI:
		unquote(raw, over, &s.entry.uri, s.cont.uri)
	case capMIME:
		unquote(raw, over, &s.entry.mime, s.lastMIME)
		s.lastMIME = s.entry.mime
	}
}

// unmarshalInt sets *dst as json.Unmarshal into an int64 would and
// reports whether it did: a plain run of digits (what servers send) is
// parsed without reflection.
func unmarshalInt(raw []byte, dst *int64) bool {
	plain := len(raw) > 0 && len(raw) < 19 && (raw[0] != '0' || len(raw) == 1)
	for _, c := range raw {
		plain = plain && c >= '0' && c <= '9'
	}
	if !plain {
		return json.Unmarshal(raw, dst) == nil
	}
	var n int64
	for _, c := range raw {
		n = n*10 + int64(c-'0')
	}
	*dst = n
	return true
}

// unquote sets *dst as json.Unmarshal into a string would (unchanged when
// raw is not a string), without reflection for the plain strings servers
// send, and without allocating one equal to *dst or to one of known (the
// value expected). A string over the capture bound becomes overlong.
func unquote(raw []byte, over bool, dst *string, known ...string) {
	if over {
		if len(raw) > 0 && raw[0] == '"' {
			*dst = overlong
		}
		return
	}
	if len(raw) >= 2 && raw[0] == '"' && plainString(raw[1:len(raw)-1]) {
		plain := raw[1 : len(raw)-1]
		if string(plain) == *dst {
			return
		}
		for _, k := range known {
			if string(plain) == k {
				*dst = k
				return
			}
		}
		*dst = string(plain)
		return
	}
	_ = json.Unmarshal(raw, dst)
}

// plainString reports whether b needs no decoding: printable ASCII
// without quotes or backslashes.
func plainString(b []byte) bool {
	end, high := protocol.PlainRun(b, 0)
	return end == len(b) && !high
}

// entriesFound is what the entries of an answer came to as each closed:
// their decoded sizes, the first one's mimeType, the shape findings.
type entriesFound struct {
	stats.ByteCounts // DiskBytes, Base64Bytes, Base64Padding (WireBytes is the transport's)
	mime             string
	shape            stats.Shape
}

// endEntry checks the entry that just closed, as checkEntry did.
func (s *answerScanner) endEntry() {
	c, e := &s.cont, &s.entry
	v := &c.found
	if c.entries == 1 {
		v.mime = strings.TrimSpace(e.mime)
	}
	switch {
	case c.uriKnown:
		if e.uri != c.uri {
			v.shape.URIRewritten++
		}
	case c.uris == nil || len(c.uris) < maxURIs || c.uris[e.uri] > 0:
		if c.uris == nil {
			c.uris = make(map[string]int)
		}
		c.uris[e.uri]++
	}
	if e.mime == "" {
		v.shape.MIMEMissing++
	}
	fail := func(why string) {
		c.usable = false
		c.detail = why
	}
	switch {
	case e.text == payloadNone && e.blob == payloadNone:
		v.shape.Neither++
		fail("entry has neither text nor blob")
	case e.text != payloadNone && e.blob != payloadNone:
		v.shape.Both++
		fail("entry has both text and blob")
	case e.text != payloadNone:
		if e.text != payloadString {
			fail("text is not a string")
			return
		}
		v.DiskBytes += e.textN
		if e.mime != "" && !s.textAgrees(e) {
			v.shape.MIMEMismatch++
		}
	case e.blob != payloadString || !e.blobOK:
		v.shape.BadBase64++
		fail("blob is not valid padded base64")
	default:
		v.DiskBytes += e.blobN
		v.Base64Bytes += e.blobRaw
		v.Base64Padding += e.blobP
		if e.mime != "" && !mimeAgrees(e.mime, e.head[:e.headLen]) {
			v.shape.MIMEMismatch++
		}
	}
}

// textAgrees is textAgrees on the kept text. A JSON text that could not
// be kept (over jsonTextKeep, or declared JSON only after its text by a
// repeated mimeType) is not checked.
func (s *answerScanner) textAgrees(e *entryState) bool {
	if isJSONType(e.mime) && !e.textKeep {
		return true
	}
	return textAgrees(e.mime, s.text.keep)
}

// answer fills a, which is zero, with what the answer is once every byte
// was fed: its sizes, shape findings, cache hints and digest, and its
// outcome, decided from how it ended (decide). uri and modern are the
// request's.
func (s *answerScanner) answer(a *Answer, uri string, modern bool) {
	a.decide(s.ending(a, uri, modern))
}

// ending fills a with what the answer said of itself and returns how it
// ended, in the order and with the rules of the buffered walk it
// replaces.
func (s *answerScanner) ending(a *Answer, uri string, modern bool) ending {
	s.finishSyntax()
	switch {
	case s.state == sBroken:
		return unusableAnswer(s.detail)
	case s.invalid != "":
		return unusableAnswer(s.invalid)
	case s.msg.hasError && s.msg.errOver:
		return unusableAnswer("error object over the size readbench keeps of one")
	case s.msg.hasError:
		return rpcEnding(s.msg.errRaw, modern)
	case !s.msg.hasResult:
		return unusableAnswer("answer has neither result nor error")
	case s.res.notObject:
		return unusableAnswer("result is not an object")
	}
	a.HasTTL, a.TTLMs, a.CacheScope = s.res.hasTTL, s.res.ttlMs, s.res.cacheScope
	if s.res.resultType == protocol.ResultInputRequired {
		return ending{input: true}
	}
	c := &s.cont
	switch c.kind {
	case contentsAbsent, contentsNull:
		return unusableAnswer("result has no contents array")
	case contentsNotArray:
		return unusableAnswer("contents is not an array")
	}
	a.DiskBytes, a.Base64Bytes, a.Base64Padding = c.found.DiskBytes, c.found.Base64Bytes, c.found.Base64Padding
	a.MIME, a.Shape, a.Entries = c.found.mime, c.found.shape, c.entries
	if !c.uriKnown {
		a.Shape.URIRewritten = int64(c.objects - c.uris[uri])
	}
	switch {
	case a.Entries == 0:
		a.Shape.EmptyContents++
		return unusableAnswer("empty contents")
	case !c.usable:
		return unusableAnswer(c.detail)
	}
	if a.Entries > 1 {
		a.Shape.MultiEntry++
		a.Shape.URIRewritten = 0
	}
	a.Digest = s.dig.sum()
	return ending{}
}

// isJSONType reports whether a declared type is JSON (application/json or
// a +json type), whose text must then be valid JSON.
func isJSONType(declared string) bool {
	m := mediaType(declared)
	return m == "application/json" || strings.HasSuffix(m, "+json")
}

// mediaType is a declared type lowercased, without parameters.
func mediaType(declared string) string {
	if bareType(declared) {
		return declared // what servers send: nothing to take off
	}
	m, _, _ := strings.Cut(declared, ";")
	return strings.ToLower(strings.TrimSpace(m))
}

// idOf is the message's top-level id (the first one), raw; nil when none
// was seen whole.
func (s *answerScanner) idOf() []byte {
	if !s.msg.idDone || len(s.msg.id) == 0 {
		return nil
	}
	return s.msg.id
}

// isResponse reports whether the message, read to its end, is a JSON-RPC
// response (a result or an error member).
func (s *answerScanner) isResponse() bool {
	s.finishSyntax()
	return s.state == sDone && (s.msg.hasResult || s.msg.hasError)
}

// methodOf is the message's method ("" for a response), once read to its
// end.
func (s *answerScanner) methodOf() string {
	s.finishSyntax()
	if s.state != sDone {
		return ""
	}
	return s.msg.method
}

// isNullID reports whether the id is null.
func (s *answerScanner) isNullID() bool { return isNull(s.idOf()) }

// nullIDResult reports whether the message, read to its end, is a result
// with a null id: JSON-RPC 2.0 gives a null id only to an error the
// server could not tie to a request (a parse error, an invalid request),
// so such a result answers no request, and is not taken as the read's.
func (s *answerScanner) nullIDResult() bool {
	return s.isResponse() && s.isNullID() && s.msg.hasResult && !s.msg.hasError
}

// errNullIDResult is the protocol failure of a result with a null id.
func errNullIDResult() error {
	return protocolErr("the answer is a result with a null id, which answers no request (JSON-RPC 2.0 gives a null id only to an error it could not tie to one)")
}

// bareType reports whether a declared type is its own media type: printable
// ASCII with no space, parameter or upper-case letter.
func bareType(declared string) bool {
	for i := range len(declared) {
		c := declared[i]
		if c <= ' ' || c >= utf8.RuneSelf || c == ';' || (c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
