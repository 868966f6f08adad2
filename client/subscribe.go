package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/protocol"
)

// The freshness loop's client side: one session asks to be told when
// documents change (Subscribe), and hears of each change (a Notification
// handed to the caller's function) until the subscription ends. The era
// decides how (protocol/subscriptions.go): 2026-07-28 opens one
// subscriptions/listen stream (listen.go); the handshake era subscribes to
// each uri with resources/subscribe and hears on the session's standalone
// stream (legacy.go). Either way the caller sees one Subscription, acked
// or refused, and one way it ended.

// SubscribeSpec is what a subscription asks to hear of.
type SubscribeSpec struct {
	// URIs are the documents whose changes are wanted
	// (notifications/resources/updated).
	URIs []string
	// ListChanged asks for notifications/resources/list_changed too.
	ListChanged bool
	// OnEnd, when set, is called once when the subscription ends, with how
	// (Close's EndClosed included), on the goroutine that ended it: so a
	// caller can listen again after a drop without a goroutine per
	// subscription waiting on Done. It must not block nor call Close.
	OnEnd func(Ending)
}

// ErrSubscriptionsUnsupported is a server that does not offer what a
// subscription asks for: it did not declare capabilities.resources.subscribe
// (or listChanged, for a subscription to list changes alone), or answered
// the subscribe or listen request with method-not-found. A run reports
// it as not applicable ("n/a"), never as the server failing.
var ErrSubscriptionsUnsupported = errors.New("the server does not offer resource subscriptions")

// RefusedError is a server that refused a subscription: an HTTP error
// status, or a JSON-RPC error answer (which the TypeScript SDK sends inside
// an HTTP 200 when past its limit of listen streams: LimitReached). It
// unwraps to the *protocol.Error or *StatusError it was.
type RefusedError struct {
	Method string
	Status int             // the HTTP status (0 on stdio)
	RPC    *protocol.Error // the JSON-RPC error, when the answer was one
	// LimitReached: the error was protocol.SubscriptionLimitMessage, a
	// server past its limit of subscriptions: a capacity finding, not a bug.
	LimitReached bool
	Err          error
}

func (e *RefusedError) Error() string {
	what := fmt.Sprintf("%s refused", e.Method)
	if e.LimitReached {
		what += " (subscription limit reached)"
	}
	if e.Status != 0 {
		what += fmt.Sprintf(" with HTTP %d", e.Status)
	}
	return what + ": " + e.Err.Error()
}

func (e *RefusedError) Unwrap() error { return e.Err }

// subRefusal makes the RefusedError of an error answer to method.
func subRefusal(method string, status int, rpc *protocol.Error) error {
	if rpc.Code == protocol.CodeMethodNotFound {
		return fmt.Errorf("%s: %w (%w)", method, ErrSubscriptionsUnsupported, rpc)
	}
	return &RefusedError{Method: method, Status: status, RPC: rpc, Err: rpc,
		LimitReached: rpc.Code == protocol.CodeInternal && rpc.Message == protocol.SubscriptionLimitMessage}
}

// EndReason says why a subscription ended.
type EndReason uint8

const (
	// EndNone: it has not ended.
	EndNone EndReason = iota
	// EndClosed: the caller closed it (Subscription.Close, Session.Close).
	EndClosed
	// EndServer: the server ended it gracefully (2026-07-28: it answered
	// the listen request with a result).
	EndServer
	// EndRefused: the server answered the listen request with an error
	// after acknowledging it.
	EndRefused
	// EndDropped: its stream ended without an answer: the connection
	// closed (a proxy's idle timeout, a server that went away), a stdio
	// server exited, or a legacy standalone stream could not be resumed.
	EndDropped
)

var endNames = [...]string{"open", "closed", "server", "refused", "dropped"}

func (r EndReason) String() string {
	if int(r) < len(endNames) {
		return endNames[r]
	}
	return fmt.Sprintf("EndReason(%d)", r)
}

// Ending is how and when a subscription ended; Reason EndNone while it runs.
type Ending struct {
	Reason EndReason
	At     time.Time
	Err    error // what ended it (nil for EndClosed and EndServer)
}

