// Package h2 is a load generator's HTTP/2 connection pool: a fixed number
// of connections, each carrying many streams, with the split between them
// explicit and counted (docs/measurement.md, connections). h2 over TLS is
// chosen by ALPN, h2c by prior knowledge. The streams are the
// golang.org/x/net/http2 client's; what the pool adds is the choice of
// connection (fewest streams in flight, up to Config.Connections), a
// bound on streams per connection of its own beside the server's
// SETTINGS_MAX_CONCURRENT_STREAMS, and counts of the frames that say who
// ended what.
//
// x/net marks its ClientConn deprecated for net/http's own ClientConn,
// which dials for itself: the pool must hand the HTTP/2 client a
// connection of its own (frameConn), inside TLS, to see the frames.
package h2

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/url"
	"sync"

	"golang.org/x/net/http2"
)

// Config is how a Pool reaches its server.
type Config struct {
	// Dial opens a TCP connection.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLS is https connections' TLS config (nil: the defaults); a copy is
	// used, offering "h2" by ALPN, its ServerName the URL's host when
	// empty. http URLs speak h2c with prior knowledge.
	TLS *tls.Config
	// OrHTTP1 offers "http/1.1" beside "h2" over TLS (version auto): a
	// server that picks it is told by ErrNotHTTP2, from then on at once.
	OrHTTP1 bool
	// Connections is how many connections the pool keeps at most (0: 1).
	// A request goes on the connection with the fewest streams in
	// flight, and a new one is opened while every open one has some.
	Connections int
	// StreamsPerConnection bounds the streams in flight on one connection
	// (0: as many as the server allows). A request that finds every
	// connection full waits for a stream, counted in Waited.
	StreamsPerConnection int
}

// ErrNotHTTP2 is a TLS server that chose HTTP/1.1 when offered both: the
// caller sends over HTTP/1.1 instead.
var ErrNotHTTP2 = errors.New("the server chose HTTP/1.1 over TLS (ALPN)")

// Pool is an http.RoundTripper over HTTP/2 connections, shared by every
// session that sends through it. Its zero value is not usable: New.
type Pool struct {
	cfg   Config
	t     *http2.Transport
	count counters

	mu      sync.Mutex
	conns   []*conn
	dialing int
	notH2   bool          // the server chose HTTP/1.1 (OrHTTP1)
	freed   chan struct{} // closed when a stream or connection frees up
	closed  bool
}

// conn is one connection and what the pool knows of it.
type conn struct {
	addr     string
	secure   bool // TLS
	cc       *http2.ClientConn
	fc       *frameConn
	inFlight int  // streams taken and not yet ended, under Pool.mu
	used     bool // a stream was taken on it
	dropped  bool // out of the pool: closed when its last stream ends
}

// New makes a pool; it dials at its first request.
func New(cfg Config) *Pool {
	if cfg.Connections < 1 {
		cfg.Connections = 1
	}
	if cfg.TLS == nil {
		cfg.TLS = &tls.Config{}
	}
	if cfg.Dial == nil {
		cfg.Dial = (&net.Dialer{}).DialContext
	}
	return &Pool{
		cfg: cfg,
		// Frames of up to 1 MiB: a blob arrives in fewer frames, each a
		// wake of the reading goroutine (a 1.8 MB read cost the client 6.1
		// ms at the 16 KiB default, 3.6-4.4 ms so, against readbench serve).
		t:     &http2.Transport{AllowHTTP: true, DisableCompression: true, MaxReadFrameSize: 1 << 20},
		freed: make(chan struct{}),
	}
}

// RoundTrip sends req on a stream of the pool's connections. A request
// the server did not process (unprocessed) is sent once more, as HTTP/2
// allows, when its body can be read again.
func (p *Pool) RoundTrip(req *http.Request) (*http.Response, error) {
	p.count.requests.Add(1)
	for retry := false; ; retry = true {
		c, err := p.acquire(req.Context(), req.URL)
		if err != nil {
			return nil, err
		}
		resp, err := c.cc.RoundTrip(req)
		if err == nil {
			resp.Body = &body{rc: resp.Body, done: func() { p.release(c) }}
			return resp, nil
		}
		p.release(c)
		if retry || !unprocessed(err) || !rewind(req) {
			return nil, err
		}
	}
}

// unprocessed says whether err is a request the server did not process,
// which HTTP/2 lets a client send again (RFC 9113 §8.7): a stream it
// refused, or one past the last it will process when it said GOAWAY, or
// a connection that could take no more when the request came. The
// HTTP/2 library retries these itself only through its own pool, and
// exports the latter two errors by their words alone.
func unprocessed(err error) bool {
	var se http2.StreamError
	if errors.As(err, &se) {
		return se.Code == http2.ErrCodeRefusedStream
	}
	switch err.Error() {
	case "http2: Transport received Server's graceful shutdown GOAWAY", "http2: client conn not usable":
		return true
	}
	return false
}

