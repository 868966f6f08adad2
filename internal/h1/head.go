package h1

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
)

// The response head of a server that answers plainly (HTTP/1.1, canonical
// header names, Content-Length framing), parsed from the connection's
// buffer without http.ReadResponse's copies: a string only for a line
// that differs from the connection's head before (headCache), and for a
// Post's response no map operation at all when the names are those of
// the head before. Anything else — another version, a 1xx, 204 or 304, chunked or absent framing, Connection other than
// keep-alive, Trailer, Pragma, a folded line, a byte outside printable
// ASCII, a name not in canonical form — goes to http.ReadResponse
// untouched, so what is read is always what the standard library reads
// (FuzzSimpleHead compares the two).

// simpleHead parses the response head at the start of br when it is
// whole in the buffer and plain (see above). It returns nil, leaving br
// as it was, for any other head; else the response, with the head
// discarded from br and the Content-Length (> 0, or 0 and NoBody) in
// n. The Body is left for the caller to set.
func simpleHead(br *bufio.Reader, req *http.Request) (resp *http.Response, n int64) {
	p, n := plainHead(br, req, nil)
	if p == nil {
		return nil, 0
	}
	return &p.resp, n
}

// plainResponse is what a response simpleHead reads is made of, in one
// allocation: the response and its body reader.
type plainResponse struct {
	resp http.Response
	body bodyReader
}

// ownedResponse is a plainResponse whose Header is the caller's own
// (RoundTrip's), with the backing of its values for a head of up to
// len(vals) lines in the same allocation.
type ownedResponse struct {
	plainResponse
	vals [cachedLines]string
}

// cachedLines is how many header lines a headCache keeps.
const cachedLines = 8

// headCache is a connection's last plain head, line by line, each line
// with what it was read as: a server answers each request of a
// connection with much the same head (the same status, Content-Type,
// Content-Length and session id; a Date that changes once a second),
// and a line equal to the one before at the same place is neither
// checked, copied nor parsed again. Strings are immutable: a response
// keeps what it was given whatever the next one reads.
type headCache struct {
	// status is the status line's text after "HTTP/1.1 " ("200 OK"),
	// code its status code; lines are the header lines read.
	status string
	code   int
	lines  [cachedLines]headLine
	// header is the Header of the connection's plain responses to a Post
	// (made once; see Transport.Post), its values in vals. When built >
	// 0, header holds exactly the names of lines[:built], all different,
	// each with the one value vals[i:i+1] (= lines[i].val): a head whose
	// lines have the same names in the same order is then read into it
	// by changing the values that changed, without a map operation.
	header http.Header
	vals   [cachedLines]string
	built  int
}

// headLine is one header line as read: the line whole (without its
// CRLF), its name (interned) and trimmed value, and its Content-Length
// when it is one (else -1). Only lines a plain head may have are kept.
type headLine struct {
	line, key, val string
	length         int64
}

// read sets l to the header line b, checked: false when b is not a line
// of a plain head (then l is left as it was).
func (l *headLine) read(b []byte) bool {
	colon := bytes.IndexByte(b, ':')
	if colon <= 0 || !canonicalName(b[:colon]) || !printable(b[colon+1:]) {
		return false
	}
	line := string(b)
	key := interned(line[:colon])
	v := trimSpace(line[colon+1:])
	length := int64(-1)
	switch key {
	case "Transfer-Encoding", "Trailer", "Pragma":
		return false
	case "Connection":
		if !asciiEqualFold(v, "keep-alive") {
			return false
		}
	case "Content-Length":
		if length = contentLength(v); length < 0 {
			return false
		}
	}
	*l = headLine{line: line, key: key, val: v, length: length}
	return true
}

