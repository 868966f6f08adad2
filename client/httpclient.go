package client

import (
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/internal/h1"
)

// A session's HTTP client: its connection pool (h1 for plain http, net/http
// for https) and the way a request goes through it.

// newHTTPClient is one session's HTTP client: its own connection pool,
// and redirects followed only within the target's origin (sameOrigin).
// Every wait of a request (connect, TLS, headers, body) ends with the
// request's context; connect and TLS are bounded on their own as well.
func newHTTPClient() *http.Client {
	return &http.Client{Transport: newHTTPRoundTripper(), CheckRedirect: sameOrigin}
}

// connStats is what c's pool's connections did; ok is false for a client
// newHTTPClient did not make.
func connStats(c *http.Client) (conns.Stats, bool) {
	h, ok := c.Transport.(*h1.Transport)
	if !ok {
		return conns.Stats{}, false
	}
	return h.Stats(), true
}

// noKeepAlive makes c's pool send every request with Connection: close
// and close its connection after it (Dial.NoKeepAlive). Called before c
// carries any request.
func noKeepAlive(c *http.Client) {
	h, ok := c.Transport.(*h1.Transport)
	if !ok {
		return
	}
	h.DisableKeepAlives = true
	if l, ok := h.Fallback.(*lazyTransport); ok {
		l.noKeepAlive = true
	}
}

// newHTTPRoundTripper is one session's connection pool, tuned for
// measuring a server: plain http goes through h1, which does each
// request's I/O on the reading goroutine (a load generator must cost less
// than the server it measures); https goes through net/http (TLS, HTTP/2).
// No proxy, no compression, many idle connections.
func newHTTPRoundTripper() *h1.Transport {
	dial := (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	return &h1.Transport{
		DialContext:    dial,
		MaxIdlePerHost: 1024,
		IdleTimeout:    90 * time.Second,
		Fallback: &lazyTransport{make: func(noKeepAlive bool) *http.Transport {
			return &http.Transport{
				DisableKeepAlives:   noKeepAlive,
				Proxy:               nil, // a benchmark measures the server, not a proxy
				DialContext:         dial,
				TLSHandshakeTimeout: 10 * time.Second,
				MaxIdleConns:        0,
				MaxIdleConnsPerHost: 1024,
				IdleConnTimeout:     90 * time.Second,
				DisableCompression:  true, // wire bytes are the bytes the server sent
				ForceAttemptHTTP2:   true,
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
