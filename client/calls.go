package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/internal/bounded"
	"github.com/readbench/readbench/protocol"
)

// calls matches answers arriving on a stream shared by many requests (a
// stdio child's stdout, the HTTP+SSE GET stream) to the requests waiting
// for them, by id. A request given up on leaves a tombstone, so an answer
// that comes anyway is counted as late (and judged: did it cross the
// cancel on the wire, or ignore it?) instead of being dropped unseen. Both transports that
// share a stream use it, so they match, cancel and count alike.
type calls struct {
	late  LateFunc                // nil: late answers are not counted
	stray *strayLines             // told of answers that match no request in flight (nil: not told)
	notes atomic.Pointer[notices] // the session's subscriptions, once it has any: notifications are kept and routed to them

	mu       sync.Mutex
	pending  map[int64]pendingCall
	maxID    int64                    // the largest id sent: an answer to one at most it that is not pending was answered already
	nonReads int                      // pending calls that are not reads: their answers are kept whole
	wide     int                      // of those, calls whose answer may be kept up to the answer limit (keptLimit)
	digests  int                      // pending reads that asked for a digest
	tombs    bounded.Map[int64, tomb] // cancelled ids

	fastest   atomic.Int64              // ns from send to first byte of the fastest answer: the round trip (0: none yet)
	answers   atomic.Int64              // answers given to callers: the first (the connection's start in it) is no round trip
	probes    bounded.Map[int64, probe] // ping id -> the cancelled id it follows (see probeAfter)
	probeRTTs rttWindow                 // recent probes' round trips, under mu (see fallbackAllowance)
	probeN    int64                     // probes sent: their ids are -1, -2, ...
}

// pendingCall is a request waiting for its answer: read says how to
// classify it as it streams in (nil: not a read, its answer is kept whole).
type pendingCall struct {
	ch     chan *Response
	read   *readSpec
	method string // what was asked: a request of that method and id coming back is our own, echoed
	sent   time.Time
}

// tomb is what is remembered of a request given up on: when, since when
// its cancel is on the server's side (zero: not yet, or never sent), and
// who counts its answer should it come anyway.
type tomb struct {
	at        time.Time
	onServer  time.Time
	probed    bool          // a ping followed the cancel (see probeAfter)
	probeBack time.Time     // when its answer started (zero: not yet)
	probeRTT  time.Duration // its round trip, send to first byte: the allowance of this answer
	late      LateFunc
}

type lateKey struct{}

// WithLate returns a context whose requests, if given up on, report an
// answer that comes anyway to late instead of the session's LateFunc: a
// load run charges each late answer to the phase of the read it answers.
func WithLate(ctx context.Context, late LateFunc) context.Context {
	return context.WithValue(ctx, lateKey{}, late)
}

// lateOf is the LateFunc for a request made with ctx.
func (c *calls) lateOf(ctx context.Context) LateFunc {
	if l, ok := ctx.Value(lateKey{}).(LateFunc); ok {
		return l
	}
	return c.late
}

func newCalls(late LateFunc) *calls {
	return &calls{late: late, pending: make(map[int64]pendingCall)}
}

// add registers a request about to be sent; its answer comes on the
// returned channel.
func (c *calls) add(id int64) chan *Response { return c.addCall(id, "", nil) }

// addCall registers a request of method about to be sent, with how to
// classify its answer when it is a read.
func (c *calls) addCall(id int64, method string, read *readSpec) chan *Response {
	ch := make(chan *Response, 1)
	c.mu.Lock()
	c.pending[id] = pendingCall{ch: ch, read: read, method: method, sent: time.Now()}
	c.maxID = max(c.maxID, id)
	c.count(method, read, 1)
	c.mu.Unlock()
	return ch
}

// count adds d to the counters a pending call of method is in.
func (c *calls) count(method string, read *readSpec, d int) {
	switch {
	case read == nil:
		c.nonReads += d
		if method == protocol.MethodToolsCall {
			c.wide += d
		}
	case read.digest:
		c.digests += d
	}
}

// takeLocked removes a pending call (c.mu held).
func (c *calls) takeLocked(id int64) (pendingCall, bool) {
	p, ok := c.pending[id]
	if ok {
		delete(c.pending, id)
		c.count(p.method, p.read, -1)
	}
	return p, ok
}

// peek says whether id is pending and, if so, how its answer is read.
func (c *calls) peek(id int64) (read *readSpec, pending bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[id]
	return p.read, ok
}

