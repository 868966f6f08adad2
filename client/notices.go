package client

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/protocol"
)

// notices routes the notifications that arrive on a stream the session
// shares among its subscriptions — a stdio server's stdout, the HTTP+SSE
// stream, the legacy standalone GET stream (standalone.go) — to the
// subscription each is for: 2026-07-28 by its subscriptionId, legacy by
// its uri. Whatever no open subscription can take is counted (Unrouted),
// never dropped unseen. One per session, made by its first Subscribe.
type notices struct {
	calls  *calls // the shared stream's requests (nil over Streamable HTTP): was a subscribe answered yet?
	shared bool   // answers and notifications come on one ordered stream: BeforeAck can be judged

	mu      sync.Mutex
	listens []*Subscription // 2026-07-28 listens on a shared stream (stdio)
	legacy  []*Subscription // open legacy subscriptions, oldest first
	stream  *standalone     // the legacy standalone GET stream (Streamable HTTP), once opened

	noSub, notAsked, unreadable atomic.Int64
}

// Unrouted counts what the session received for subscriptions that no
// open subscription took, so that nothing passes unseen.
type Unrouted struct {
	// NoSubscription: a subscription notification for no open
	// subscription of the session: after its Close, for an unknown
	// subscriptionId among several listens, an updated uri when no legacy
	// subscription is open. A server that keeps sending after an
	// unsubscribe shows here.
	NoSubscription int64
	// NotAsked: legacy notifications/resources/list_changed with no
	// subscription asking for list changes (a legacy server sends them to
	// every session, which the protocol allows).
	NotAsked int64
	// Unreadable: a message on a shared stream with a method and no id
	// that passed the bound of a kept message, or did not read.
	Unreadable int64
	// Resumptions: times the legacy standalone GET stream ended and was
	// opened again (with Last-Event-ID when the server gave event ids).
	Resumptions int64
}

// Unrouted is what the session's subscriptions did not take (see
// Unrouted); zero before its first Subscribe.
func (s *Session) Unrouted() Unrouted {
	s.subsMu.Lock()
	n := s.subs
	s.subsMu.Unlock()
	if n == nil {
		return Unrouted{}
	}
	u := Unrouted{NoSubscription: n.noSub.Load(), NotAsked: n.notAsked.Load(), Unreadable: n.unreadable.Load()}
	n.mu.Lock()
	if n.stream != nil {
		u.Resumptions = n.stream.resumes.Load()
	}
	n.mu.Unlock()
	return u
}

// notes is the session's notices, made at its first use: from then on the
// shared stream's reader hands it every notification (calls.notes).
func (s *Session) notes() *notices {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	if s.subs == nil {
		n := &notices{}
		switch t := s.t.(type) {
		case *stdioTransport:
			n.calls, n.shared = t.calls, true
		case *sseTransport:
			n.calls, n.shared = t.calls, true
		}
		s.subs = n
		if n.calls != nil {
			n.calls.notes.Store(n)
		}
	}
	return s.subs
}

func (n *notices) addListen(sub *Subscription) {
	n.mu.Lock()
	n.listens = append(n.listens, sub)
	n.mu.Unlock()
}

func (n *notices) addLegacy(sub *Subscription) {
	n.mu.Lock()
	n.legacy = append(n.legacy, sub)
	n.mu.Unlock()
}

// remove forgets sub: its notifications are unrouted from now on.
func (n *notices) remove(sub *Subscription) {
	n.mu.Lock()
	n.listens = slices.DeleteFunc(n.listens, func(s *Subscription) bool { return s == sub })
	n.legacy = slices.DeleteFunc(n.legacy, func(s *Subscription) bool { return s == sub })
	n.mu.Unlock()
}

// holder is the open legacy subscription holding uri (nil: none).
func (n *notices) holder(uri string) *Subscription {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, s := range n.legacy {
		if slices.Contains(s.spec.URIs, uri) {
			return s
		}
	}
	return nil
}

