package client

import (
	"bytes"
	"fmt"

	"github.com/readbench/readbench/protocol"
)

// The streaming answer scanner. A transport feeds it an answer's bytes
// as they arrive (feed, in pieces cut anywhere) and asks for the verdict
// at the end (verdict): it never holds the answer, only a few small fields (ids, the
// uri and mimeType of entries, an error object) and, for a text entry that
// may be JSON, the text up to jsonTextKeep bytes. What it concludes is
// what the buffered walk of protocol.ObjectFields would conclude on the
// same bytes (see classify_ref_test.go, the oracle of its fuzz targets),
// the last of a repeated member winning, except that an answer
// encoding/json would reject is never usable: json.Valid is the judge
// (see scanstrict.go).

// The parser's states: what it expects next.
const (
	sTop      = iota // whitespace, then the opening brace of the message
	sObjFirst        // a member name or '}'
	sObjKey          // a member name (after ',')
	sColon           // ':'
	sValue           // a value
	sArrFirst        // a value or ']'
	sAfter           // ',' or the container's closer
	sString          // inside a string
	sNumber          // inside a number (numState says where)
	sLiteral         // inside true, false or null
	sDone            // the message's object is closed: only whitespace may follow
	sBroken          // a syntax error was found
)

// What a value, or a container on the stack, is to the classification.
const (
	rSkip       = iota // checked for syntax only
	rTop               // the message object
	rKey               // a member name being read
	rResult            // the value of "result"
	rResultObj         // the result object
	rContents          // the value of "contents"
	rContentArr        // the contents array
	rEntry             // an element of contents
	rEntryObj          // an entry object
	rText              // an entry's "text"
	rBlob              // an entry's "blob"
	rCapture           // a small value kept whole (see capWhat)
)

// What a captured value is.
const (
	capNone = iota
	capID
	capMethod
	capError
	capResultType
	capTTL
	capScope
	capURI
	capMIME
)

// answerScanner classifies one answer as it streams in. Reset it for each
// answer; a connection keeps one and reuses its buffers.
type answerScanner struct {
	scanState
	// stack holds the roles of the open containers. Only stack[:depth] is
	// ever read and push writes before it reads, so reset leaves it be.
	stack [protocol.MaxDepth + 2]uint8
}

// scanState is what reset clears: everything the scanner knows of the
// answer but the stack.
type scanState struct {
	state  int
	depth  int
	role   uint8 // role of the value about to start (sValue, sArrFirst)
	detail string
	// invalid is the first fault the walk read past (see invalidAt);
	// "" when none.
	invalid string
	offset  int64 // bytes fed so far

	lit    string // literal being matched
	litPos int
	num    protocol.Number // the number being read

	// string state
	strRole  uint8
	esc      uint8 // 0 none; 1 after '\'; 2..5 reading \u hex digits
	uval     rune
	qpos     int // index of the next '"' in the current chunk (-1: unknown)
	key      [16]byte
	keyLen   int
	strStart int64 // offset of the string's opening quote

	// capture of a small value (capWhat), from capFrom in the chunk
	capWhat  uint8
	capDepth int
	capFrom  int
	capOn    bool
	capBuf   []byte
	capOver  bool

	msg   messageState
	res   resultState
	cont  contentsState
	entry entryState

	text textState
	blob blobState
	dig  digester

	// lastMIME is the last entry mimeType read, kept across answers: the
	// next answer's is most often the same string, then not allocated again.
	lastMIME string
}

// messageState is what the message's top-level members said.
type messageState struct {
	id        []byte // raw, the first "id"
	idDone    bool
	method    string // the "method" member: a request or notification
	hasError  bool
	errRaw    []byte
	errOver   bool
	hasResult bool
}

// resultState is the last "result" member.
type resultState struct {
	notObject  bool
	resultType string
	hasTTL     bool
	ttlMs      int64
	cacheScope string
	hasContent bool // a "contents" member
}

// contentsState is the last "contents" member of the result.
type contentsState struct {
	kind    uint8 // contentsAbsent ...
	entries int
	usable  bool
	detail  string
	found   entriesFound // sizes and shape findings of the entries
	// the uri of each object entry, counted, when the request's uri is
	// not known yet (an id after the payload on a shared stream); past
	// maxURIs distinct ones, the rest count as rewritten
	uris     map[string]int
	objects  int    // entries that were objects
	uriKnown bool   // the request's uri is known: compared entry by entry
	uri      string // the request's uri, when known
}

const (
	contentsAbsent = iota
	contentsNull
	contentsNotArray
	contentsArray
)

// entryState is the entry being read.
type entryState struct {
	uri, mime    string
	text, blob   uint8 // payloadNone, payloadString, payloadOther
	payloads     int   // text and blob members seen
	textN        int64
	textKeep     bool // the raw text is in scanner.text.keep, whole
	blobOK       bool
	blobN, blobP int64
	blobRaw      int64
	head         [18]byte // the first decoded bytes of the blob, for sniffing
	headLen      int
}

const (
	payloadNone = iota
	payloadString
	payloadOther
)

// reset readies s for a new answer; digest says whether to hash the
// decoded content (it may be turned on later, before the first entry).
func (s *answerScanner) reset(uriKnown bool, uri string, digest bool) {
	capBuf, id, errRaw, keep := s.capBuf[:0], s.msg.id[:0], s.msg.errRaw[:0], s.text.keep[:0]
	blob, dig, lastMIME := s.blob.reuse(), s.dig.reuse(digest), s.lastMIME
	s.scanState = scanState{} // cleared in place
	s.capBuf, s.msg.id, s.msg.errRaw, s.text.keep = capBuf, id, errRaw, keep
	s.blob, s.dig, s.lastMIME = blob, dig, lastMIME
	s.cont.uriKnown, s.cont.uri = uriKnown, uri
	s.qpos = -1
}

