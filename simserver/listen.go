package simserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Streams of notifications: a 2026-07-28 subscriptions/listen (its POST's
// SSE response, or its request on stdio) and a legacy session's standalone
// GET stream or stdout. One loop (pump) serves them all, on the goroutine
// the stream already has, through a sink that knows the framing.

// defaultKeepAlive spaces the SSE comments on an idle HTTP stream
// (Options.KeepAlive): often enough that a proxy's or a load balancer's
// idle timeout (commonly 30 to 60 s) never cuts a quiet listener.
const defaultKeepAlive = 15 * time.Second

// sink writes a stream's messages in its transport's framing.
type sink interface {
	send(msg []byte) bool // one message, perhaps buffered
	flush() bool          // what send buffered goes out
	keepAlive() bool      // an idle stream's sign of life (SSE comment); stdio has none
}

// sseSink frames messages as SSE events of an HTTP response.
type sseSink struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func newSSESink(w http.ResponseWriter) *sseSink {
	h := w.Header()
	h.Set("Content-Type", protocol.ContentTypeSSE)
	h.Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	return &sseSink{w: w, rc: http.NewResponseController(w)}
}

func (o *sseSink) send(msg []byte) bool {
	if _, err := io.WriteString(o.w, "event: message\ndata: "); err != nil {
		return false
	}
	if _, err := o.w.Write(msg); err != nil {
		return false
	}
	_, err := io.WriteString(o.w, "\n\n")
	return err == nil
}

func (o *sseSink) flush() bool { return o.rc.Flush() == nil }

func (o *sseSink) keepAlive() bool {
	_, err := io.WriteString(o.w, ": keep-alive\n\n")
	return err == nil && o.flush()
}

// stdioSink writes messages as lines of a stdio connection, none once
// ctx has ended: a listen's notifications/cancelled is read before
// whatever follows it on stdin (a change, say), so nothing told of a
// change made after the cancel is ever written.
type stdioSink struct {
	c   *stdioConn
	ctx context.Context
}

func (o stdioSink) send(msg []byte) bool { return o.c.writeUnlessCancelled(o.ctx, [][]byte{msg}) }
func (o stdioSink) flush() bool          { return true } // write flushed
func (o stdioSink) keepAlive() bool      { return true }

// streamEnd is why pump returned.
type streamEnd int

const (
	endGone    streamEnd = iota // the client left, or cancelled
	endClosed                   // the server is closing (Close): end gracefully
	endDropped                  // Options.DropStreamsAfter
	endCrashed                  // the server crashed on purpose
	endRemoved                  // the subscriber was removed (a session deleted)
)

// pump writes sub's notes to out until ctx ends or the stream must end
// for another reason, which it returns. keepAlive and drop are the HTTP
// stream's timers (0: none): runtime timers, not goroutines.
func (s *Server) pump(ctx context.Context, sub *subscriber, out sink, keepAlive, drop time.Duration) streamEnd {
	var kaC, dropC <-chan time.Time
	var ka *time.Timer
	if keepAlive > 0 {
		ka = time.NewTimer(keepAlive)
		defer ka.Stop()
		kaC = ka.C
	}
	if drop > 0 {
		t := time.NewTimer(drop)
		defer t.Stop()
		dropC = t.C
	}
	for {
		select {
		case <-sub.ready:
			if ctx.Err() != nil {
				// Cancelled while a note waited: a select picks at random
				// among ready cases, and nothing may follow a cancel.
				return endGone
			}
			for _, n := range sub.take() {
				for _, m := range sub.render(n) {
					if !out.send(m) {
						return endGone
					}
				}
			}
			if !out.flush() {
				return endGone
			}
			if ka != nil {
				ka.Reset(keepAlive)
			}
		case <-kaC:
			if !out.keepAlive() {
				return endGone
			}
			ka.Reset(keepAlive)
		case <-dropC:
			return endDropped
		case <-sub.done:
			return endRemoved
		case <-ctx.Done():
			return endGone
		case <-s.closing:
			return endClosed
		case <-s.crashed:
			return endCrashed
		}
	}
}

// keepAliveEvery is Options.KeepAlive with its default (0: none).
func (s *Server) keepAliveEvery() time.Duration {
	switch {
	case s.opts.KeepAlive < 0:
		return 0
	case s.opts.KeepAlive == 0:
		return defaultKeepAlive
	}
	return s.opts.KeepAlive
}

// parseListen reads subscriptions/listen's notifications: an object is
// required (the explicit opt-in of each type).
func parseListen(raw json.RawMessage) (protocol.NotificationSubscriptions, *protocol.Error) {
	var ns protocol.NotificationSubscriptions
	if len(raw) == 0 || string(raw) == "null" {
		return ns, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: subscriptions/listen needs notifications {resourceSubscriptions, ...}", nil)
	}
	if err := json.Unmarshal(raw, &ns); err != nil {
		return ns, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: notifications: "+err.Error(), nil)
	}
	return ns, nil
}

// listenLimit is the error past Options.MaxListeners, worded as the
// TypeScript SDK words it (protocol.SubscriptionLimitMessage).
func listenLimit() *protocol.Error {
	return protocol.NewError(protocol.CodeInternal, protocol.SubscriptionLimitMessage, nil)
}

// listen is an open subscriptions/listen: its subscriber, registered with
// the hub, and the first messages of its stream.
type listen struct {
	sub      *subscriber
	first    [][]byte // the ack, and what a fault puts around it
	anything bool     // something was honoured (or a fault keeps the stream): the stream stays open
}

// openListen registers a listen request's subscriber for the sim: URIs it
// asks for (the subset honoured: a URI that is not a sim: URI never
// changes; list_changed of any kind is never honoured, the listings being
// fixed) and builds its first messages. The caller has counted it with
// hub.openListen and must end it with hub.closeListen.
func (s *Server) openListen(c *call, ns protocol.NotificationSubscriptions) *listen {
	sub := newSubscriber(true, c.id)
	sub.fault = s.opts.SubscriptionFault
	var honoured protocol.NotificationSubscriptions
	for _, uri := range ns.ResourceSubscriptions {
		spec, err := s.specs.parse(uri)
		if err != nil {
			continue
		}
		if _, dup := sub.uris[uri]; dup {
			continue
		}
		fault := WireNone
		if spec.Wire.subscription() {
			fault = spec.Wire
			if sub.fault == WireNone {
				sub.fault = fault
			}
		}
		s.hub.add(sub, uri, fault)
		honoured.ResourceSubscriptions = append(honoured.ResourceSubscriptions, uri)
	}
	l := &listen{sub: sub, anything: len(honoured.ResourceSubscriptions) > 0 || sub.fault != WireNone}
	switch sub.fault {
	case WireNoAck:
	case WireNotifyBeforeAck:
		if len(honoured.ResourceSubscriptions) > 0 {
			early := note{uri: honoured.ResourceSubscriptions[0], ch: change{at: time.Now()}, fault: WireNone}
			l.first = append(l.first, (&subscriber{modern: true, id: sub.id}).render(early)...)
		}
		l.first = append(l.first, sub.ack(honoured))
	default:
		l.first = append(l.first, sub.ack(honoured))
	}
	return l
}

// ackDelay waits Options.AckPerListener for every listen stream open
// before a listen is acknowledged; false when ctx ended first.
func (s *Server) ackDelay(ctx context.Context) bool {
	if s.opts.AckPerListener <= 0 {
		return true
	}
	return s.sleep(ctx, time.Duration(s.hub.openListens())*s.opts.AckPerListener)
}

// ended is the empty result that ends a listen gracefully (the server
// shutting down), or when nothing it asked for is honoured.
func (s *Server) listenEnded(c *call) []byte {
	return protocol.AppendResult(nil, c.id, s.modernResult([]byte("{}"), protocol.ResultComplete))
}

// serveListenHTTP serves a 2026-07-28 subscriptions/listen over Streamable
// HTTP: its POST's response is the SSE stream, held open until the client
// closes it, the server closes, or Options.DropStreamsAfter. Past
// Options.MaxListeners it is refused with -32603 inside an HTTP 200.
func (s *Server) serveListenHTTP(w http.ResponseWriter, r *http.Request, c *call) {
	ns, perr := parseListen(c.p.Notifications)
	if perr != nil {
		writeJSONError(w, statusFor(perr.Code, true), c.id, perr)
		return
	}
	if !s.hub.openListen(s.opts.MaxListeners) {
		writeJSONError(w, http.StatusOK, c.id, listenLimit())
		return
	}
	l := s.openListen(c, ns)
	defer s.hub.closeListen(l.sub)
	if !s.ackDelay(r.Context()) {
		return
	}
	out := newSSESink(w)
	for _, m := range l.first {
		if !out.send(m) {
			return
		}
	}
	if !l.anything {
		_ = out.send(s.listenEnded(c)) && out.flush()
		return
	}
	if !out.flush() {
		return
	}
	switch s.pump(r.Context(), l.sub, out, s.keepAliveEvery(), s.opts.DropStreamsAfter) {
	case endClosed:
		_ = out.send(s.listenEnded(c)) && out.flush()
	case endCrashed:
		panic(http.ErrAbortHandler)
	}
	// endDropped: the stream ends without a result, as a connection a
	// proxy cut would; endGone: the client left.
}

// startListen serves a 2026-07-28 subscriptions/listen on a stdio
// connection, in a goroutine of the connection's, cancellable by
// notifications/cancelled {requestId} like any request (then nothing more
// is written for it).
func (c *stdioConn) startListen(ctx context.Context, cl *call) {
	c.startFunc(ctx, cl, true, func(rctx context.Context) {
		ns, perr := parseListen(cl.p.Notifications)
		if perr != nil {
			c.write(c.s.fail(cl.id, perr).parts)
			return
		}
		s := c.s
		if !s.hub.openListen(s.opts.MaxListeners) {
			c.write(s.fail(cl.id, listenLimit()).parts)
			return
		}
		l := s.openListen(cl, ns)
		defer s.hub.closeListen(l.sub)
		if !s.ackDelay(rctx) {
			return
		}
		pctx := rctx
		if l.sub.fault == WireIgnoreUnsubscribe {
			pctx = ctx // notifications/cancelled is ignored: only the connection's end stops it
		}
		out := stdioSink{c, pctx}
		for _, m := range l.first {
			if !out.send(m) {
				return
			}
		}
		if !l.anything {
			out.send(s.listenEnded(cl))
			return
		}
		if s.pump(pctx, l.sub, out, 0, 0) == endClosed {
			out.send(s.listenEnded(cl))
		}
	})
}

// errNoSession words why a legacy subscribe over stateless HTTP fails.
var errNoSession = errors.New("resources/subscribe needs a session, and this server is stateless: " +
	"readbench serve --stateful issues sessions (notifications then come on GET /mcp), " +
	"or listen with subscriptions/listen (2026-07-28)")
