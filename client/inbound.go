package client

import (
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
//
// What is kept is bounded by keptLimit (maxKept for the handshake and
// listings), far below the answer limit: a kept message that passes it
// fails its request as soon as that request is known, or at once when it
// can answer only one (calls.sole), naming the bytes written.
type inbound struct {
	calls   *calls
	max     int64  // bytes; a longer message is a protocol failure of its request
	unended string // what a message not yet ended lacks, for an error: "no newline" (stdio)

	sc       answerScanner
	body     []byte // the message, while it may answer a request that is not a read
	keep     bool
	keepMax  int64 // bytes of the message that may be kept (keptLimit)
	keptOver bool  // it passed keepMax while kept: its request is failed once known
	started  bool  // the first piece was written: keep and the digest are settled
	lost     bool  // keeping started too late (never, in practice)
	looked   bool  // the id was read and looked up
	n        int64
	over     bool // the message passed max, or failed its request: the rest is skipped
	overSent bool // ... and its request was told
	first    time.Time
}

// keptReuse is the largest buffer a stream keeps for its next message;
// a bigger one (a listing page) is handed to its caller and not reused.
const keptReuse = 1 << 20

// begin starts a message whose first byte came at first. What to keep is decided at the first piece, not here: a
// transport may begin while it waits for the next message, before the
// request that message answers is pending.
func (m *inbound) begin(first time.Time) {
	if cap(m.body) > keptReuse {
		m.body = nil
	}
	m.body, m.started, m.lost, m.looked, m.keptOver = m.body[:0], false, false, false, false
	m.n, m.over, m.overSent, m.first = 0, false, false, first
}

// write follows the next piece of the message.
func (m *inbound) write(p []byte) {
	if !m.started {
		m.started = true
		keep, wide, digest := m.calls.wants()
		m.sc.reset(false, "", digest)
		m.keep, m.keepMax = keep, m.max
		if !wide {
			m.keepMax = keptLimit("", m.max)
		}
	}
	m.n += int64(len(p))
	if !m.over && m.max > 0 && m.n > m.max {
		m.over, m.keep, m.body = true, false, nil
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
		if m.n > m.keepMax {
			m.keep, m.body, m.keptOver = false, nil, true
		} else {
			m.body = appendKept(m.body, p, m.keepMax)
		}
	}
	if !m.looked {
		m.lookup()
	}
	if m.keptOver {
		m.overKept()
	}
}

// overKept fails the request of a message that passed keepMax while it
// was kept: once its id names a pending request that is not a read (a
// read's answer is scanned, never kept: it streams on), or, before its id
// comes, at once when the message can answer only one request
// (calls.sole) — an endless initialize answer, a stdout line that never
// ends, fail when they pass the limit instead of at the handshake
// timeout. A request or a notification from the server answers nothing.
func (m *inbound) overKept() {
	id := m.sc.idOf()
	switch {
	case m.looked:
		m.keptOver = false
		n, ok := protocol.ParseIntID(id)
		if !ok {
			return
		}
		if read, pending := m.calls.peek(n); pending && read == nil {
			m.fail(id, &tooLargeError{limit: m.keepMax, read: m.n, kept: true})
		}
	case m.sc.methodOf() != "":
		m.keptOver = false
	default:
		if sole, ok := m.calls.sole(); ok {
			m.fail(protocol.IntID(sole), &tooLargeError{limit: m.keepMax, read: m.n, kept: true, unended: m.unended})
		}
	}
}

// fail ends the message's request with err; the rest of the message is
// skipped.
func (m *inbound) fail(id []byte, err *tooLargeError) {
	m.over, m.overSent, m.keep, m.keptOver, m.body = true, true, false, false, nil
	m.calls.tooLarge(id, m.n, err, time.Now())
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
// Before the id, a message that can answer only one request (calls.sole)
// fails it at once: a stdout line that never ends must not wait for an
// id that never comes.
func (m *inbound) tellOver(end bool) {
	id := m.sc.idOf()
	if id == nil && !end && !m.sc.msg.idDone {
		if sole, ok := m.calls.sole(); ok && m.sc.methodOf() == "" {
			m.overSent = true
			m.calls.tooLarge(protocol.IntID(sole), m.n, &tooLargeError{limit: m.max, read: m.n, unended: m.unended}, time.Now())
		}
		return
	}
	m.overSent = true
	m.calls.tooLarge(id, m.n, tooLargeErr(m.max, m.n), time.Now())
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
	if n := m.calls.notes.Load(); n != nil && m.sc.idOf() == nil && m.sc.methodOf() != "" {
		n.fromStream(m.body, m.keep && !m.lost, now) // a notification, for the session's subscriptions
	}
	return m.calls.routeID(m.sc.idOf(), m.sc.methodOf(), wire, m.first, now, func(read *readSpec) *Response {
		if read != nil {
			a := scannedAnswer(nil, &m.sc, read, wire)
			a.FirstByte, a.Done = m.first, now
			return a
		}
		var body []byte
		if !m.lost {
			body = m.body // handed over, never copied: the next message starts a buffer of its own
			m.body = nil
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
