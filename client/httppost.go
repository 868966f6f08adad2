package client

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/protocol"
)

// A read over plain http goes out as an h1.Post: the header lines every
// POST of the transport shares are written once (postLines), the few
// that change (the session id, the version, the name read) kept encoded
// per session state and URI (readcache.go) and appended per read into a
// pooled buffer. No http.Request or Header map is built; the
// bytes on the wire are those newRequest's request makes
// (TestLightPostSendsWhatRequestSends). Anything else — a request that is
// not a read, bearer tokens, an OnAccepted hook, a URL with user info, a
// workload header that one of the transport's own would replace — goes
// the http.Request way.

// postLines are the header lines of every POST of a transport with the
// workload's headers: Content-Type, Accept, net/http's User-Agent and the
// workload's own. nil when some workload header would change what
// newRequest sends otherwise than by a line of its own (it names a header
// the transport sets or writeHead treats apart), or is not one well-formed
// line (newRequest then fails the way it always has).
func postLines(headers http.Header) []byte {
	for k := range headers {
		switch strings.ToLower(k) {
		case "content-type", "accept", "user-agent", "host", "content-length", "transfer-encoding", "connection",
			strings.ToLower(protocol.HeaderSessionID), strings.ToLower(protocol.HeaderProtocolVersion),
			strings.ToLower(protocol.HeaderMethod), strings.ToLower(protocol.HeaderName):
			return nil
		}
	}
	lines, _ := h1.AppendHeader(nil, "Content-Type", protocol.ContentTypeJSON)
	lines, _ = h1.AppendHeader(lines, "Accept", protocol.AcceptBoth)
	lines, _ = h1.AppendHeader(lines, "User-Agent", "Go-http-client/1.1") // what net/http sends
	for k, vs := range headers {
		for _, v := range vs {
			var err error
			if lines, err = h1.AppendHeader(lines, k, v); err != nil {
				return nil
			}
		}
	}
	return lines
}

// postHeads pools the header lines of the reads in flight: a buffer is
// held from a read's send until its response's head has come.
var postHeads = sync.Pool{New: func() any { return new([]byte) }}

// lightPost returns the h1 transport a read req can go out on as an
// h1.Post, its header lines in a buffer of postHeads and the session id
// they carry; nil when it must go as an http.Request (a header h1 would
// refuse: the http.Request way then says so as ever).
func (t *httpTransport) lightPost(req Request) (*h1.Transport, *[]byte, string) {
	if req.method != protocol.MethodResourcesRead || req.read == nil || req.accepted != nil || t.auth != nil ||
		t.fixed.lines == nil || t.fixed.target == nil || t.fixed.target.Scheme != "http" || t.fixed.target.User != nil ||
		t.client.Jar != nil || t.client.Timeout != 0 {
		return nil, nil, ""
	}
	h := plainH1(t.client.Transport)
	if h == nil {
		return nil, nil, ""
	}
	sid, version, modern := t.state()
	buf := postHeads.Get().(*[]byte)
	lines := append((*buf)[:0], t.fixed.lines...)
	// the session's lines and the name's, encoded once (readcache.go)
	lines, ok := t.fixed.heads.appendReadLines(lines, sid, version, modern, req.name)
	if !req.trace.IsZero() {
		lines = appendTraceLine(lines, req.trace)
	}
	*buf = lines
	if !ok {
		*buf = lines[:0]
		postHeads.Put(buf)
		return nil, nil, ""
	}
	return h, buf, sid
}

