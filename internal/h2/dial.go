package h2

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"

	"golang.org/x/net/http2"
)

// dial opens one HTTP/2 connection to addr: TLS with ALPN when the pool
// has a TLS config and the address is https's, h2c with prior knowledge
// otherwise.
func (p *Pool) dial(ctx context.Context, addr string, secure bool) (*conn, error) {
	raw, err := p.cfg.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	nc := raw
	if secure {
		if nc, err = p.handshake(ctx, raw, addr); err != nil {
			raw.Close()
			return nil, err
		}
	}
	fc := newFrameConn(nc, &p.count)
	cc, err := p.t.NewClientConn(fc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("http2 connection to %s: %w", addr, err)
	}
	p.count.dialled()
	return &conn{addr: addr, secure: secure, cc: cc, fc: fc}, nil
}

// handshake is TLS over raw, with "h2" agreed by ALPN.
func (p *Pool) handshake(ctx context.Context, raw net.Conn, addr string) (*tls.Conn, error) {
	cfg := p.cfg.TLS.Clone()
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(addr)
	}
	cfg.NextProtos = []string{http2.NextProtoTLS}
	if p.cfg.OrHTTP1 {
		cfg.NextProtos = append(cfg.NextProtos, "http/1.1")
	}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		if !p.cfg.OrHTTP1 { // a server without h2 may refuse the handshake for it
			return nil, fmt.Errorf("TLS handshake with %s, offering only h2 by ALPN: %w", addr, err)
		}
		return nil, err
	}
	switch proto := tc.ConnectionState().NegotiatedProtocol; {
	case proto == http2.NextProtoTLS:
		return tc, nil
	case p.cfg.OrHTTP1:
		p.mu.Lock()
		p.notH2 = true
		p.mu.Unlock()
		return nil, ErrNotHTTP2
	default:
		return nil, fmt.Errorf("TLS server at %s offering only h2 by ALPN: the server chose %q", addr, proto)
	}
}

// body is a response's body that gives its stream back to the pool once,
// at its end or its Close, whichever comes first.
type body struct {
	rc   io.ReadCloser
	done func()
	once bool
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil {
		b.end()
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.end()
	return err
}

func (b *body) end() {
	if !b.once {
		b.once = true
		b.done()
	}
}

// CloseIdleConnections closes the connections with no stream in flight,
// as net/http's transports do at a session's end.
func (p *Pool) CloseIdleConnections() {
	p.mu.Lock()
	defer p.mu.Unlock()
	live := p.conns[:0]
	for _, c := range p.conns {
		if c.inFlight > 0 {
			live = append(live, c)
			continue
		}
		p.quietLocked(c)
	}
	clear(p.conns[len(live):])
	p.conns = live
}

// Close closes every connection; requests after it fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.conns {
		p.quietLocked(c)
	}
	clear(p.conns)
	p.conns = nil
	p.signalLocked()
	return nil
}

// quietLocked closes c at the pool's end: no churn, unless the server
// had ended it already.
func (p *Pool) quietLocked(c *conn) {
	if c.fc.byServer() {
		p.endedLocked(c)
		return
	}
	if c.fc.ended.CompareAndSwap(false, true) {
		p.count.open.Add(-1)
		_ = c.cc.Close()
	}
}
