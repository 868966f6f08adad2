package h1

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// conn is one connection of the pool: it carries one request at a time.
type conn struct {
	t         *Transport
	key       string
	nc        net.Conn
	raw       *waiter       // awaits a response on nc's descriptor; nil when none
	lim       limitReader   // under br: bounds the response head
	br        *bufio.Reader // from a response's first byte to its end (buffers.go)
	out       countWriter   // whether any byte of a request left
	idleSince time.Time
	heads     headCache // the last plain response head's lines
	reused    bool      // taken from the pool, not dialled for this request
	// cancelled is set by onCancel, which the watched context calls when
	// it ends: made once per connection, registered once per context
	// (watch.go), unregistered when the connection is closed.
	cancelled atomic.Bool
	onCancel  func()
	fired     sync.WaitGroup  // one per registration: Done when onCancel ran, or will not
	watched   <-chan struct{} // the Done of the context watched; nil: none
	stopWatch func() bool     // unregisters onCancel; nil when nothing is watched
	deadline  time.Time       // set on nc (setDeadline)
}

// errNothingWritten marks a failure before any byte of the request left:
// the one case a request is sent again (RoundTrip).
var errNothingWritten = errors.New("h1: the connection failed before the request was written")

// NothingWritten reports whether err is a request that failed before any
// of its bytes left (errNothingWritten): the server cannot have seen it,
// so a caller may tell a read that never reached its server from one the
// server may have begun (a trace id the server never received).
func NothingWritten(err error) bool { return errors.Is(err, errNothingWritten) }

// aLongTimeAgo is a deadline in the past: setting it ends every pending
// read and write on a connection at once.
var aLongTimeAgo = time.Unix(1, 0)

// roundTrip writes req (its head from req, its body given) and reads the
// response's head, on a connection that watches ctx (exchange). The body
// is released once written: it is kept only for a request none of whose
// bytes left (RoundTrip sends it again). The context ends every wait by
// setting a past deadline on the connection, which is then never reused;
// a Post's Deadline is the connection's deadline (watch.go).
// A Post (p, req nil) is written from its own lines.
func (c *conn) roundTrip(ctx context.Context, req *http.Request, p *Post, body *reqBody) (*http.Response, error) {
	fail := func(err error) (*http.Response, error) {
		c.close(failedBy(err, c.cancelled.Load()))
		c.dropReader()
		return nil, err
	}
	var deadline time.Time
	closeAfter := c.t.DisableKeepAlives // the request says Connection: close
	if p != nil {
		deadline = p.Deadline
	} else {
		closeAfter = closeAfter || req.Close
	}
	if err := c.setDeadline(deadline); err != nil {
		return fail(fmt.Errorf("%w: %w", errNothingWritten, err))
	}
	c.out.n = 0
	bw := getWriter(&c.out)
	if p != nil {
		writePostHead(bw, p, len(body.bytes()), closeAfter)
	} else {
		writeHead(bw, req, len(body.bytes()), closeAfter)
	}
	bw.Write(body.bytes())
	err := bw.Flush()
	putWriter(bw)
	if err != nil {
		if c.out.n == 0 {
			return fail(fmt.Errorf("%w: %w", errNothingWritten, err))
		}
		return fail(fmt.Errorf("h1: writing the request: %w", err))
	}
	body.release()
	c.lim.left = MaxHeaderBytes + bufSize
	if err := c.awaitResponse(); err != nil {
		return fail(fmt.Errorf("h1: waiting for the response: %w", err))
	}
	first := time.Now()
	if req != nil { // a Post's caller has FirstByte (see Transport.Post)
		firstByte(ctx)
	}
	if pr, n := plainHead(c.br, req, &c.heads); pr != nil {
		c.lim.left = -1
		b := &pr.body // new, zero: its fields set one by one (a composite value is a bulk write barrier)
		b.c, b.cancelled, b.ctx, b.first = c, &c.cancelled, ctx, first
		if closeAfter {
			b.closeBy = closedByClient
		}
		b.rc, b.length = &b.length, lengthBody{br: c.br, n: n}
		if n == 0 {
			b.rc, b.empty = http.NoBody, true
		}
		pr.resp.Body = b
		return &pr.resp, nil
	}
	if req == nil {
		req = p.request()
	}
	var resp *http.Response
	for {
		r, err := http.ReadResponse(c.br, req)
		if err != nil {
			return fail(fmt.Errorf("h1: reading the response: %w", err))
		}
		// 1xx (100 Continue, 103 Early Hints) come before the response
		// and have no body; 101 switches protocols and is the response.
		if r.StatusCode >= 200 || r.StatusCode < 100 || r.StatusCode == http.StatusSwitchingProtocols {
			resp = r
			break
		}
	}
	c.lim.left = -1
	if isEventStream(resp.Header) {
		c.streamReader()
	}
	rb := &bodyReader{rc: resp.Body, c: c, cancelled: &c.cancelled, ctx: ctx, empty: resp.Body == http.NoBody, first: first}
	switch {
	case closeAfter:
		rb.closeBy = closedByClient
	case resp.Close || resp.StatusCode == http.StatusSwitchingProtocols:
		rb.closeBy = closedByServer
	}
	resp.Body = rb
	return resp, nil
}

