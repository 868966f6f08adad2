// Package h1 is an HTTP/1.1 client transport that does each request's
// I/O on the goroutine that makes it.
//
// net/http's Transport gives every connection a reading and a writing
// goroutine and hands each request and response between them and the
// caller over channels: three goroutine switches per request, a large part
// of what a loopback request costs the client (BenchmarkRoundTrip compares
// the two transports). A load generator that costs more than the server it
// measures measures itself, so readbench's plain-http requests go through
// this transport; what it does not do (https, HTTP/2, other schemes) it
// leaves to a fallback, and it reads responses by the standard library's
// rules.
package h1

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// Defaults of a Transport's zero fields.
const (
	// DefaultMaxIdlePerHost bounds the idle connections kept per host: a
	// load of hundreds of reads in flight reuses its connections.
	DefaultMaxIdlePerHost = 1024
	// DefaultIdleTimeout is how long an idle connection is kept.
	DefaultIdleTimeout = 90 * time.Second
	// MaxHeaderBytes bounds a response's status line and headers: a server
	// that sends headers without end fails the request instead of filling
	// memory (net/http's client allows 10 MiB; a read needs far less).
	MaxHeaderBytes = 1 << 20
	// probeAfter is how long a connection may sit idle before it is probed
	// for a close by the server before reuse (one non-blocking peek, see
	// alive): servers close idle connections after a few seconds (Node's
	// default is 5 s), and a request written to a closed connection fails.
	// net/http learns of such closes by keeping a read pending on every
	// idle connection, a goroutine each.
	probeAfter = 500 * time.Millisecond
	bufSize    = 4 << 10
)

// Transport is an http.RoundTripper for http:// URLs that does each
// request's I/O on the caller's goroutine: the caller writes the request
// in one syscall, reads the response through a buffer the connection
// holds from the response's first byte to its end (buffers.go: a
// connection waiting or idle holds none), and the connection goes back to
// an idle pool when the body has been read to its end.
//
// It leaves to Fallback (net/http's Transport) https (TLS and HTTP/2) and
// any scheme but http. Responses are parsed by net/http's own
// http.ReadResponse, so framing (Content-Length, chunked, until close) and
// header rules are the standard library's; only a plain head (HTTP/1.1,
// Content-Length, canonical names, printable ASCII: head.go) is read
// straight from the connection's buffer, the way ReadResponse reads it
// (FuzzSimpleHead holds the two to the same answers).
//
// The zero value is ready. It is safe for concurrent use.
type Transport struct {
	// Fallback serves the requests this transport does not (https, other
	// schemes); nil refuses them.
	Fallback http.RoundTripper
	// DialContext dials a connection (default: a net.Dialer with a 10 s
	// timeout and 30 s keep-alive).
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// MaxIdlePerHost and IdleTimeout bound the idle pool (0: the defaults).
	MaxIdlePerHost int
	IdleTimeout    time.Duration
	// DisableKeepAlives sends every request with Connection: close and
	// closes its connection after it, as a client without keep-alive
	// does (net/http's Transport.DisableKeepAlives; set the fallback's
	// own too).
	DisableKeepAlives bool

	mu    sync.Mutex
	idle  map[string]*[]*conn // by host:port, most recently used last (a pointer: one lookup per put or take)
	count counters            // Stats
}

// RoundTrip sends req and returns its response, whose Body must be read to
// its end (the connection then goes back to the pool) or closed (the
// connection is then closed). The request's context bounds every wait:
// connecting, writing, the headers and the body.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || req.URL.Scheme != "http" {
		if t.Fallback == nil {
			closeBody(req)
			return nil, fmt.Errorf("h1: unsupported scheme in %v", req.URL)
		}
		return t.fallback(req)
	}
	ctx := req.Context()
	if err := checkHead(req); err != nil {
		closeBody(req)
		return nil, err
	}
	body, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	defer body.release()
	return t.exchange(ctx, hostPort(req.URL.Host), req, nil, &body)
}

// CloseIdleConnections closes the pooled connections (and the fallback's).
func (t *Transport) CloseIdleConnections() {
	t.mu.Lock()
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, cs := range idle {
		for _, c := range *cs {
			c.close(closedQuietly)
		}
	}
	if f, ok := t.Fallback.(interface{ CloseIdleConnections() }); ok {
		f.CloseIdleConnections()
	}
}

