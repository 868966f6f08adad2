package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/readbench/readbench/protocol"
)

// The handshake era: resources/subscribe per uri, answered at once (the
// acknowledgement), and notifications/resources/updated {uri} on the
// session's standalone stream: the stdio server's stdout, the HTTP+SSE
// stream, or over Streamable HTTP a GET stream opened for them
// (standalone.go). The stream is made ready before the first subscribe,
// so that a notification sent right after its answer has somewhere to go.

// subscribeLegacy subscribes sub's uris one after the other and
// acknowledges sub when the last is answered.
func (s *Session) subscribeLegacy(ctx context.Context, sub *Subscription) error {
	n := s.notes()
	for _, u := range sub.spec.URIs {
		if n.holder(u) != nil {
			return fmt.Errorf("resources/subscribe %s: another subscription of this session holds it (the protocol has one subscription per uri and session: unsubscribing one would end both)", u)
		}
	}
	if t, ok := s.t.(*httpTransport); ok {
		if err := n.ensureStandalone(ctx, t); err != nil {
			return err
		}
	}
	if n.shared {
		// Only a shared stream's reader asks whether a subscribe is still
		// unanswered (BeforeAck): over Streamable HTTP a session keeps no
		// map for it (thousands of listener sessions in one run).
		sub.pending = make(map[string]int64, len(sub.spec.URIs))
	}
	n.addLegacy(sub)
	acked := protocol.NotificationSubscriptions{ResourcesListChanged: sub.spec.ListChanged && s.caps.ListChanged}
	sub.mu.Lock()
	sub.sent = time.Now()
	sub.mu.Unlock()
	ackAt := time.Now()
	for _, u := range sub.spec.URIs {
		at, err := s.subscribeURI(ctx, sub, u)
		if err != nil {
			sub.closing.Store(true)
			sub.mu.Lock()
			sub.acked = acked // what to undo
			sub.mu.Unlock()
			uerr := s.unsubscribeLegacy(context.WithoutCancel(ctx), sub)
			n.remove(sub)
			sub.end(EndClosed, nil)
			if uerr != nil {
				return fmt.Errorf("%w (and undoing the uris subscribed before it: %w)", err, uerr)
			}
			return err
		}
		acked.ResourceSubscriptions = append(acked.ResourceSubscriptions, u)
		ackAt = at
	}
	sub.ack(acked, ackAt)
	return nil
}

// subscribeURI sends resources/subscribe for uri and returns when its
// answer was whole (on the reader that parsed it).
func (s *Session) subscribeURI(ctx context.Context, sub *Subscription, uri string) (time.Time, error) {
	req, err := s.NewRequest(protocol.MethodSubscribe, "", map[string]any{"uri": uri})
	if err != nil {
		return time.Time{}, err
	}
	sub.mu.Lock()
	if sub.pending != nil {
		sub.pending[uri] = req.ID
	}
	sub.mu.Unlock()
	resp, err := s.Do(ctx, req)
	sub.mu.Lock()
	delete(sub.pending, uri)
	sub.mu.Unlock()
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %s: %w", protocol.MethodSubscribe, uri, err)
	}
	m, err := protocol.Decode(resp.Body)
	switch {
	case err != nil:
		return time.Time{}, protocolErr("%s %s: the answer is not JSON-RPC: %v", protocol.MethodSubscribe, uri, err)
	case m.Error != nil:
		return time.Time{}, subRefusal(protocol.MethodSubscribe+" "+uri, resp.Status, m.Error)
	}
	if resp.Done.IsZero() {
		return time.Now(), nil
	}
	return resp.Done, nil
}

// unsubscribeLegacy sends resources/unsubscribe for every uri sub holds,
// and returns the first error (every uri is tried).
func (s *Session) unsubscribeLegacy(ctx context.Context, sub *Subscription) error {
	var first error
	for _, u := range sub.Acked().ResourceSubscriptions {
		req, err := s.NewRequest(protocol.MethodUnsubscribe, "", map[string]any{"uri": u})
		if err == nil {
			var resp *Response
			if resp, err = s.Do(ctx, req); err == nil {
				if m, derr := protocol.Decode(resp.Body); derr != nil {
					err = derr
				} else if m.Error != nil {
					err = m.Error
				}
			}
		}
		if err != nil && first == nil {
			first = fmt.Errorf("%s %s: %w", protocol.MethodUnsubscribe, u, err)
		}
	}
	return first
}

// dropLegacy ends every legacy subscription with err: their stream is
// gone and cannot be resumed.
func (n *notices) dropLegacy(err error) {
	n.mu.Lock()
	subs := n.legacy
	n.legacy = nil
	n.mu.Unlock()
	for _, sub := range subs {
		sub.end(EndDropped, err)
	}
}

// errNoStandalone is a Streamable HTTP server that accepts subscriptions
// but offers no standalone GET stream to carry their notifications.
var errNoStandalone = errors.New("the server offers no standalone GET stream (HTTP 405), so its resource notifications cannot reach a client")