// countWriter counts the bytes that reached the connection: a request
// none of whose bytes left may go again on another connection.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// writeHead writes a request's line and headers (checked beforehand by
// checkHead); the body, of n bytes, follows with Content-Length.
func writeHead(w *bufio.Writer, req *http.Request, n int, closeAfter bool) {
	w.WriteString(req.Method)
	w.WriteByte(' ')
	writeRequestURI(w, req.URL)
	w.WriteString(" HTTP/1.1\r\nHost: ")
	if req.Host != "" {
		w.WriteString(req.Host)
	} else {
		w.WriteString(req.URL.Host)
	}
	w.WriteString("\r\n")
	if _, ok := req.Header["User-Agent"]; !ok {
		w.WriteString("User-Agent: Go-http-client/1.1\r\n") // what net/http sends
	}
	for k, vs := range req.Header {
		switch k {
		case "Host", "Content-Length", "Transfer-Encoding", "Connection":
			continue // written here from the request's own fields
		}
		for _, v := range vs {
			if k == "User-Agent" && v == "" {
				continue
			}
			w.WriteString(k)
			w.WriteString(": ")
			w.WriteString(v)
			w.WriteString("\r\n")
		}
	}
	if n > 0 || req.Method == http.MethodPost || req.Method == http.MethodPut || req.Method == http.MethodPatch {
		w.WriteString("Content-Length: ")
		// in the writer's own buffer: a local array would escape
		w.Write(strconv.AppendInt(w.AvailableBuffer(), int64(n), 10))
		w.WriteString("\r\n")
	}
	if closeAfter {
		w.WriteString("Connection: close\r\n")
	}
	w.WriteString("\r\n")
}

// writeRequestURI writes u.RequestURI() without building it: its path
// and query as they are.
func writeRequestURI(w *bufio.Writer, u *url.URL) {
	if u.Opaque != "" {
		w.WriteString(u.RequestURI())
		return
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	w.WriteString(p)
	if u.ForceQuery || u.RawQuery != "" {
		w.WriteByte('?')
		w.WriteString(u.RawQuery)
	}
}

// checkHead refuses what would not be one well-formed request head: a
// header name that is not a token, or a value holding CR, LF or NUL (a
// workload's header could otherwise smuggle a second request).
func checkHead(req *http.Request) error {
	if !isToken(req.Method) {
		return fmt.Errorf("h1: invalid method %q", req.Method)
	}
	for k, vs := range req.Header {
		if !isToken(k) {
			return fmt.Errorf("h1: invalid header name %q", k)
		}
		for _, v := range vs {
			if !validValue(v) {
				return fmt.Errorf("h1: invalid value for header %q", k)
			}
		}
	}
	if !validValue(req.Host) || !validValue(req.URL.Host) {
		return fmt.Errorf("h1: invalid host %q", req.URL.Host)
	}
	return nil
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || isSeparator(c) {
			return false
		}
	}
	return true
}

func isSeparator(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '@', ',', ';', ':', '\\', '"', '/', '[', ']', '?', '=', '{', '}':
		return true
	}
	return false
}

func validValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\r' || c == '\n' || c == 0 {
			return false
		}
	}
	return true
}

// bodyReader is a response's body: read to its end, it returns the
// connection to the pool (unless the response or request said close);
// closed before, it closes the connection. A read the request's context
// ended returns the context's error.
type bodyReader struct {
	rc        io.ReadCloser
	c         *conn
	cancelled *atomic.Bool
	ctx       context.Context
	// closeBy is who ends the connection after this response (the
	// request or the response said Connection: close); closedQuietly
	// when it may carry another request.
	closeBy closeReason
	empty   bool // the response has no body (1xx, 204, 304, HEAD, Content-Length: 0)
	done    bool // the connection is released
	first   time.Time
	length  lengthBody // rc of a response simpleHead read
}

// FirstByte is when the first byte of the response whose Body is body
// arrived, as the GotFirstResponseByte trace hook would have seen it,
// for a response of this transport: a caller that needs only that moment
// installs no trace (a context value and a closure per request). ok is
// false for a body h1 did not make.
func FirstByte(body io.ReadCloser) (at time.Time, ok bool) {
	if b, ok := body.(*bodyReader); ok {
		return b.first, true
	}
	return time.Time{}, false
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.done {
		return 0, errors.New("h1: read on a closed body")
	}
	var n int
	var err error
	if l, ok := b.rc.(*lengthBody); ok {
		n, err = l.Read(p) // a plain response's: called directly
	} else {
		n, err = b.rc.Read(p)
	}
	switch {
	case err == io.EOF:
		b.release(nil)
	case err != nil:
		b.release(err)
		if b.cancelled.Load() {
			err = b.ctx.Err()
		}
	}
	return n, err
}

// errClosedEarly is a body closed before its end: its reader stopped.
var errClosedEarly = errors.New("h1: body closed before its end")

func (b *bodyReader) Close() error {
	if !b.done {
		if b.empty {
			b.release(nil)
		} else {
			b.release(errClosedEarly)
		}
	}
	return nil
}

// release ends the response, whole (err nil) or not: the connection is
// pooled when its whole response was read, nothing else arrived and
// neither side said close; closed otherwise, and why counted.
func (b *bodyReader) release(err error) {
	b.done = true
	why := b.closeBy
	switch {
	case b.cancelled.Load():
		why = closedByCut
	case err != nil:
		why = failedBy(err, false)
	case b.c.br.Buffered() != 0 || len(b.c.lim.first) != 0:
		why = closedByServer // bytes past the response's end
	}
	if why == closedQuietly {
		b.c.dropReader()
		b.c.t.put(b.c)
		return
	}
	b.c.close(why)
	b.c.dropReader()
}