// get takes the most recently used idle connection to key, or dials one.
// A connection idle for long is probed first (probeAfter).
func (t *Transport) get(ctx context.Context, key string) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // the pool's connections stay for the next request
	}
	now := time.Now() // one clock read for the idle checks
	for {
		c := t.takeIdle(key, now)
		if c == nil {
			break
		}
		if now.Sub(c.idleSince) >= probeAfter && !alive(c.nc) {
			c.close(closedByServer) // closed (or written to) while idle
			continue
		}
		if !c.watch(ctx) {
			c.close(closedByCut) // ctx ended just now
			return nil, ctx.Err()
		}
		c.reused = true
		t.count.reused.Add(1)
		return c, nil
	}
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	nc, err := dial(ctx, "tcp", key)
	if err != nil {
		return nil, err
	}
	c := &conn{t: t, key: key, nc: nc, raw: newWaiter(nc)}
	t.count.dialled()
	c.lim = limitReader{r: c.raw.reader(nc), left: -1}
	c.out = countWriter{w: c.raw.writer(nc)}
	if !c.watch(ctx) {
		c.close(closedByCut)
		return nil, ctx.Err()
	}
	return c, nil
}

func (t *Transport) takeIdle(key string, now time.Time) *conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	cs := t.idle[key]
	if cs == nil {
		return nil
	}
	timeout := t.IdleTimeout
	if timeout <= 0 {
		timeout = DefaultIdleTimeout
	}
	for len(*cs) > 0 {
		last := len(*cs) - 1
		c := (*cs)[last]
		(*cs)[last] = nil
		*cs = (*cs)[:last]
		if now.Sub(c.idleSince) < timeout {
			return c
		}
		c.close(closedByClient)
	}
	return nil
}

// put returns a connection whose response has been read to its end.
func (t *Transport) put(c *conn) {
	max := t.MaxIdlePerHost
	if max <= 0 {
		max = DefaultMaxIdlePerHost
	}
	c.idleSince = time.Now()
	t.mu.Lock()
	if t.idle == nil {
		t.idle = map[string]*[]*conn{}
	}
	cs := t.idle[c.key]
	if cs == nil {
		cs = new([]*conn)
		t.idle[c.key] = cs
	}
	if len(*cs) < max {
		*cs = append(*cs, c)
		c = nil
	}
	t.mu.Unlock()
	if c != nil {
		c.close(closedByClient) // the pool is full
	}
}

// idleCount is how many connections to key are idle.
func (t *Transport) idleCount(key string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cs := t.idle[key]; cs != nil {
		return len(*cs)
	}
	return 0
}

// hostPort is the address to dial for a URL's host: the default port 80
// added when it has none.
func hostPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
		return host + ":80"
	}
	return net.JoinHostPort(host, "80")
}

// firstByte calls the request's GotFirstResponseByte trace hook, if any.
func firstByte(ctx context.Context) {
	if tr := httptrace.ContextClientTrace(ctx); tr != nil && tr.GotFirstResponseByte != nil {
		tr.GotFirstResponseByte()
	}
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// requestBody reads a request's body whole (readbench's requests are
// small JSON messages) so that it can be written with the head in one
// syscall and sent again on a new connection. The bytes are in a buffer
// of the bodies pool (buffers.go) until the request is out; a body that
// holds its bytes whole says so with a Bytes method (WholeBody): those are
// sent, not a copy.
func requestBody(req *http.Request) (reqBody, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return reqBody{}, nil
	}
	defer req.Body.Close()
	if w, ok := req.Body.(WholeBody); ok {
		b := w.Bytes()
		if req.ContentLength > 0 && int64(len(b)) != req.ContentLength {
			return reqBody{}, fmt.Errorf("h1: the request body has %d bytes, its ContentLength says %d", len(b), req.ContentLength)
		}
		return reqBody{borrowed: b}, nil
	}
	b, err := readBody(req.Body)
	if err != nil {
		return reqBody{}, fmt.Errorf("h1: reading the request body: %w", err)
	}
	if n := len(b.bytes()); req.ContentLength > 0 && int64(n) != req.ContentLength {
		b.release()
		return reqBody{}, fmt.Errorf("h1: the request body has %d bytes, its ContentLength says %d", n, req.ContentLength)
	}
	return b, nil
}

// WholeBody is a request body that holds all its bytes, none read yet:
// the transport writes Bytes as they are instead of reading the body
// into a copy. The bytes must not change until RoundTrip returns.
type WholeBody interface {
	io.ReadCloser
	Bytes() []byte
}

// limitReader bounds what is read while a response's head is parsed; left
// < 0 is no bound. Its first bytes are those awaitResponse read (already
// counted in left), in firstBuf, given back once read.
type limitReader struct {
	r        io.Reader
	left     int64
	first    []byte
	firstBuf *[bufSize]byte
	err      error // a wait's error (AwaitBody), the next read's once first is read
}

var errHeadTooLarge = errors.New("h1: the response's status line and headers exceed 1 MiB")

func (l *limitReader) Read(p []byte) (int, error) {
	if len(l.first) > 0 {
		n := copy(p, l.first)
		l.first = l.first[n:]
		if len(l.first) == 0 {
			l.dropFirst()
		}
		return n, nil
	}
	if l.err != nil {
		err := l.err
		l.err = nil
		return 0, err
	}
	if l.left < 0 {
		return l.r.Read(p)
	}
	if l.left == 0 {
		return 0, errHeadTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
