package client

import (
	"bytes"
	"time"

	"github.com/readbench/readbench/protocol"
)

// inbound follows one message on a stream shared by many requests (a
// stdio line, an HTTP+SSE event) as its pieces arrive, and routes it at
// its end. Which request it answers is known only once its id has been
// read, and an id may come after the payload, so every message is
// scanned as if it were the answer to a read: as soon as the id is
// known, the scanner is told the read's uri and whether to hash, and a
// read's answer is never kept. Only while a request that is not a read
// is pending (a listing, the handshake: small answers that callers
// decode) is a message kept whole until its id says whose it is.
type inbound struct {
	calls *calls
	max   int64 // bytes; a longer message is a protocol failure of its request

	sc       answerScanner
	body     []byte // the message, while it may answer a request that is not a read
	keep     bool
	started  bool // the first piece was written: keep and the digest are settled
	lost     bool // keeping started too late (never, in practice)
	looked   bool // the id was read and looked up
	n        int64
	over     bool // the message passed max
	overSent bool // ... and its request was told
	first    time.Time
}

// begin starts a message whose first byte came at first. What to keep is decided at the first piece, not here: a
// transport may begin while it waits for the next message, before the
// request that message answers is pending.
func (m *inbound) begin(first time.Time) {
	m.body, m.started, m.lost, m.looked = m.body[:0], false, false, false
	m.n, m.over, m.overSent, m.first = 0, false, false, first
}

// write follows the next piece of the message.
func (m *inbound) write(p []byte) {
	if !m.started {
		m.started = true
		keep, digest := m.calls.wants()
		m.sc.reset(false, "", digest)
		m.keep = keep
	}
	m.n += int64(len(p))
	if !m.over && m.max > 0 && m.n > m.max {
		m.over, m.keep, m.body = true, false, m.body[:0]
	}
	if m.over {
		if !m.overSent {
			m.sc.feed(p) // only for its id
			m.tellOver(false)
		}
		return
	}
	m.sc.feed(p)
	if m.keep {
		m.body = append(m.body, p...)
	}
	if !m.looked {
		m.lookup()
	}
}

// lookup reads the message's id once the scanner has it whole.
func (m *inbound) lookup() {
	if !m.sc.msg.idDone {
		return
	}
	m.looked = true
	n, ok := protocol.ParseIntID(m.sc.idOf())
	if !ok {
		return
	}
	read, pending := m.calls.peek(n)
	switch {
	case !pending: // given up on (its answer is only counted) or unknown
		m.keep = false
	case read == nil:
		m.lost = !m.keep
	default:
		m.keep, m.body = false, m.body[:0]
		m.sc.knowRead(read.uri, read.digest)
	}
}

// tellOver routes the over-limit failure to the message's request once
// its id is known (end: the message is over, the id will not come).
func (m *inbound) tellOver(end bool) {
	id := m.sc.idOf()
	if id == nil && !end && !m.sc.msg.idDone {
		return
	}
	m.overSent = true
	m.calls.tooLarge(&protocol.TooLargeError{Limit: m.max, Read: m.n, ID: id}, time.Now())
}

// end routes the message, which took wire bytes, at now; it returns the
// reply to a request from the server, for the transport to send.
func (m *inbound) end(wire int64, now time.Time) (reply []byte) {
	if m.over {
		if !m.overSent {
			m.tellOver(true)
		}
		return nil
	}
	return m.calls.routeID(m.sc.idOf(), m.sc.methodOf(), wire, m.first, now, func(read *readSpec) *Response {
		if read != nil {
			a := scannedAnswer(nil, &m.sc, read, wire)
			a.FirstByte, a.Done = m.first, now
			return a
		}
		var body []byte
		if !m.lost {
			body = bytes.Clone(m.body)
		}
		return &Response{Body: body, WireBytes: wire, FirstByte: m.first, Done: now}
	})
}

// knowRead tells the scanner, once the id is known, which read the answer
// is for: entries are then compared with its uri as they close, and the
// content hashed when it asked for a digest (unless entries already went
// by: the digest is then left out).
func (s *answerScanner) knowRead(uri string, digest bool) {
	c := &s.cont
	if c.entries == 0 && len(c.uris) == 0 {
		c.uriKnown, c.uri = true, uri
	}
	if digest && !s.dig.on {
		if c.entries > 0 {
			s.dig.lost = true
			return
		}
		s.dig.enable()
	}
}

// notJSONRPC reports whether the message, routed by end, was none of a
// request, a notification or a response: no id, no method, no result or
// error member (a log line, a banner, a JSON log record). A message over
// the size limit is its request's failure, never counted here.
func (m *inbound) notJSONRPC() bool {
	return !m.over && m.sc.idOf() == nil && m.sc.methodOf() == "" && !m.sc.isResponse()
}
