package simserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Wire names a deliberate violation of the transport's framing or of
// JSON-RPC's matching rules, injected with the wire= URI option, so that a
// client's handling of broken servers can be tested end to end. Each is
// described for stdio and for Streamable HTTP; where a violation needs
// more than one message, the HTTP answer goes as an SSE stream.
type Wire string

// The violations a sim: URI can ask for.
const (
	WireNone Wire = ""
	// WireGarbage: a line (stdio) or an event (HTTP) of text that is not
	// JSON-RPC before the answer.
	WireGarbage Wire = "garbage"
	// WireTruncate: stdio, the answer's first half as a line of its own;
	// HTTP, a JSON body whose Content-Length is the whole answer's but
	// that ends after its first half.
	WireTruncate Wire = "truncate"
	// WireClose: the connection closed in the middle of the answer: on
	// stdio the answer's first half, then the process exits with an error
	// (the server crashes); on HTTP half an SSE event, then the connection
	// is aborted.
	WireClose Wire = "close"
	// WireWrongID: the answer carries another id than the request's.
	WireWrongID Wire = "wrong_id"
	// WireDuplicate: the answer is sent twice.
	WireDuplicate Wire = "duplicate"
	// WireUnsolicited: before the answer, an answer to an id never sent.
	WireUnsolicited Wire = "unsolicited"
	// WirePing and WireSampling: before the answer, the server sends the
	// client a request (ping, sampling/createMessage) and answers the read
	// only once the client has replied.
	WirePing     Wire = "ping"
	WireSampling Wire = "sampling"
	// WireKeepAlive: the answer never comes; on HTTP the SSE stream gets a
	// keep-alive comment every 100 ms meanwhile.
	WireKeepAlive Wire = "keepalive"
	// WireLieLength: HTTP, a JSON body whose Content-Length claims 8 GiB,
	// of which ten bytes are sent. Stdio answers normally.
	WireLieLength Wire = "lie_length"
)

// wires are the values of wire=, in the order the docs give them: the
// read's violations, then the subscription faults (subfaults.go).
func wires() []Wire {
	return append([]Wire{WireGarbage, WireTruncate, WireClose, WireWrongID, WireDuplicate, WireUnsolicited,
		WirePing, WireSampling, WireKeepAlive, WireLieLength}, subscriptionFaults()...)
}

func parseWire(v string) (Wire, error) {
	for _, w := range wires() {
		if string(w) == v {
			return w, nil
		}
	}
	return "", fmt.Errorf("must be one of %v", wires())
}

// Pieces of the violations.
var (
	garbageLine = []byte("this line is not JSON-RPC {")
	unsolicited = []byte(`{"jsonrpc":"2.0","id":987654321,"result":{}}`)
)

// keepAliveEvery spaces the keep-alive comments of WireKeepAlive; the
// stream ends with the request, or after maxKeepAlive.
const (
	keepAliveEvery = 100 * time.Millisecond
	maxKeepAlive   = time.Hour
)

// wrongID is an id that is not the request's: a numeric id moved by a
// million, any other one replaced by a string.
func wrongID(id []byte) []byte {
	if n, ok := protocol.ParseIntID(id); ok {
		return strconv.AppendInt(nil, n+1_000_000, 10)
	}
	return []byte(`"not-your-id"`)
}

// joined is an answer's bytes in one piece (for the violations that cut it).
func (a *answer) joined() []byte { return bytes.Join(a.parts, nil) }

// serverRequest builds the request WirePing or WireSampling sends the
// client, with a fresh id, and registers the wait for its reply: done is
// closed when the reply comes; forget drops the registration.
func (s *Server) serverRequest(w Wire) (msg []byte, done <-chan struct{}, forget func()) {
	id := "sim-" + strconv.FormatInt(s.srvReqs.Add(1), 10)
	method, params := protocol.MethodPing, map[string]any(nil)
	if w == WireSampling {
		method = "sampling/createMessage"
		params = map[string]any{"messages": []any{}, "maxTokens": 1}
	}
	msg, _ = protocol.AppendRequest(nil, []byte(strconv.Quote(id)), method, params)
	ch := make(chan struct{})
	s.waitMu.Lock()
	s.waiting[strconv.Quote(id)] = ch
	s.waitMu.Unlock()
	return msg, ch, func() {
		s.waitMu.Lock()
		delete(s.waiting, strconv.Quote(id))
		s.waitMu.Unlock()
	}
}

// clientReplied takes a response the client sent: the reply a server
// request is waiting for (any other is ignored).
func (s *Server) clientReplied(id []byte) {
	s.waitMu.Lock()
	ch := s.waiting[string(bytes.TrimSpace(id))]
	delete(s.waiting, string(bytes.TrimSpace(id)))
	s.waitMu.Unlock()
	if ch != nil {
		close(ch)
	}
}

// awaitReply waits for the client's reply to a server request, for the
// request's end, or for a crash; it reports whether the reply came.
func (s *Server) awaitReply(ctx context.Context, done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	case <-ctx.Done():
	case <-s.crashed:
	}
	return false
}

// errClosedMidAnswer is how a stdio connection ends after WireClose.
var errClosedMidAnswer = errors.New("closed the connection in the middle of an answer (wire=close)")

// writeWire writes a read's answer over stdio with its violation; it
// reports whether the answer (or what stands for it) went out.
func (c *stdioConn) writeWire(ctx context.Context, a *answer) bool {
	switch a.wire {
	case WireGarbage:
		return c.write([][]byte{garbageLine}) && c.write(a.parts)
	case WireTruncate:
		whole := a.joined()
		return c.write([][]byte{whole[:len(whole)/2]})
	case WireClose:
		whole := a.joined()
		c.writeRaw(whole[:len(whole)/2])
		c.s.crash(errClosedMidAnswer.Error())
		return false
	case WireDuplicate:
		return c.write(a.parts) && c.write(a.parts)
	case WireUnsolicited:
		return c.write([][]byte{unsolicited}) && c.write(a.parts)
	case WirePing, WireSampling:
		msg, done, forget := c.s.serverRequest(a.wire)
		defer forget()
		if !c.write([][]byte{msg}) || !c.s.awaitReply(ctx, done) {
			return false
		}
		return c.write(a.parts)
	case WireKeepAlive:
		<-ctx.Done() // never answered
		return false
	}
	return c.write(a.parts)
}

// crash ends the server on purpose, as Options.CrashAfter does: a stdio
// server's process exits with an error, the HTTP handler aborts every
// connection from then on.
func (s *Server) crash(reason string) {
	s.crashOnce.Do(func() {
		s.logf("simserver: %s", reason)
		close(s.crashed)
	})
}

// writeRaw writes b as it is, without the newline that ends a message,
// and flushes it.
func (c *stdioConn) writeRaw(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr == nil {
		if _, err := c.w.Write(b); err != nil {
			c.werr = err
		} else if err := c.w.Flush(); err != nil {
			c.werr = err
		}
	}
}

// wedged counts a request and reports whether the server's event loop is
// wedged by now (Options.WedgeAfter requests have come).
func (s *Server) wedged() bool {
	n := s.stats.requests.Add(1)
	return s.opts.WedgeAfter > 0 && n > int64(s.opts.WedgeAfter)
}
