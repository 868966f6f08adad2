package simserver

import (
	"errors"
	"net/http"

	"github.com/readbench/readbench/protocol"
)

// Legacy subscriptions (2024-11-05 … 2025-11-25): resources/subscribe {uri}
// is answered at once, and the connection's notifications/resources/updated
// then come on stdout (stdio) or on the session's standalone GET stream
// (Streamable HTTP with Options.Stateful). They need somewhere to live
// between requests — a stdio connection or a session — so stateless HTTP
// refuses them (errNoSession) and advertises no resources.subscribe.

// subscriptionHost is where a legacy subscription lives.
type subscriptionHost interface {
	// legacySubscriber is the host's subscriber, made on first use.
	legacySubscriber() *subscriber
}

// legacySubscriber is the stdio connection's subscriber; making it starts
// the connection's notifier, which writes its notes to stdout until the
// connection ends (ServeStdio waits for it).
func (c *stdioConn) legacySubscriber() *subscriber {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.legacy == nil {
		sub := newSubscriber(false, nil)
		sub.fault = c.s.opts.SubscriptionFault
		c.legacy = sub
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer c.s.hub.remove(sub)
			c.s.pump(c.ctx, sub, stdioSink{c, c.ctx}, 0, 0)
		}()
	}
	return c.legacy
}

// sessionHost is a stateful HTTP session as a subscription host.
type sessionHost struct {
	s  *Server
	id string
}

func (h sessionHost) legacySubscriber() *subscriber { return h.s.sessionSubscriber(h.id) }

// sessionSubscriber is session id's subscriber, made on first use; its
// notes wait (up to maxQueued) for the session's GET stream.
func (s *Server) sessionSubscriber(id string) *subscriber {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	sub := s.sessSubs[id]
	if sub == nil {
		sub = newSubscriber(false, nil)
		sub.fault = s.opts.SubscriptionFault
		s.sessSubs[id] = sub
	}
	return sub
}

// endSessionSubscriber removes a deleted session's subscriber: its GET
// stream ends.
func (s *Server) endSessionSubscriber(id string) {
	s.sessMu.Lock()
	sub := s.sessSubs[id]
	delete(s.sessSubs, id)
	s.sessMu.Unlock()
	if sub != nil {
		s.hub.remove(sub)
	}
}

// subscribe answers resources/subscribe and resources/unsubscribe.
func (s *Server) subscribe(c *call) answer {
	if c.modern {
		return s.fail(c.id, protocol.NewError(protocol.CodeMethodNotFound,
			"Method not found in "+protocol.V20260728+": "+c.method+" (listen with "+protocol.MethodSubscriptionsListen+")", nil))
	}
	if c.host == nil {
		return s.fail(c.id, protocol.NewError(protocol.CodeMethodNotFound, "Method not found: "+errNoSession.Error(), nil))
	}
	if c.p.URI == nil || *c.p.URI == "" {
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: missing uri", nil))
	}
	uri := *c.p.URI
	sub := c.host.legacySubscriber()
	if c.method == protocol.MethodUnsubscribe {
		if spec, err := s.specs.parse(uri); s.opts.SubscriptionFault == WireIgnoreUnsubscribe || err == nil && spec.Wire == WireIgnoreUnsubscribe {
			return s.result(c, []byte("{}")) // answered, and kept: the fault
		}
		s.hub.drop(sub, uri) // unsubscribing from what one does not follow is no error
		return s.result(c, []byte("{}"))
	}
	spec, err := s.specs.parse(uri)
	switch {
	case errors.Is(err, ErrNotSim):
		return s.fail(c.id, notFound(false, uri))
	case err != nil:
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: "+err.Error(), map[string]string{"uri": uri}))
	}
	fault := WireNone
	if spec.Wire.subscription() {
		fault = spec.Wire
	}
	s.hub.add(sub, uri, fault)
	return s.result(c, []byte("{}"))
}

// serveSessionStream serves GET on the endpoint in stateful mode: the
// session's standalone SSE stream, on which its notifications come. One
// at a time per session (a second is 409); it ends when the client
// closes it, the session is deleted, the server closes, or
// Options.DropStreamsAfter.
func (s *Server) serveSessionStream(w http.ResponseWriter, r *http.Request) {
	sid, ok := s.checkSession(w, r, false)
	if !ok {
		return
	}
	if _, sseOK := accepts(r.Header.Values("Accept")); !sseOK {
		http.Error(w, "Not Acceptable: the session's stream is text/event-stream", http.StatusNotAcceptable)
		return
	}
	sub := s.sessionSubscriber(sid)
	if !sub.claim() {
		http.Error(w, "Conflict: this session's stream is open already", http.StatusConflict)
		return
	}
	defer sub.release()
	out := newSSESink(w)
	if !out.flush() {
		return
	}
	if s.pump(r.Context(), sub, out, s.keepAliveEvery(), s.opts.DropStreamsAfter) == endCrashed {
		panic(http.ErrAbortHandler)
	}
}

// claim marks a session's stream open; false when it is already.
func (sub *subscriber) claim() bool {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.streaming {
		return false
	}
	sub.streaming = true
	return true
}

func (sub *subscriber) release() {
	sub.mu.Lock()
	sub.streaming = false
	sub.mu.Unlock()
}