// rewind readies req's body to be sent again; false when it cannot be.
func rewind(req *http.Request) bool {
	if req.Body == nil || req.Body == http.NoBody {
		return true
	}
	if req.GetBody == nil {
		return false
	}
	b, err := req.GetBody()
	if err != nil {
		return false
	}
	req.Body = b
	return true
}

// acquire takes a stream on a connection to u's host: the open one with
// the fewest in flight that has room, a new one while every open one has
// streams in flight and the pool may open more, or, failing both, the
// first that frees up.
func (p *Pool) acquire(ctx context.Context, u *url.URL) (*conn, error) {
	addr, secure := address(u), u.Scheme == "https"
	waited := false
	for {
		p.mu.Lock()
		switch {
		case p.closed:
			p.mu.Unlock()
			return nil, errPoolClosed
		case p.notH2:
			p.mu.Unlock()
			return nil, ErrNotHTTP2
		}
		best := p.pick(addr, secure)
		canDial := len(p.conns)+p.dialing < p.cfg.Connections
		if best != nil && (best.inFlight == 0 || !canDial) {
			p.takeLocked(best)
			p.mu.Unlock()
			return best, nil
		}
		if canDial { // a fresh connection beats sharing a busy one
			p.dialing++
			p.mu.Unlock()
			c, err := p.dial(ctx, addr, secure)
			p.mu.Lock()
			p.dialing--
			if err == nil {
				p.conns = append(p.conns, c)
				p.takeLocked(c)
			}
			p.signalLocked()
			p.mu.Unlock()
			return c, err
		}
		wait := p.freed
		p.mu.Unlock()
		if !waited {
			waited = true
			p.count.waited.Add(1)
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

var errPoolClosed = errors.New("http2: the pool is closed")

// pick is the usable connection to addr with the fewest streams in flight
// and room for one more (nil: none), dropping the connections that can
// take no more requests ever (closed, or told to go away).
func (p *Pool) pick(addr string, secure bool) *conn {
	var best *conn
	live := p.conns[:0]
	for _, c := range p.conns {
		if st := c.cc.State(); st.Closed || st.Closing {
			p.endedLocked(c)
			continue
		}
		live = append(live, c)
		if c.addr != addr || c.secure != secure || (best != nil && c.inFlight >= best.inFlight) || !p.room(c) {
			continue
		}
		best = c
	}
	clear(p.conns[len(live):])
	p.conns = live
	return best
}

// room says whether c may carry one more stream: under the pool's bound
// and the server's, as far as the HTTP/2 library also sees it.
func (p *Pool) room(c *conn) bool {
	if n := p.cfg.StreamsPerConnection; n > 0 && c.inFlight >= n {
		return false
	}
	if lim := c.fc.maxStreams.Load(); lim > 0 && c.inFlight >= int(lim) {
		return false
	}
	return c.cc.CanTakeNewRequest()
}

// takeLocked counts a stream taken on c.
func (p *Pool) takeLocked(c *conn) {
	if c.used {
		p.count.reused.Add(1)
	}
	c.used = true
	c.inFlight++
	p.count.started()
}

// release ends a stream taken on c and wakes the requests waiting for one.
func (p *Pool) release(c *conn) {
	p.mu.Lock()
	c.inFlight--
	p.count.done()
	if c.dropped && c.inFlight == 0 {
		_ = c.cc.Close()
	}
	p.signalLocked()
	p.mu.Unlock()
}

// signalLocked wakes every request waiting for a stream or a connection.
func (p *Pool) signalLocked() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// endedLocked drops a connection that can take no more requests and
// counts its end: the server's (GOAWAY, a close or reset under a read) or
// the client's (the HTTP/2 library gave it up: a protocol error, a failed
// ping). The streams still in flight on it end first (a GOAWAY lets the
// streams it names finish): it is closed with the last of them.
func (p *Pool) endedLocked(c *conn) {
	if !c.fc.ended.CompareAndSwap(false, true) {
		return
	}
	p.count.open.Add(-1)
	if c.fc.byServer() {
		p.count.server.Add(1)
	} else {
		p.count.client.Add(1)
	}
	c.dropped = true
	if c.inFlight == 0 {
		_ = c.cc.Close()
	}
}

// address is u's host and port, the scheme's default port when it has none.
func address(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