// Subscription is one subscription of a session: a 2026-07-28 listen
// stream, or the legacy subscriptions of a set of uris. Its function is
// called for every notification it takes, on the goroutine that read the
// notification (the transport's reader), in arrival order; it must be
// cheap and must not block: a slow function holds back every message
// behind it on that stream (on stdio and HTTP+SSE, the session's reads'
// answers too), which is back-pressure made visible, not hidden by a
// queue. It must not call Close.
type Subscription struct {
	s      *Session
	spec   SubscribeSpec
	on     func(Notification)
	modern bool
	id     int64 // the listen request's id (2026-07-28); 0 legacy

	ackCh   chan struct{} // closed when acknowledged
	ackOnce sync.Once
	mu      sync.Mutex
	acked   protocol.NotificationSubscriptions
	isAcked bool
	sent    time.Time // the (first) subscribe or listen request's send
	ackAt   time.Time
	pending map[string]int64 // legacy on a shared stream: uri -> id of its resources/subscribe while unanswered (nil over Streamable HTTP)

	closing atomic.Bool // Close called: nothing more is delivered
	done    chan struct{}
	endOnce sync.Once
	ending  Ending

	stop context.CancelFunc // ends the stream's goroutine (nil: none)
	wg   sync.WaitGroup     // the stream's goroutine

	delivered, flagged atomic.Int64
	keepAlives         atomic.Int64 // comment lines on its own stream (2026-07-28 over HTTP)
}

// Subscribe opens a subscription and returns once the server acknowledged
// it: 2026-07-28, a subscriptions/listen stream whose first message was
// notifications/subscriptions/acknowledged; legacy, a resources/subscribe
// answered for every uri, the session's standalone stream open first so
// that no notification can be missed (Streamable HTTP: a GET stream with
// resumption; HTTP+SSE and stdio: the stream the session already reads).
// on is called for every notification (see Subscription); ctx bounds only
// the wait for the acknowledgement.
//
// A server that lacks the capability fails with ErrSubscriptionsUnsupported;
// one that refuses, with a *RefusedError; a stream that ends before its
// acknowledgement, with an ErrTransport error.
func (s *Session) Subscribe(ctx context.Context, spec SubscribeSpec, on func(Notification)) (*Subscription, error) {
	if on == nil {
		on = func(Notification) {}
	}
	if len(spec.URIs) == 0 && !spec.ListChanged {
		return nil, errors.New("subscribe: nothing asked (no uri, no list changes)")
	}
	if err := s.canSubscribe(spec); err != nil {
		return nil, err
	}
	sub := &Subscription{s: s, spec: spec, on: on, modern: s.modern, ackCh: make(chan struct{}), done: make(chan struct{})}
	sub.spec.URIs = slices.Clone(spec.URIs)
	open := s.subscribeLegacy
	if s.modern {
		open = s.listen
	}
	if err := open(ctx, sub); err != nil {
		return nil, err
	}
	return sub, nil
}

// canSubscribe checks the capabilities the handshake declared: a server
// that declared none of what spec asks is not applicable, and is not asked.
func (s *Session) canSubscribe(spec SubscribeSpec) error {
	c := s.caps
	if len(spec.URIs) > 0 && !c.Subscribe {
		return fmt.Errorf("%w: its capabilities do not declare resources.subscribe", ErrSubscriptionsUnsupported)
	}
	if len(spec.URIs) == 0 && spec.ListChanged && !c.ListChanged {
		return fmt.Errorf("%w: its capabilities do not declare resources.listChanged", ErrSubscriptionsUnsupported)
	}
	return nil
}

// Acked is what the server agreed to honour: 2026-07-28, the
// acknowledgement's notifications (a subset of what was asked); legacy,
// the uris whose resources/subscribe succeeded, and list changes when
// asked and declared.
func (sub *Subscription) Acked() protocol.NotificationSubscriptions {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	a := sub.acked
	a.ResourceSubscriptions = slices.Clone(a.ResourceSubscriptions)
	return a
}

// AckTimes are when the subscribe (or listen) request went out and when
// its acknowledgement arrived (legacy: the last uri's answer), on the
// reader that parsed it: the acknowledgement latency is ack - sent.
func (sub *Subscription) AckTimes() (sent, ack time.Time) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.sent, sub.ackAt
}

// ID is the subscription id its notifications must carry (2026-07-28: the
// listen request's JSON-RPC id); 0 in the legacy era, which has none.
func (sub *Subscription) ID() int64 { return sub.id }

