package h1

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
)

// The response head of a server that answers plainly (HTTP/1.1, canonical
// header names, Content-Length framing), parsed from the connection's
// buffer without http.ReadResponse's copies: one string for the whole
// head, made only when some line differs from the connection's head
// before (headCache), and one slice for its values. Anything else — another version, a
// 1xx, 204 or 304, chunked or absent framing, Connection other than
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
// allocation: the response, its body reader and (for a head of up to
// len(vals) lines) the backing of its header values.
type plainResponse struct {
	resp http.Response
	body bodyReader
	vals [8]string
}

// headCache is a connection's last plain head, line by line, as
// strings: a server answers each request of a connection with much the
// same head (the same status, Content-Type, Content-Length and session
// id; a Date that changes once a second), and a line equal to the one
// before is taken from here rather than copied out of the buffer again.
// Strings are immutable: a response keeps what it was given whatever
// the next one reads.
type headCache struct {
	// status is the status line's text after "HTTP/1.1 " ("200 OK");
	// lines are the header lines, each whole without its CRLF.
	status string
	lines  [8]string
	// header is the Header of the connection's plain responses to a Post
	// (made once, cleared for each): see Transport.Post.
	header http.Header
}

// line returns b as a string: cached when b equals it, else cut from
// the head's string, made (in *s) on the first line that needs it, and
// cached for the next head. off is b's offset in head.
func (hc *headCache) line(slot *string, b, head []byte, off int, s *string) string {
	if *slot == string(b) { // compared in place: no copy
		return *slot
	}
	if *s == "" {
		*s = string(head)
	}
	l := (*s)[off : off+len(b)]
	*slot = l
	return l
}

// plainHead is simpleHead, returning the whole plainResponse. hc, when
// not nil, is the connection's headCache; a Post's response then has
// the connection's Header (hc.header).
// A nil req is a POST (Transport.Post).
func plainHead(br *bufio.Reader, req *http.Request, hc *headCache) (p *plainResponse, n int64) {
	if req != nil && req.Method == http.MethodHead {
		return nil, 0
	}
	buf, _ := br.Peek(br.Buffered())
	end := bytes.Index(buf, []byte("\r\n\r\n"))
	if end < 0 {
		return nil, 0
	}
	head := buf[:end+2] // every line with its CRLF
	const proto = "HTTP/1.1 "
	if !bytes.HasPrefix(head, []byte(proto)) || len(head) < len(proto)+5 {
		return nil, 0
	}
	lineEnd := bytes.IndexByte(head, '\r')
	statusText := head[len(proto):lineEnd]
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
	// The header lines: count them first, for one slice of values.
	lines := head[lineEnd+2:]
	count := bytes.Count(lines, []byte("\r\n"))
	if bytes.Count(head, []byte("\n")) != count+1 || bytes.Count(head, []byte("\r")) != count+1 {
		return nil, 0 // a bare CR or LF
	}
	if hc == nil {
		hc = new(headCache)
	}
	var s string // the head as one string, made when a line is not cached
	var spare string
	status := hc.line(&hc.status, head[len(proto):lineEnd], head, len(proto), &s)
	at := lineEnd + 2
	var h http.Header
	switch {
	case req != nil:
		h = make(http.Header, count)
	case hc.header != nil:
		h = hc.header
		clear(h)
	default:
		h = make(http.Header, max(count, 4))
		hc.header = h
	}
	p = new(plainResponse)
	strs := p.vals[:]
	if count > len(p.vals) {
		strs = make([]string, count)
	}
	n = -1
	for i := 0; i < count; i++ {
		e := at + bytes.IndexByte(head[at:], '\r')
		raw := head[at:e]
		colon := bytes.IndexByte(raw, ':')
		if colon <= 0 || !canonicalName(raw[:colon]) || !printable(raw[colon+1:]) {
			return nil, 0
		}
		slot := &spare
		if i < len(hc.lines) {
			slot = &hc.lines[i]
		}
		line := hc.line(slot, raw, head, at, &s)
		key := line[:colon]
		v := trimSpace(line[colon+1:])
		switch key {
		case "Transfer-Encoding", "Trailer", "Pragma":
			return nil, 0
		case "Connection":
			if !asciiEqualFold(v, "keep-alive") {
				return nil, 0
			}
		case "Content-Length":
			if n >= 0 {
				return nil, 0 // repeated
			}
			if n = contentLength(v); n < 0 {
				return nil, 0
			}
		}
		if key := interned(key); h[key] == nil {
			strs[i] = v
			h[key] = strs[i : i+1 : i+1]
		} else {
			h[key] = append(h[key], v)
		}
		at = e + 2
	}
	if n < 0 {
		return nil, 0
	}
	br.Discard(end + 4)
	p.resp = http.Response{
		Status: status, StatusCode: code,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, ContentLength: n, Request: req,
	}
	return p, n
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
	if err == io.EOF && b.n > 0 {
		err = io.ErrUnexpectedEOF
	}
	return k, err
}

func (b *lengthBody) Close() error { return nil }