// plainHead is simpleHead, returning the whole plainResponse. hc, when
// not nil, is the connection's headCache; a Post's response then has
// the connection's Header (hc.header).
// A nil req is a POST (Transport.Post).
//
// The head is read in one pass over its lines, each found by its CR: a
// CR not followed by LF, or a LF or any control byte inside a line,
// refuses the head (printable and canonicalName allow neither), and the
// head ends at the first empty line, so what is read is exactly what
// lies before the first CRLFCRLF.
func plainHead(br *bufio.Reader, req *http.Request, hc *headCache) (p *plainResponse, n int64) {
	if req != nil && req.Method == http.MethodHead {
		return nil, 0
	}
	buf, _ := br.Peek(br.Buffered())
	const proto = "HTTP/1.1 "
	if len(buf) < len(proto) || string(buf[:len(proto)]) != proto {
		return nil, 0
	}
	lineEnd := bytes.IndexByte(buf, '\r')
	if lineEnd < len(proto)+3 || lineEnd+1 >= len(buf) || buf[lineEnd+1] != '\n' {
		return nil, 0
	}
	if hc == nil {
		hc = new(headCache)
	}
	statusText := buf[len(proto):lineEnd]
	if hc.status == "" || hc.status != string(statusText) {
		code := 0
		for _, c := range statusText[:3] {
			if c < '0' || c > '9' {
				return nil, 0
			}
			code = code*10 + int(c-'0')
		}
		if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified || code > 599 ||
			(len(statusText) > 3 && statusText[3] != ' ') || !printable(statusText) {
			return nil, 0
		}
		hc.status, hc.code = string(statusText), code
	}
	status, code := hc.status, hc.code
	var more []headLine // the lines past those hc keeps
	count := 0
	n = -1
	at := lineEnd + 2
	for ; ; count++ {
		if at+1 >= len(buf) {
			return nil, 0 // not whole in the buffer
		}
		if buf[at] == '\r' {
			if buf[at+1] != '\n' {
				return nil, 0
			}
			break
		}
		e := bytes.IndexByte(buf[at:], '\r')
		if e < 0 || at+e+1 >= len(buf) || buf[at+e+1] != '\n' {
			return nil, 0
		}
		raw := buf[at : at+e]
		var l *headLine
		if count < cachedLines {
			l = &hc.lines[count]
			if l.line != string(raw) { // compared in place: no copy
				key := l.key
				if !l.read(raw) {
					return nil, 0
				}
				if count < hc.built {
					if l.key != key {
						hc.built = 0
					} else {
						hc.vals[count] = l.val
					}
				}
			}
		} else {
			more = append(more, headLine{})
			l = &more[len(more)-1]
			if !l.read(raw) {
				return nil, 0
			}
		}
		if l.length >= 0 {
			if n >= 0 {
				return nil, 0 // repeated
			}
			n = l.length
		}
		at += e + 2
	}
	if n < 0 {
		return nil, 0
	}
	br.Discard(at + 2)
	var h http.Header
	if req != nil {
		o := new(ownedResponse)
		p = &o.plainResponse
		h = make(http.Header, count)
		strs := o.vals[:]
		if count > len(strs) {
			strs = make([]string, count)
		}
		fillHeader(h, hc.lines[:min(count, cachedLines)], more, strs)
	} else {
		p = new(plainResponse)
		h = hc.header
		if hc.built != count || len(h) != count {
			h = hc.postHeader(count, more)
		}
	}
	// field by field into the new (zeroed) response: a composite value
	// would be built aside and copied, under the GC's bulk write barrier
	r := &p.resp
	r.Status, r.StatusCode = status, code
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header, r.ContentLength, r.Request = h, n, req
	return p, n
}

// postHeader fills the connection's Header again with a head's count
// lines (those past the cached ones in more).
func (hc *headCache) postHeader(count int, more []headLine) http.Header {
	if hc.header == nil {
		hc.header = make(http.Header, max(count, 4))
	} else {
		clear(hc.header)
	}
	hc.built = 0
	strs := hc.vals[:]
	if count > len(strs) {
		strs = make([]string, count)
	}
	if fillHeader(hc.header, hc.lines[:min(count, cachedLines)], more, strs) && count <= cachedLines {
		hc.built = count
	}
	return hc.header
}

// fillHeader puts the lines, then more, in h, the first value of each
// name in strs (one slot a line); it reports whether every name was
// different.
func fillHeader(h http.Header, lines, more []headLine, strs []string) (distinct bool) {
	distinct = true
	i := 0
	for _, ls := range [2][]headLine{lines, more} {
		for j := range ls {
			l := &ls[j]
			if vs := h[l.key]; vs == nil {
				strs[i] = l.val
				h[l.key] = strs[i : i+1 : i+1]
			} else {
				h[l.key] = append(vs, l.val)
				distinct = false
			}
			i++
		}
	}
	return distinct
}

// printable reports whether b is printable ASCII or tabs.
func printable(b []byte) bool {
	for _, c := range b {
		if (c < ' ' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// canonicalName reports whether b is a header name of letters, digits and
// dashes as textproto.CanonicalMIMEHeaderKey writes it.
func canonicalName(b []byte) bool {
	upper := true
	for _, c := range b {
		switch {
		case c == '-':
			upper = true
			continue
		case c >= '0' && c <= '9':
		case c >= 'A' && c <= 'Z':
			if !upper {
				return false
			}
		case c >= 'a' && c <= 'z':
			if upper {
				return false
			}
		default:
			return false
		}
		upper = false
	}
	return true
}

// interned is key as a constant string for the names every answer
// carries, so that the head's string is not kept alive by them alone.
func interned(key string) string {
	for _, k := range [...]string{"Content-Type", "Content-Length", "Date", "Mcp-Session-Id", "Connection", "Keep-Alive", "Server", "Cache-Control"} {
		if key == k {
			return k
		}
	}
	return key
}

// trimSpace trims spaces and tabs, as textproto trims header values.
func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func asciiEqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], t[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// contentLength parses a plain Content-Length (digits, no leading zero):
// -1 for anything else, which http.ReadResponse then judges.
func contentLength(v string) int64 {
	if v == "" || len(v) > 18 || (v[0] == '0' && len(v) > 1) {
		return -1
	}
	var n int64
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return -1
		}
		n = n*10 + int64(v[i]-'0')
	}
	return n
}

// lengthBody is a response body framed by its Content-Length, read from
// the connection's buffer as net/http's body reads one: io.EOF after n
// bytes, io.ErrUnexpectedEOF when the connection ends before.
type lengthBody struct {
	br *bufio.Reader
	n  int64
}

func (b *lengthBody) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	k, err := b.br.Read(p)
	b.n -= int64(k)
	switch {
	case err == io.EOF && b.n > 0:
		err = io.ErrUnexpectedEOF
	case b.n == 0:
		// the last bytes come with io.EOF, as net/http's body gives them:
		// the connection is released without one more Read
		err = io.EOF
	}
	return k, err
}

func (b *lengthBody) Close() error { return nil }