// Done is closed when the subscription has ended (End says how).
func (sub *Subscription) Done() <-chan struct{} { return sub.done }

// End is how the subscription ended; Reason EndNone while it runs.
func (sub *Subscription) End() Ending {
	select {
	case <-sub.done:
		return sub.ending
	default:
		return Ending{}
	}
}

// Counts are the notifications delivered so far, and of those the ones
// that carried a flag.
func (sub *Subscription) Counts() (delivered, flagged int64) {
	return sub.delivered.Load(), sub.flagged.Load()
}

// KeepAlives are the SSE comment lines (a server's keep-alives) its own
// stream carried: a 2026-07-28 listen stream over Streamable HTTP; 0 for
// a legacy subscription, whose stream is the session's
// (Session.StreamLife).
func (sub *Subscription) KeepAlives() int64 { return sub.keepAlives.Load() }

// end records how the subscription ended, once; Close's reason wins over
// what its own closing causes (a stream cut, a cancelled request).
func (sub *Subscription) end(r EndReason, err error) {
	sub.endOnce.Do(func() {
		if sub.closing.Load() {
			r, err = EndClosed, nil
		}
		sub.ending = Ending{Reason: r, At: time.Now(), Err: err}
		close(sub.done)
		if sub.spec.OnEnd != nil {
			sub.spec.OnEnd(sub.ending)
		}
	})
}

// ack records the acknowledgement (at: when it was parsed) and releases
// Subscribe.
func (sub *Subscription) ack(acked protocol.NotificationSubscriptions, at time.Time) {
	sub.mu.Lock()
	if !sub.isAcked {
		sub.isAcked, sub.acked, sub.ackAt = true, acked, at
	}
	sub.mu.Unlock()
	sub.ackOnce.Do(func() { close(sub.ackCh) })
}

// isAckedNow reports whether the acknowledgement has come.
func (sub *Subscription) isAckedNow() bool {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.isAcked
}

// deliver hands n to the caller's function, unless the subscription is
// being closed (then the notification is the session's unrouted count).
func (sub *Subscription) deliver(n Notification) bool {
	if sub.closing.Load() {
		return false
	}
	sub.delivered.Add(1)
	if n.Flags != 0 {
		sub.flagged.Add(1)
	}
	sub.on(n)
	return true
}

// waitAck waits for the acknowledgement, the subscription's end or ctx.
func (sub *Subscription) waitAck(ctx context.Context) error {
	select {
	case <-sub.ackCh:
		return nil
	case <-sub.done:
		select {
		case <-sub.ackCh:
			return nil // acknowledged, then ended at once: Subscribe still succeeds
		default:
		}
		if e := sub.ending; e.Err != nil {
			return e.Err
		}
		return fmt.Errorf("%w: the subscription ended (%s) before it was acknowledged", ErrTransport, sub.ending.Reason)
	case <-ctx.Done():
		return fmt.Errorf("waiting for the subscription's acknowledgement: %w", ctx.Err())
	}
}

// Close ends the subscription as its era says: 2026-07-28, the listen
// stream is closed (Streamable HTTP) or its request cancelled with
// notifications/cancelled (stdio), written to the server's stdin before
// Close returns, so that nothing sent after Close overtakes it; legacy,
// each uri is unsubscribed. No
// notification is delivered once Close has begun; those that still come
// are counted by the session (Session.Unrouted). It returns the first
// unsubscribe error; the subscription has ended either way.
func (sub *Subscription) Close(ctx context.Context) error {
	if !sub.closing.CompareAndSwap(false, true) {
		<-sub.done
		return nil
	}
	var err error
	if sub.modern {
		sub.stopStream()
	} else {
		err = sub.s.unsubscribeLegacy(ctx, sub)
	}
	sub.s.notes().remove(sub)
	sub.end(EndClosed, nil)
	return err
}

// stopStream ends the subscription's stream goroutine and waits for it.
func (sub *Subscription) stopStream() {
	if sub.stop != nil {
		sub.stop()
	}
	sub.wg.Wait()
}

// routeID is what a notification's raw subscriptionId says of sub: absent,
// its own, or another's.
func (sub *Subscription) routeFlags(raw json.RawMessage) Flags {
	switch {
	case raw == nil:
		return NoSubscriptionID
	case !sameID(raw, sub.id):
		return WrongSubscriptionID
	}
	return 0
}
