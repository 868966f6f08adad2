package h1

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Post is a POST in a lighter form than an http.Request: its header
// lines already written (AppendHeader), its body held whole. A caller
// that sends the same few headers on every request (a load generator's
// reads) builds them once and pays for neither a Header map nor a
// Request per request, nor for their checks on every send.
type Post struct {
	URL *url.URL // an http:// URL
	// Header is the request's header lines, each as AppendHeader wrote
	// it. Host and Content-Length are written by the transport; nothing
	// else is added (no default User-Agent: put one in if it is wanted).
	Header []byte
	Body   []byte
	// Deadline, when set, ends the exchange as a context deadline would:
	// it is the connection's deadline for the request's write, its
	// response's head and its body, kept by the runtime's poller (no
	// timer or context per request). An exchange past it fails with an
	// error that errors.Is os.ErrDeadlineExceeded, and its connection is
	// closed.
	Deadline time.Time
}

// AppendHeader appends the header line "name: value" to dst, refusing
// what would not be one well-formed line (a name that is not a token, a
// value holding CR, LF or NUL), as RoundTrip refuses it.
func AppendHeader(dst []byte, name, value string) ([]byte, error) {
	if !isToken(name) {
		return dst, fmt.Errorf("h1: invalid header name %q", name)
	}
	if !validValue(value) {
		return dst, fmt.Errorf("h1: invalid value for header %q", name)
	}
	dst = append(dst, name...)
	dst = append(dst, ": "...)
	dst = append(dst, value...)
	return append(dst, "\r\n"...), nil
}

// Post sends p as RoundTrip sends a POST, and returns its response on
// the same terms (the Body read to its end or closed; ctx bounds every
// wait; a request none of whose bytes left a reused connection goes once
// more on a new one). The response's Request is nil when its head was
// plain (head.go), a Request describing p otherwise. p's bytes must not
// change until Post returns. No httptrace hook of ctx is called (looking
// one up walks the whole context chain on every request): FirstByte of
// the response's Body is when its first byte arrived.
//
// The Header of a plain response is the connection's own, read again in
// place by its next response (a load generator's reads then pay for no
// map per read): it is valid until the Body is read to its end or
// closed, when the connection may carry another request, and must not
// be changed. A caller that needs a header after that reads it before
// (or Clones the Header).
func (t *Transport) Post(ctx context.Context, p *Post) (*http.Response, error) {
	if p.URL == nil || p.URL.Scheme != "http" {
		return nil, fmt.Errorf("h1: Post needs an http URL, not %v", p.URL)
	}
	if !validValue(p.URL.Host) {
		return nil, fmt.Errorf("h1: invalid host %q", p.URL.Host)
	}
	body := reqBody{borrowed: p.Body}
	return t.exchange(ctx, hostPort(p.URL.Host), nil, p, &body)
}

// exchange sends one request (req, or p when req is nil) on a connection
// of the pool, once more on a new connection when a reused one failed
// before any byte left (see RoundTrip).
func (t *Transport) exchange(ctx context.Context, key string, req *http.Request, p *Post, body *reqBody) (*http.Response, error) {
	t.count.requests.Add(1)
	for attempt := 0; ; attempt++ {
		c, err := t.get(ctx, key)
		if err != nil {
			return nil, err
		}
		resp, err := c.roundTrip(ctx, req, p, body)
		if err == nil {
			return resp, nil
		}
		// A connection reused from the pool that the server closed while
		// it was idle fails before any byte of the request is out: then,
		// and only then, the request goes again on a new connection (what
		// net/http does too: a POST is never sent twice).
		if !c.reused || !errors.Is(err, errNothingWritten) || attempt > 0 || ctx.Err() != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
}

// writePostHead writes p's request line and headers; the body, of n
// bytes, follows with Content-Length.
func writePostHead(w *bufio.Writer, p *Post, n int, closeAfter bool) {
	w.WriteString("POST ")
	writeRequestURI(w, p.URL)
	w.WriteString(" HTTP/1.1\r\nHost: ")
	w.WriteString(p.URL.Host)
	w.WriteString("\r\n")
	w.Write(p.Header)
	if closeAfter {
		w.WriteString("Connection: close\r\n")
	}
	w.WriteString("Content-Length: ")
	w.Write(strconv.AppendInt(w.AvailableBuffer(), int64(n), 10))
	w.WriteString("\r\n\r\n")
}

// request is p as an http.Request, for what only http.ReadResponse
// reads (a head that is not plain): its method, URL and Host.
func (p *Post) request() *http.Request {
	return &http.Request{
		Method: http.MethodPost, URL: p.URL, Host: p.URL.Host,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, ContentLength: int64(len(p.Body)),
	}
}