// wants says whether any pending call is not a read (its answer must be
// kept whole) and whether any read wants a digest: what a message whose
// id is not known yet must be read for.
//
// wide says that a pending request that is not a read may have an answer
// up to the answer limit kept (the read tool's parts, keptLimit): the
// message may be kept that far.
func (c *calls) wants() (keep, wide, digest bool) {
	listening := c.notes.Load() != nil // a notification is kept whole, to be routed (notices.go)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nonReads > 0 || listening, c.wide > 0, c.digests > 0
}

// sole returns the one request a message whose id is not known yet can
// answer: the only request pending, when no request given up on could
// still be answered (no tombstone).
func (c *calls) sole() (id int64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) != 1 || c.tombs.Len() > 0 {
		return 0, false
	}
	for id := range c.pending {
		return id, true
	}
	return 0, false
}

// forget drops a pending request and reports whether it was still
// pending (false: its answer is already on its channel).
func (c *calls) forget(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.takeLocked(id)
	return ok
}

// wait waits for the answer to id. When the stream ends first (failed
// closed) it returns dead(); when ctx ends first, id is abandoned — a
// tombstone remembers it — and cancelled is true: the caller tells the
// server. An answer that raced either end in is returned after all.
func (c *calls) wait(ctx context.Context, id int64, ch chan *Response, failed <-chan struct{}, dead func() error) (a *Response, cancelled bool, err error) {
	select {
	case a := <-ch:
		return a, false, nil
	case <-failed:
		if !c.forget(id) {
			return <-ch, false, nil
		}
		return nil, false, dead()
	case <-ctx.Done():
	}
	c.mu.Lock()
	_, stillPending := c.takeLocked(id)
	if stillPending {
		c.tombs.Put(id, tomb{at: time.Now(), late: c.lateOf(ctx)})
	}
	c.mu.Unlock()
	if !stillPending {
		return <-ch, false, nil
	}
	return nil, true, ctx.Err()
}

// await waits for the answer to req (see wait), sent at sent. A request
// given up on is cancelled with notifications/cancelled, handed to send
// (which must not block the caller: the transport sends it in the
// background, and calls the notification's OnAccepted hook once it is on
// the server's side), except initialize, which is never cancelled.
func (c *calls) await(ctx context.Context, req Request, ch chan *Response, sent time.Time, failed <-chan struct{}, dead func() error, send func(Request)) (*Response, error) {
	a, cancelled, err := c.wait(ctx, req.ID, ch, failed, dead)
	if cancelled {
		c.sendCancel(ctx, req, send)
	}
	if err != nil {
		return nil, err
	}
	if a.err != nil {
		return nil, a.err
	}
	a.Sent = sent
	return a, nil
}

// sendCancel hands send the notifications/cancelled of req, abandoned
// with ctx; its arrival on the server's side is noted on req's tomb.
// initialize is never cancelled.
func (c *calls) sendCancel(ctx context.Context, req Request, send func(Request)) {
	if req.method == protocol.MethodInitialize {
		return
	}
	n, err := cancelNotification(req.ID, cancelReason(ctx))
	if err != nil {
		return
	}
	id := req.ID
	send(n.OnAccepted(func(at time.Time) {
		c.cancelOnServer(id, at)
		if p, ok := c.probeAfter(id); ok {
			send(p)
		}
	}))
}

// route handles one message from the stream: an answer goes to its caller
// (or to the late counter when its request was given up on); a request
// from the server gets the reply route returns for the transport to send;
// notifications (logging, progress) are not answers and are dropped.
// wire is the bytes the message took on the wire, framing included;
// answer builds the Response only when a caller is waiting, so a transport
// that must copy the message pays for it only then, never for a late one.
func (c *calls) route(msg []byte, wire int64, now time.Time, answer func() *Response) (reply []byte) {
	id, method := routing(msg)
	return c.routeID(id, method, wire, now, now, func(*readSpec) *Response { return answer() })
}

