package h2

import (
	"context"
	"crypto/tls"
	"fmt"
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
