package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/internal/h2"
)

// A session's HTTP client: its connection pool (h1 for plain http, net/http
// for https) and the way a request goes through it.

// HTTP is the HTTP version a session speaks, and the HTTP/2 pool it
// shares (docs/workload.md, http).
type HTTP struct {
	// Version is "1.1", "2" or "auto" (""): auto speaks HTTP/1.1 to an
	// http URL and, over https, what ALPN agrees, h2 first; 2 speaks h2c
	// with prior knowledge to an http URL and h2 to an https one.
	Version string
	// Pool carries the session's HTTP/2 requests when set: a run's
	// sessions share one, so that its connections and streams are the
	// run's, and its owner closes it and counts what it did. Nil: a
	// session speaking HTTP/2 has a pool of its own, of one connection,
	// as a host has.
	Pool *h2.Pool
}

// SharedHTTP is the HTTP of a run's sessions: the version, and over
// HTTP/2 one pool they share, of at most connections connections (0: 1)
// carrying at most streams streams each (0: as many as the server
// allows). Its owner closes the pool and counts what it did (Pool.Stats:
// connStats leaves a shared pool's counts out).
func SharedHTTP(version string, connections, streams int) HTTP {
	if version == "1.1" {
		return HTTP{Version: version}
	}
	return HTTP{Version: version, Pool: h2.New(h2.Config{
		Dial: dialer(), OrHTTP1: version != "2", Connections: connections, StreamsPerConnection: streams,
	})}
}

// dialer dials an HTTP connection: bounded on its own, kept alive by TCP.
func dialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	return (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
}

// newHTTPClient is one session's HTTP client for HTTP{} (auto).
func newHTTPClient() *http.Client { return newVersionedClient(HTTP{}, false) }

// httpClient is the HTTP client of a session d opens: its version, its
// pool, keep-alive or not.
func (d Dial) httpClient() *http.Client { return newVersionedClient(d.HTTP, d.NoKeepAlive) }

// newVersionedClient is one session's HTTP client: its own HTTP/1.1
// connection pool (and HTTP/2 pool, unless h shares one), and redirects
// followed only within the target's origin (sameOrigin). Every wait of a
// request (connect, TLS, headers, body) ends with the request's context;
// connect and TLS are bounded on their own as well. noKeep sends every
// HTTP/1.1 request with Connection: close on a connection of its own.
func newVersionedClient(h HTTP, noKeep bool) *http.Client {
	t1 := newHTTPRoundTripper()
	if noKeep {
		t1.DisableKeepAlives = true
		t1.Fallback.(*lazyTransport).noKeepAlive = true
	}
	var rt http.RoundTripper = t1
	if h.Version != "1.1" {
		v := &versioned{h1: t1, h2: h.Pool, all: h.Version == "2"}
		if v.h2 == nil {
			v.h2, v.own = h2.New(h2.Config{Dial: t1.DialContext, OrHTTP1: !v.all}), true
		}
		rt = v
	}
	return &http.Client{Transport: rt, CheckRedirect: sameOrigin}
}

// versioned sends a session's requests over HTTP/2 where its version
// says so (all of them, or https's when ALPN agrees) and over HTTP/1.1
// otherwise.
type versioned struct {
	h1  *h1.Transport
	h2  *h2.Pool
	own bool // h2 is the session's own: closed with it, its counts the session's
	all bool // version 2: every request over HTTP/2
}

func (v *versioned) RoundTrip(req *http.Request) (*http.Response, error) {
	if v.all || req.URL.Scheme == "https" {
		resp, err := v.h2.RoundTrip(req)
		if !errors.Is(err, h2.ErrNotHTTP2) {
			return resp, err
		}
		// auto, and the server chose HTTP/1.1: nothing was sent
	}
	return v.h1.RoundTrip(req)
}

// plainH1 is the h1 transport rt sends plain http requests on; nil when
// it sends them some other way (HTTP/2, or a transport of a test's).
func plainH1(rt http.RoundTripper) *h1.Transport {
	switch rt := rt.(type) {
	case *h1.Transport:
		return rt
	case *versioned:
		if !rt.all {
			return rt.h1
		}
	}
	return nil
}