// routeID is route for a message already scanned: its raw id (nil when
// none) and method ("" for a response), whose first byte came at first
// and whole at now. answer is given how the request reads its answer.
func (c *calls) routeID(id []byte, method string, wire int64, first, now time.Time, answer func(read *readSpec) *Response) (reply []byte) {
	if method != "" {
		if id == nil {
			return nil
		}
		if c.echoed(id, method) {
			return nil // answering our own request would only be echoed again
		}
		return replyToServer(id, method)
	}
	n, ok := protocol.ParseIntID(id)
	if !ok {
		if id != nil {
			c.unmatched(id, false) // not an answer to anything we sent: a string id, null
		}
		return nil
	}
	if n < 0 {
		if sent, back := c.probeBack(n, first); !back {
			c.unmatched(id, sent)
		}
		return nil
	}
	c.mu.Lock()
	p, waiting := c.takeLocked(n)
	tb, isLate := c.tombs.Take(n)
	answeredBefore := !waiting && !isLate && n > 0 && n <= c.maxID
	c.mu.Unlock()
	switch {
	case waiting:
		a := answer(p.read)
		if c.answers.Add(1) > 1 && a.err == nil {
			at := a.FirstByte
			if at.IsZero() {
				at = now
			}
			c.sawRoundTrip(p.sent, at)
		}
		p.ch <- a
	case isLate:
		if tb.late != nil {
			tb.late(c.judge(tb, wire, first, now))
		}
	default:
		c.unmatched(id, answeredBefore)
	}
	return nil
}

// unmatched says an answer whose id matches no request in flight: a
// second answer (dup: its id was sent and answered, or given up on and its
// late answer counted, already) or an answer to an id never sent. Skipped
// either way, it is counted and quoted where the transport tells what the
// server sent that breaks it (strayLines), never dropped in silence.
func (c *calls) unmatched(id []byte, dup bool) {
	if c.stray != nil {
		c.stray.unmatched(id, dup)
	}
}

// echoed reports whether a request from the stream is one of ours come
// back (same id, same method: a program such as cat that echoes its
// input), and if so fails the waiting call with an echoError. A server's own
// request (sampling, roots) has its own method, so it is never taken for
// one of ours.
func (c *calls) echoed(id []byte, method string) bool {
	n, ok := protocol.ParseIntID(id)
	if !ok {
		return false
	}
	c.mu.Lock()
	p, mine := c.pending[n]
	if mine && p.method == method {
		c.takeLocked(n)
	}
	c.mu.Unlock()
	if !mine || p.method != method {
		return false
	}
	p.ch <- &Response{err: &echoError{method: method}}
	return true
}

// echoError is a target that sent readbench's own request back instead
// of answering it: not an MCP server (stdio:cat does this). It unwraps to
// ErrProtocol; the handshake stops at it rather than trying another era,
// which would be echoed too.
type echoError struct{ method string }

func (e *echoError) Error() string {
	return "the server echoed readbench's own " + e.method + " request back instead of answering it: is this an MCP server? (a program such as cat echoes its input; an MCP server answers with a result or an error)"
}

// Unwrap makes an echo a protocol violation for errors.Is.
func (e *echoError) Unwrap() error { return ErrProtocol }

// routing reads a message's id (raw) and method.
func routing(msg []byte) (id []byte, method string) {
	_ = protocol.ObjectFields(msg, func(k, v []byte) error {
		switch string(k) {
		case "id":
			id = v
		case "method":
			method = string(bytes.Trim(v, `"`))
		}
		return nil
	})
	return id, method
}

// replyToServer answers a request a server may send a client: ping gets
// an empty result, anything else method-not-found (readbench offers no
// client capabilities). The reply is a new buffer: id may be reused.
func replyToServer(id []byte, method string) []byte {
	if method == protocol.MethodPing {
		return protocol.AppendResult(nil, id, []byte("{}"))
	}
	return protocol.AppendError(nil, id, protocol.NewError(protocol.CodeMethodNotFound, "readbench offers no "+method, nil))
}

// cancelNotification encodes notifications/cancelled {requestId, reason}:
// the one way every transport and the contract check tell a server that a
// request is abandoned.
func cancelNotification(id int64, reason string) (Request, error) {
	body, err := protocol.AppendRequest(nil, nil, protocol.MethodCancelled, map[string]any{"requestId": id, "reason": reason})
	if err != nil {
		return Request{}, fmt.Errorf("encode %s: %w", protocol.MethodCancelled, err)
	}
	return Request{method: protocol.MethodCancelled, body: body}, nil
}

// cancelReason is the reason a cancellation gives: the cause the caller
// put on the context (a load run says "turn deadline" or "read timeout"),
// else "cancelled" or "timeout".
func cancelReason(ctx context.Context) string {
	switch cause := context.Cause(ctx); {
	case cause == nil || errors.Is(cause, context.Canceled):
		return "cancelled"
	case errors.Is(cause, context.DeadlineExceeded):
		return "timeout"
	default:
		return cause.Error()
	}
}
