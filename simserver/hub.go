package simserver

import (
	"slices"
	"sync"
	"sync/atomic"
)

// The hub knows who listens to what: every subscriber (a 2026-07-28
// subscriptions/listen stream, or a legacy session's resources/subscribe
// set) by the URIs it follows. A change hands a note to each subscriber of
// its URI; the subscriber's own pump (the goroutine that already serves its
// stream: net/http's handler goroutine for HTTP, the listen request's
// goroutine or the connection's notifier for stdio) renders and writes it.
// Nothing else runs per subscriber, so 10,000 idle listen streams cost
// 10,000 parked handler goroutines and their queues, no more.

// maxQueued bounds the notes waiting for a subscriber's pump: a listener
// that stops reading must not make the server hold every change for it.
// Past the bound notes are dropped and counted (Stats.Subscriptions).
const maxQueued = 1024

// note is one notifications/resources/updated waiting for a subscriber's
// pump.
type note struct {
	uri   string
	ch    change // the change it tells of
	fault Wire   // a subscription fault of the note's URI (wire=), or WireNone
}

// subscriber is one listener: what it follows, and its queue of notes.
type subscriber struct {
	modern bool   // 2026-07-28: notes carry _meta subscriptionId
	id     []byte // the listen request's raw id (modern), nil for legacy
	fault  Wire   // a fault of the whole stream (server-wide or a URI's), or WireNone

	// uris is what it follows, with the fault each URI's wire= asks;
	// guarded by hub.mu.
	uris map[string]Wire

	mu        sync.Mutex
	queue     []note
	closed    bool
	streaming bool          // a legacy session's GET stream is open (one at a time)
	ready     chan struct{} // capacity 1: a note is queued
	done      chan struct{} // closed when the hub removes it: its stream ends
}

func newSubscriber(modern bool, id []byte) *subscriber {
	return &subscriber{modern: modern, id: id, uris: map[string]Wire{}, ready: make(chan struct{}, 1), done: make(chan struct{})}
}

// push queues a note; it reports whether the note was queued, and full
// when it was not because the queue is full (rather than the subscriber
// closed).
func (sub *subscriber) push(n note) (queued, full bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed {
		return false, false
	}
	if len(sub.queue) >= maxQueued {
		return false, true
	}
	sub.queue = append(sub.queue, n)
	select {
	case sub.ready <- struct{}{}:
	default:
	}
	return true, false
}

// take empties the queue; the slice is the caller's.
func (sub *subscriber) take() []note {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	q := sub.queue
	sub.queue = nil
	return q
}

// hub is the server's registry of subscribers.
type hub struct {
	mu      sync.Mutex
	byURI   map[string]map[*subscriber]struct{}
	listens int // open 2026-07-28 listen streams, for Options.MaxListeners

	notified, dropped, refused atomic.Int64
}

func newHub() *hub { return &hub{byURI: map[string]map[*subscriber]struct{}{}} }

// openListen counts a new listen stream against limit (0: none); it
// reports false, counting nothing, when the limit is reached.
func (h *hub) openListen(limit int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if limit > 0 && h.listens >= limit {
		h.refused.Add(1)
		return false
	}
	h.listens++
	return true
}

// openListens is how many listen streams are open.
func (h *hub) openListens() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.listens
}

// closeListen ends what openListen counted and removes the subscriber.
func (h *hub) closeListen(sub *subscriber) {
	h.remove(sub)
	h.mu.Lock()
	h.listens--
	h.mu.Unlock()
}

// add makes sub follow uri (its wire= fault given).
func (h *hub) add(sub *subscriber, uri string, fault Wire) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sub.uris[uri] = fault
	set := h.byURI[uri]
	if set == nil {
		set = map[*subscriber]struct{}{}
		h.byURI[uri] = set
	}
	set[sub] = struct{}{}
}

// drop stops sub following uri; it reports whether it did.
func (h *hub) drop(sub *subscriber, uri string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := sub.uris[uri]; !ok {
		return false
	}
	delete(sub.uris, uri)
	h.unlink(sub, uri)
	return true
}

// unlink removes sub from uri's set (h.mu held).
func (h *hub) unlink(sub *subscriber, uri string) {
	if set := h.byURI[uri]; set != nil {
		delete(set, sub)
		if len(set) == 0 {
			delete(h.byURI, uri)
		}
	}
}

// remove stops sub following anything and closes it: later pushes fail.
func (h *hub) remove(sub *subscriber) {
	h.mu.Lock()
	for uri := range sub.uris {
		h.unlink(sub, uri)
	}
	clear(sub.uris)
	h.mu.Unlock()
	sub.mu.Lock()
	if !sub.closed {
		sub.closed = true
		close(sub.done)
	}
	sub.queue = nil
	sub.mu.Unlock()
}

// notify hands a note for uri to every subscriber of it and returns how
// many took it. The pushes happen under h.mu so that a subscriber being
// removed either gets the note or is gone, never half.
func (h *hub) notify(uri string, ch change) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for sub := range h.byURI[uri] {
		queued, full := sub.push(note{uri: uri, ch: ch, fault: sub.uris[uri]})
		if queued {
			n++
		} else if full {
			h.dropped.Add(1)
		}
	}
	h.notified.Add(int64(n))
	return n
}

// subscribedURIs is every URI someone follows, sorted: the round-robin
// order of Options.Changes.
func (h *hub) subscribedURIs() []string {
	h.mu.Lock()
	out := make([]string, 0, len(h.byURI))
	for uri := range h.byURI {
		out = append(out, uri)
	}
	h.mu.Unlock()
	slices.Sort(out)
	return out
}

// SubscriptionStats counts the freshness loop's traffic (Stats.Subscriptions).
type SubscriptionStats struct {
	Listens  int64 // 2026-07-28 listen streams open now
	Refused  int64 // listen requests refused by Options.MaxListeners
	URIs     int64 // distinct URIs someone follows now
	Changes  int64 // changes made (touch, POST /changes, Options.Changes)
	Notified int64 // notes handed to subscribers' queues
	Dropped  int64 // notes dropped because a subscriber's queue was full
}

func (h *hub) stats() SubscriptionStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return SubscriptionStats{Listens: int64(h.listens), Refused: h.refused.Load(), URIs: int64(len(h.byURI)),
		Notified: h.notified.Load(), Dropped: h.dropped.Load()}
}