// sendPost is send for a read that goes as an h1.Post (lightPost), its
// header lines in buf (given back here) carrying session id sid, its
// deadline the connection's. A redirect is followed by the http.Client
// as in do, with the request newRequest makes.
func (t *httpTransport) sendPost(ctx context.Context, h *h1.Transport, buf *[]byte, sid string, req Request) (resp *http.Response, sent time.Time, err error) {
	lines := *buf
	sent = time.Now()
	resp, err = h.Post(ctx, &h1.Post{URL: t.fixed.target, Header: lines, Body: req.body, Deadline: req.read.deadline})
	*buf = lines[:0]
	postHeads.Put(buf)
	if err != nil {
		return nil, sent, &url.Error{Op: "Post", URL: t.fixed.target.String(), Err: err} // as the client says it
	}
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		hr, _, err := t.newRequest(ctx, req)
		if err != nil {
			resp.Body.Close()
			return nil, sent, err
		}
		c := *t.client
		c.Transport = &answeredOnce{resp: resp, rt: h}
		withGetBody(hr)
		if resp, err = c.Do(hr); err != nil {
			return nil, sent, err
		}
	}
	resp, err = refusedWithoutTokens(resp, req.method, t.headers.Get("Authorization") != "")
	return resp, sent, err
}

// fixedHeaders is what every POST of a transport shares, made once: the
// parsed URL and the header values that do not change between requests.
// A request's header map holds these slices: nothing writes a request's
// header values after newRequest (net/http's client copies them before
// a redirect changes any).
type fixedHeaders struct {
	target                          *url.URL // nil: t.url does not parse, and NewRequest says why
	contentType, accept, methodRead []string
	version                         []string // the value of versionFor
	versionFor                      string
	lines                           []byte         // postLines of the workload's headers (nil: reads go as http.Requests)
	heads                           *postHeadCache // a read's other header lines, encoded once
}

func newFixedHeaders(rawURL string) fixedHeaders {
	f := fixedHeaders{
		contentType: []string{protocol.ContentTypeJSON},
		accept:      []string{protocol.AcceptBoth},
		methodRead:  []string{protocol.MethodResourcesRead},
		heads:       &postHeadCache{},
	}
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		u.Host = strings.TrimSuffix(u.Host, ":") // as NewRequest does (an empty port)
		f.target = u
	}
	return f
}

// Header names as net/http's Header.Set writes them.
var (
	canonicalSessionID       = http.CanonicalHeaderKey(protocol.HeaderSessionID)
	canonicalProtocolVersion = http.CanonicalHeaderKey(protocol.HeaderProtocolVersion)
	canonicalMethod          = http.CanonicalHeaderKey(protocol.HeaderMethod)
	canonicalName            = http.CanonicalHeaderKey(protocol.HeaderName)
)

// post is a POST of body to the transport's URL: what
// http.NewRequestWithContext makes of it, the URL parsed once for all.
func (t *httpTransport) post(ctx context.Context, body []byte) (*http.Request, error) {
	u := t.fixed.target
	if u == nil {
		return http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	}
	pb := &postBody{raw: body}
	pb.r.Reset(body)
	base := http.Request{
		Method: http.MethodPost, URL: u, Host: u.Host,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: make(http.Header, 8),
		Body:   pb, ContentLength: int64(len(body)),
	}
	if u.Scheme != "http" {
		base.GetBody = pb.again // net/http's transport may send it again
	}
	return base.WithContext(ctx), nil
}

// withGetBody gives a POST made by post the GetBody a redirect needs,
// when h1 sent it (h1 never sends a body twice: the method value would be
// an allocation per request for nothing).
func withGetBody(hr *http.Request) {
	if hr.GetBody != nil {
		return
	}
	switch b := hr.Body.(type) {
	case *postBody:
		hr.GetBody = b.again
	case *acceptedBody:
		hr.GetBody = (&postBody{raw: b.req.body}).again
	}
}

// postBody is a request body held whole: h1 writes Bytes without copying
// them, net/http reads it.
type postBody struct {
	r   bytes.Reader
	raw []byte
}

func (b *postBody) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b *postBody) Close() error               { return nil }

// Bytes is the whole body (h1's way of sending it without a copy).
func (b *postBody) Bytes() []byte { return b.raw }

// again is the body to send once more (a redirect).
func (b *postBody) again() (io.ReadCloser, error) {
	n := &postBody{raw: b.raw}
	n.r.Reset(b.raw)
	return n, nil
}
