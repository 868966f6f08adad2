package h2

import (
	"crypto/tls"
	"encoding/binary"
	"net"
	"sync/atomic"
)

// HTTP/2 frame types and codes that the pool counts (RFC 9113 §6, §7).
const (
	frameHeaders   = 0x1
	frameRSTStream = 0x3
	frameSettings  = 0x4
	frameGoAway    = 0x7

	flagAck = 0x1

	settingMaxConcurrentStreams = 0x3

	codeRefusedStream = 0x7
)

// clientPreface is what a client sends before its first frame.
const clientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// frameConn is one HTTP/2 connection's net.Conn, reading the frames that
// cross it as they pass: the HTTP/2 library keeps its counts to itself
// (a graceful GOAWAY, the resets it sends on a cut), and a report that
// says who reset a stream must count the frames on the wire, not errors
// after the fact. Only frame headers and the few bytes of payload the
// counts need are looked at; DATA passes untouched.
type frameConn struct {
	net.Conn
	in, out frameScan
	// maxStreams is the server's SETTINGS_MAX_CONCURRENT_STREAMS, 0 until
	// it says one.
	maxStreams atomic.Uint32
	goAwayIn   atomic.Bool // the server sent GOAWAY
	readErr    atomic.Bool // a read failed: the server closed or reset
	ended      atomic.Bool // its end was counted
	count      *counters   // the pool's
}

func newFrameConn(c net.Conn, count *counters) *frameConn {
	f := &frameConn{Conn: c, count: count}
	f.in = frameScan{on: f.fromServer}
	f.out = frameScan{skip: len(clientPreface), on: f.fromClient}
	return f
}

// Read is called by the HTTP/2 library's one reading goroutine, Write
// under its write lock: each direction's scan has one caller at a time.
func (f *frameConn) Read(p []byte) (int, error) {
	n, err := f.Conn.Read(p)
	f.in.scan(p[:n])
	if err != nil {
		f.readErr.Store(true)
	}
	return n, err
}

func (f *frameConn) Write(p []byte) (int, error) {
	n, err := f.Conn.Write(p)
	f.out.scan(p[:n])
	return n, err
}

// ConnectionState is the TLS state, for responses' TLS field (the HTTP/2
// library looks for this method on the connection it is given).
func (f *frameConn) ConnectionState() tls.ConnectionState {
	if tc, ok := f.Conn.(*tls.Conn); ok {
		return tc.ConnectionState()
	}
	return tls.ConnectionState{}
}

// byServer says whether the server ended the connection: it sent GOAWAY,
// or closed or reset it under a read.
func (f *frameConn) byServer() bool { return f.goAwayIn.Load() || f.readErr.Load() }

func (f *frameConn) fromServer(typ, flags byte, payload []byte) {
	c := f.count
	switch typ {
	case frameRSTStream:
		c.resetsReceived.Add(1)
		if len(payload) >= 4 && binary.BigEndian.Uint32(payload) == codeRefusedStream {
			c.refused.Add(1)
		}
	case frameGoAway:
		c.goAwayReceived.Add(1)
		f.goAwayIn.Store(true)
	case frameSettings:
		if flags&flagAck == 0 && len(payload) == 6 && binary.BigEndian.Uint16(payload) == settingMaxConcurrentStreams {
			v := binary.BigEndian.Uint32(payload[2:])
			f.maxStreams.Store(v)
			c.sawMaxStreams(v)
		}
	}
}

func (f *frameConn) fromClient(typ, _ byte, _ []byte) {
	c := f.count
	switch typ {
	case frameHeaders:
		c.streams.Add(1)
	case frameRSTStream:
		c.resetsSent.Add(1)
	case frameGoAway:
		c.goAwaySent.Add(1)
	}
}

// frameScan follows one direction's frames across the reads or writes
// that carry them: a frame's header is 9 bytes, then its payload. It
// keeps the first bytes of a RST_STREAM's or GOAWAY's payload, and each
// 6-byte setting of a SETTINGS frame, and tells on of every frame once
// those are whole (on a SETTINGS frame, once per setting).
type frameScan struct {
	skip  int // bytes still to pass before the first frame (the preface)
	hdr   [9]byte
	nhdr  int
	typ   byte
	flags byte
	left  int // payload bytes still to pass
	keep  int // payload bytes wanted in pay
	pay   [8]byte
	npay  int
	on    func(typ, flags byte, payload []byte)
}

func (s *frameScan) scan(p []byte) {
	for len(p) > 0 {
		switch {
		case s.skip > 0:
			n := min(s.skip, len(p))
			s.skip -= n
			p = p[n:]
		case s.nhdr < len(s.hdr):
			n := copy(s.hdr[s.nhdr:], p)
			s.nhdr += n
			p = p[n:]
			if s.nhdr == len(s.hdr) {
				s.head()
			}
		default:
			p = s.payload(p)
		}
	}
}

// head starts a frame whose 9-byte header is whole.
func (s *frameScan) head() {
	s.left = int(s.hdr[0])<<16 | int(s.hdr[1])<<8 | int(s.hdr[2])
	s.typ, s.flags = s.hdr[3], s.hdr[4]
	s.npay = 0
	switch s.typ {
	case frameRSTStream:
		s.keep = 4
	case frameGoAway:
		s.keep = 8
	case frameSettings:
		s.keep = 6
	default:
		s.keep = 0
	}
	if s.keep == 0 || s.left == 0 {
		s.on(s.typ, s.flags, nil)
	}
	s.next()
}

// next ends the frame when its payload has passed.
func (s *frameScan) next() {
	if s.left == 0 {
		s.nhdr = 0
	}
}

// payload passes the frame's payload in p, keeping what on wants, and
// returns the rest of p.
func (s *frameScan) payload(p []byte) []byte {
	n := min(s.left, len(p))
	if s.keep > 0 {
		n = min(n, s.keep-s.npay)
		copy(s.pay[s.npay:], p[:n])
		s.npay += n
		if s.npay == s.keep {
			s.on(s.typ, s.flags, s.pay[:s.keep])
			s.npay = 0
			if s.typ != frameSettings {
				s.keep = 0
			}
		}
	}
	s.left -= n
	s.next()
	return p[n:]
}