// broken records a syntax error at chunk index i.
func (s *answerScanner) broken(i int, what string) {
	if s.state != sBroken {
		s.detail = fmt.Sprintf("answer is not a JSON object: invalid JSON at offset %d: %s", s.offset+int64(i), what)
		s.state = sBroken
	}
}

// feed follows the next bytes of the answer; it never fails (a syntax
// error is part of the verdict).
func (s *answerScanner) feed(p []byte) {
	s.qpos = -1
	s.capFrom, s.text.keepFrom = 0, 0
	i := 0
	for i < len(p) && s.state != sDone && s.state != sBroken {
		switch s.state {
		case sString:
			i = s.stringBytes(p, i)
			continue
		case sNumber:
			i = s.numberBytes(p, i)
			continue
		case sLiteral:
			if p[i] != s.lit[s.litPos] {
				s.broken(i, "bad literal")
				continue
			}
			s.litPos++
			i++
			if s.litPos == len(s.lit) {
				s.valueEnd(p, i)
			}
			continue
		}
		c := p[i]
		if protocol.IsSpace(c) {
			i++
			continue
		}
		s.structural(p, i, c)
		i++
	}
	if s.state == sDone && s.invalid == "" {
		s.trailing(p, i)
	}
	if s.capOn {
		s.capture(p[s.capFrom:])
	}
	if s.text.keepOn {
		s.text.keepBytes(p[s.text.keepFrom:])
	}
	s.offset += int64(len(p))
}

// structural handles a byte outside strings, numbers and literals.
func (s *answerScanner) structural(p []byte, i int, c byte) {
	switch s.state {
	case sTop:
		if c != '{' {
			s.broken(i, "expected object")
			return
		}
		s.push(rTop)
		s.state = sObjFirst
	case sObjFirst, sObjKey:
		if c == '}' && s.state == sObjFirst {
			s.closeContainer(p, i)
			return
		}
		if c != '"' {
			s.broken(i, "expected string")
			return
		}
		s.keyLen = 0
		s.startString(rKey, i)
	case sColon:
		if c != ':' {
			s.broken(i, "expected ':'")
			return
		}
		s.role = s.memberRole()
		s.state = sValue
	case sValue:
		s.startValue(p, i, c)
	case sArrFirst:
		if c == ']' {
			s.closeContainer(p, i)
			return
		}
		s.startValue(p, i, c)
	case sAfter:
		top := s.stack[s.depth-1]
		isObj := top != rContentArr && top != rSkipArr && top != rCaptureArr
		switch {
		case c == ',' && isObj:
			s.state = sObjKey
		case c == ',':
			s.role = s.elementRole()
			s.state = sValue
		case c == '}' && isObj, c == ']' && !isObj:
			s.closeContainer(p, i)
		default:
			if isObj {
				s.broken(i, "expected ',' or '}'")
			} else {
				s.broken(i, "expected ',' or ']'")
			}
		}
	}
}

// Array roles on the stack: a skipped array and an array inside a
// capture are told from objects by these.
const (
	rSkipArr    = 100
	rCaptureArr = 101
	rCaptureObj = 102
)

func (s *answerScanner) push(r uint8) {
	s.stack[s.depth] = r
	s.depth++
}

// startValue begins the value at p[i] (c), whose role is s.role.
func (s *answerScanner) startValue(p []byte, i int, c byte) {
	if s.depth > protocol.MaxDepth {
		s.broken(i, "nesting too deep")
		return
	}
	role := s.role
	if role == rCapture && !s.capOn {
		s.capOn, s.capDepth, s.capFrom = true, s.depth, i
	}
	s.beginRole(role, c, i)
	switch {
	case c == '"':
		s.startString(role, i)
	case c == '{':
		s.push(objectRole(role))
		s.state = sObjFirst
	case c == '[':
		s.push(arrayRole(role))
		s.state = sArrFirst
		s.role = s.elementRole()
	case protocol.IsNumberStart(c):
		s.num.Start(c)
		s.state = sNumber
	case protocol.Literal(c) != "":
		s.lit, s.litPos, s.state = protocol.Literal(c), 1, sLiteral
	default:
		s.broken(i, fmt.Sprintf("unexpected %q", c))
	}
}

// closeContainer closes the container on top at p[i].
func (s *answerScanner) closeContainer(p []byte, i int) {
	s.depth--
	r := s.stack[s.depth]
	switch r {
	case rEntryObj:
		s.endEntry()
	}
	if s.depth == 0 {
		s.state = sDone
		return
	}
	s.valueEnd(p, i+1)
}

// valueEnd is called when a value ends just before p[end].
func (s *answerScanner) valueEnd(p []byte, end int) {
	if s.capOn && s.depth == s.capDepth {
		s.capture(p[s.capFrom:end])
		s.capOn = false
		s.captured()
	}
	s.state = sAfter
}

// capture keeps b, a piece of the value being captured, up to the bound
// of its kind.
func (s *answerScanner) capture(b []byte) {
	limit := maxSmallField
	if s.capWhat == capError {
		limit = maxErrorField
	}
	if len(s.capBuf)+len(b) > limit {
		s.capOver = true
		return
	}
	s.capBuf = append(s.capBuf, b...)
}

// finishSyntax ends the answer: a message not closed is a syntax error.
func (s *answerScanner) finishSyntax() {
	switch s.state {
	case sDone, sBroken:
	case sNumber, sLiteral, sString:
		s.broken(0, "unexpected end")
	default:
		s.broken(0, "unterminated object")
	}
}

var nullLiteral = []byte("null")

// isNull reports whether raw is the JSON literal null.
func isNull(raw []byte) bool { return bytes.Equal(raw, nullLiteral) }