// CloseIdleConnections closes the session's idle connections, its own
// HTTP/2 pool's included.
func (v *versioned) CloseIdleConnections() {
	v.h1.CloseIdleConnections()
	if v.own {
		v.h2.CloseIdleConnections()
	}
}

// connStats is what c's pools' connections did (a shared HTTP/2 pool's
// are its owner's to count); ok is false for a client newVersionedClient
// did not make.
func connStats(c *http.Client) (conns.Stats, bool) {
	switch rt := c.Transport.(type) {
	case *h1.Transport:
		return rt.Stats(), true
	case *versioned:
		st := rt.h1.Stats()
		if ps := rt.h2.Stats(); rt.own && ps.Opened > 0 {
			st.Add(ps)
		}
		return st, true
	}
	return conns.Stats{}, false
}

// newHTTPRoundTripper is one session's HTTP/1.1 connection pool, tuned
// for measuring a server: plain http goes through h1, which does each
// request's I/O on the reading goroutine (a load generator must cost less
// than the server it measures); https goes through net/http's HTTP/1.1
// (HTTP/2 is versioned's, over internal/h2). No proxy, no compression,
// many idle connections.
func newHTTPRoundTripper() *h1.Transport {
	dial := dialer()
	return &h1.Transport{
		DialContext:    dial,
		MaxIdlePerHost: 1024,
		IdleTimeout:    90 * time.Second,
		Fallback: &lazyTransport{make: func(noKeepAlive bool) *http.Transport {
			var http1 http.Protocols
			http1.SetHTTP1(true)
			return &http.Transport{
				Protocols:           &http1,
				DisableKeepAlives:   noKeepAlive,
				Proxy:               nil, // a benchmark measures the server, not a proxy
				DialContext:         dial,
				TLSHandshakeTimeout: 10 * time.Second,
				MaxIdleConns:        0,
				MaxIdleConnsPerHost: 1024,
				IdleConnTimeout:     90 * time.Second,
				DisableCompression:  true, // wire bytes are the bytes the server sent
			}
		}},
	}
}

// lazyTransport is the https fallback of a session's pool, made at its
// first request: a session over plain http (thousands of them in one run)
// never pays for a net/http Transport it does not use.
type lazyTransport struct {
	make        func(noKeepAlive bool) *http.Transport
	noKeepAlive bool // set before the first request (noKeepAlive)
	mu          sync.Mutex
	t           *http.Transport
}

func (l *lazyTransport) get(create bool) *http.Transport {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.t == nil && create {
		l.t = l.make(l.noKeepAlive)
	}
	return l.t
}

func (l *lazyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return l.get(true).RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of the transport, if
// one was made.
func (l *lazyTransport) CloseIdleConnections() {
	if t := l.get(false); t != nil {
		t.CloseIdleConnections()
	}
}

// do is t.client.Do(hr) without the client's work on a request that is
// not redirected: the round trip goes straight to the client's transport,
// and only a redirect's answer is handed to the client (as the first
// answer of its Do, so nothing is sent twice), which follows it as ever.
// A URL with user info (basic auth) goes through the client whole.
func (t *httpTransport) do(hr *http.Request) (*http.Response, error) {
	rt := t.client.Transport
	if rt == nil || hr.URL.User != nil || t.client.Jar != nil || t.client.Timeout != 0 {
		withGetBody(hr)
		return t.client.Do(hr)
	}
	resp, err := rt.RoundTrip(hr)
	if err != nil {
		return nil, &url.Error{Op: "Post", URL: hr.URL.String(), Err: err} // as the client says it
	}
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		c := *t.client
		c.Transport = &answeredOnce{resp: resp, rt: rt}
		withGetBody(hr)
		return c.Do(hr)
	}
	return resp, nil
}

// answeredOnce is a RoundTripper whose first round trip is already done:
// it returns that answer, then sends through rt.
type answeredOnce struct {
	mu   sync.Mutex
	resp *http.Response
	rt   http.RoundTripper
}

func (a *answeredOnce) RoundTrip(req *http.Request) (*http.Response, error) {
	a.mu.Lock()
	resp := a.resp
	a.resp = nil
	a.mu.Unlock()
	if resp != nil {
		return resp, nil
	}
	return a.rt.RoundTrip(req)
}