// fromStream takes a message with a method and no id that a shared
// stream's reader kept (kept false: it passed the bound of a kept message
// and its bytes are gone).
func (n *notices) fromStream(msg []byte, kept bool, at time.Time) {
	if !kept {
		n.unreadable.Add(1)
		return
	}
	n.arrived(msg, at)
}

// closeSubscriptions ends every subscription of the session without
// unsubscribing (the session is going), and its standalone stream.
func (s *Session) closeSubscriptions() {
	s.subsMu.Lock()
	n := s.subs
	s.subsMu.Unlock()
	if n == nil {
		return
	}
	n.mu.Lock()
	subs := append(slices.Clone(n.listens), n.legacy...)
	st := n.stream
	n.listens, n.legacy = nil, nil
	n.mu.Unlock()
	for _, sub := range subs {
		sub.closing.Store(true)
		sub.stopStream()
		sub.end(EndClosed, nil)
	}
	if st != nil {
		st.close()
	}
}

// arrived takes one message with a method and no id from a shared stream,
// parsed at at. msg is the reader's buffer: nothing of it is kept.
func (n *notices) arrived(msg []byte, at time.Time) {
	note, err := readNotice(msg)
	if err != nil {
		n.unreadable.Add(1)
		return
	}
	if !subscriptionMethod(note.method) && note.subID == nil {
		return // logging, progress: no subscription's business
	}
	// A message tagged with a subscriptionId is a listen's, whatever its
	// method: one not asked for is flagged UnaskedType there.
	sub, legacy := n.route(note)
	switch {
	case sub == nil && legacy:
		// counted by route (NotAsked)
	case sub == nil:
		n.noSub.Add(1)
	case !legacy:
		if !sub.takeListen(note, nil, at) {
			n.noSub.Add(1) // its Close has begun
		}
	case !n.takeLegacy(sub, note, at):
		n.noSub.Add(1)
	}
}

// route picks the subscription a notification is for: the listen its
// subscriptionId names (or the only listen, which then flags a missing or
// wrong id), else the legacy subscription holding its uri (else the
// oldest, which flags the uri), else none.
func (n *notices) route(note notice) (sub *Subscription, legacy bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, l := range n.listens {
		if note.subID != nil && sameID(note.subID, l.id) {
			return l, false
		}
	}
	if len(n.listens) == 1 && (note.subID != nil || len(n.legacy) == 0) {
		return n.listens[0], false
	}
	if len(n.legacy) == 0 {
		return nil, false
	}
	switch note.method {
	case protocol.NotifyResourceUpdated:
		for _, s := range n.legacy {
			if slices.Contains(s.spec.URIs, note.uri) {
				return s, true
			}
		}
	case protocol.NotifyResourcesListChanged:
		for _, s := range n.legacy {
			if s.spec.ListChanged {
				return s, true
			}
		}
		n.notAsked.Add(1)
		return nil, true
	}
	return n.legacy[0], true
}

// takeLegacy judges and delivers a handshake-era notification to sub;
// false when sub was closing (the caller counts it unrouted).
func (n *notices) takeLegacy(sub *Subscription, note notice, at time.Time) bool {
	out := Notification{Method: note.method, URI: note.uri, SubscriptionID: note.subID, At: at}
	switch note.method {
	case protocol.NotifyResourceUpdated:
		if !note.hasURI || !slices.Contains(sub.spec.URIs, note.uri) {
			out.Flags |= UnsubscribedURI
		} else if n.shared && n.unanswered(sub, note.uri) {
			out.Flags |= BeforeAck
		}
	case protocol.NotifyResourcesListChanged:
	default:
		out.Flags |= UnaskedType // an acknowledgement of the 2026-07-28 era, in a legacy session
	}
	return sub.deliver(out)
}

// unanswered reports whether uri's resources/subscribe has not been
// answered yet on the shared stream: its id is still pending there (the
// stream's reader routes the answer before it reads the next message, so
// this is exact, whatever the subscribing goroutine has done since).
func (n *notices) unanswered(sub *Subscription, uri string) bool {
	sub.mu.Lock()
	id, ok := sub.pending[uri]
	sub.mu.Unlock()
	if !ok {
		return false
	}
	_, pending := n.calls.peek(id)
	return pending
}
