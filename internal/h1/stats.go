package h1

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/readbench/readbench/internal/conns"
)

// Stats is what the transport's connections did so far.
func (t *Transport) Stats() conns.Stats {
	c := &t.count
	return conns.Stats{
		Opened: c.opened.Load(), Requests: c.requests.Load(), Reused: c.reused.Load(), Peak: c.peak.Load(),
		ClosedByCut: c.cut.Load(), ClosedByServer: c.server.Load(), ClosedByClient: c.client.Load(),
	}
}

// closeReason is why a connection was closed (Stats).
type closeReason uint8

const (
	closedQuietly closeReason = iota // the pool's end: not counted
	closedByCut
	closedByServer
	closedByClient
)

// counters are a Transport's Stats as they are kept.
type counters struct {
	opened, requests, reused, open, peak, cut, server, client atomic.Int64
}

// dialled counts a new connection, open until closed counts its end.
func (c *counters) dialled() {
	c.opened.Add(1)
	n := c.open.Add(1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
}

// ended counts why a connection ended.
func (c *counters) ended(why closeReason) {
	switch why {
	case closedByCut:
		c.cut.Add(1)
	case closedByServer:
		c.server.Add(1)
	case closedByClient:
		c.client.Add(1)
	}
}

// failedBy is who ended an exchange that failed with err: the request's
// context or deadline (a cut), the server (its close or reset), or the
// client (anything else: a response it could not read).
func failedBy(err error, cancelled bool) closeReason {
	switch {
	case cancelled || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		return closedByCut
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED):
		return closedByServer
	}
	return closedByClient
}

// fallback sends req through the fallback transport (net/http's: https),
// counting its connections as far as a trace and the response show them:
// a request on a new connection counts it opened, and an HTTP/1 body
// ended early (a cut, the server's close) counts that connection's end.
// HTTP/2 streams share a connection: ending one closes nothing.
func (t *Transport) fallback(req *http.Request) (*http.Response, error) {
	c := &t.count
	c.requests.Add(1)
	var got, h2 bool // a connection was had; it speaks HTTP/2
	ctx := httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		got = true
		if tc, ok := i.Conn.(interface{ ConnectionState() tls.ConnectionState }); ok {
			h2 = tc.ConnectionState().NegotiatedProtocol == "h2"
		}
		if i.Reused {
			c.reused.Add(1)
		} else {
			c.opened.Add(1)
		}
	}})
	resp, err := t.Fallback.RoundTrip(req.WithContext(ctx))
	switch {
	case err != nil:
		if got && !h2 {
			c.ended(failedBy(err, req.Context().Err() != nil))
		}
		return nil, err
	case resp.ProtoMajor != 1:
		return resp, nil
	}
	resp.Body = &countedBody{rc: resp.Body, c: c, ctx: req.Context(), serverClose: resp.Close}
	return resp, nil
}

// countedBody is an HTTP/1 body of the fallback: its connection's end is
// counted when the body ends without leaving it to the pool.
type countedBody struct {
	rc          io.ReadCloser
	c           *counters
	ctx         context.Context
	serverClose bool // the response said Connection: close
	done        bool
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil && !b.done {
		b.done = true
		switch {
		case err == io.EOF && b.serverClose:
			b.c.ended(closedByServer)
		case err != io.EOF:
			b.c.ended(failedBy(err, b.ctx.Err() != nil))
		}
	}
	return n, err
}

func (b *countedBody) Close() error {
	if !b.done {
		b.done = true
		// net/http closes an HTTP/1 connection whose body was not read
		// to its end: a cut when the request's context ended
		b.c.ended(failedBy(nil, b.ctx.Err() != nil))
	}
	return b.rc.Close()
}
