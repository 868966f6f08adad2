package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"time"

	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/protocol"
)

// The 2026-07-28 era: one subscriptions/listen request per subscription.
// Over Streamable HTTP its POST's answer is an SSE stream that carries the
// acknowledgement, then the notifications, until one side ends it; this
// file reads it on a goroutine of its own with a buffer of a few hundred
// bytes, so that thousands of idle streams cost little. Over stdio the
// request waits on the shared pipe like any other; its notifications come
// on stdout and are routed by their subscriptionId (notices.go).

// listenBuf is the read buffer of one listen stream: a notification is a
// few hundred bytes, and a longer one is read through it piece by piece.
const listenBuf = 512

// newStreamReader reads a subscription's event stream (a listen stream, a
// legacy standalone GET stream): small events, rare, on streams that stay
// open for hours by the thousand. Its read buffer is listenBuf bytes and
// an event's data is kept only up to maxNotification (a bigger one is a
// *protocol.TooLargeError, its rest read and dropped); each event's id
// and retry are kept for resuming a standalone stream (SEP-1699), and the
// comment lines counted (keep-alives).
func newStreamReader(body io.Reader) *protocol.SSEReader {
	r := protocol.NewSSEReaderSize(body, listenBuf)
	r.SetMax(maxNotification)
	return r
}

// eventOf sorts what a subscription stream's reader returned: a message
// to take (data), an event that passed maxNotification (over: its data
// unreadable), or nothing to take (a priming event, another event type);
// stop is the stream's end (err).
func eventOf(ev protocol.Event, err error) (data []byte, over bool, stop error) {
	var big *protocol.TooLargeError
	switch {
	case errors.As(err, &big):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	case (ev.Name != "" && ev.Name != "message") || len(ev.Data) == 0:
		return nil, false, nil
	}
	return ev.Data, false, nil
}

// listen opens sub's subscriptions/listen and waits for its
// acknowledgement.
func (s *Session) listen(ctx context.Context, sub *Subscription) error {
	params := map[string]any{"notifications": protocol.NotificationSubscriptions{
		ResourceSubscriptions: sub.spec.URIs, ResourcesListChanged: sub.spec.ListChanged,
	}}
	req, err := s.NewRequest(protocol.MethodSubscriptionsListen, "", params)
	if err != nil {
		return err
	}
	sub.id = req.ID
	life, stop := context.WithCancel(context.Background()) // the stream outlives ctx, which bounds only the ack
	sub.stop = stop
	s.notes().addListen(sub)
	switch t := s.t.(type) {
	case *httpTransport:
		err = s.listenHTTP(ctx, life, t, sub, req)
	default:
		err = s.listenShared(ctx, life, sub, req)
	}
	if err != nil {
		sub.closing.Store(true)
		sub.stopStream()
		sub.end(EndClosed, nil)
		s.notes().remove(sub)
	}
	return err
}

// listenHTTP POSTs the listen request and reads its answer: an SSE
// stream (the subscription), or a JSON body (a refusal, or a listen ended
// at once). It returns once the acknowledgement came.
func (s *Session) listenHTTP(ctx, life context.Context, t *httpTransport, sub *Subscription, req Request) error {
	unbound := context.AfterFunc(ctx, sub.stop) // until acknowledged, ctx ends the stream too
	resp, _, _, sent, err := t.send(life, req)
	if err != nil {
		unbound()
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", req.method, ctx.Err())
		}
		return fmt.Errorf("%w: %s: %w", ErrTransport, req.method, err)
	}
	sub.mu.Lock()
	sub.sent = sent
	sub.mu.Unlock()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || ct != protocol.ContentTypeSSE {
		unbound()
		defer resp.Body.Close()
		return listenAnswer(req, resp)
	}
	// The stream keeps its body alone, for as long as it is open: not the
	// request, its headers and bytes, nor the response's headers (the
	// body's framing keeps the response itself, for its trailers).
	body := resp.Body
	resp.Request, resp.Header = nil, nil
	sub.wg.Go(func() {
		defer body.Close()
		sub.readListen(body)
	})
	err = sub.waitAck(ctx)
	if !unbound() && err == nil {
		err = fmt.Errorf("%s: %w", req.method, ctx.Err()) // ctx ended the stream as the ack came
	}
	return err
}

// listenAnswer is what a listen request answered without a stream means:
// a JSON-RPC error (the TypeScript SDK's limit, inside an HTTP 200), a
// method the server lacks, an HTTP error, or a result (a listen the server
// ended at once, acknowledging nothing on a stream).
func listenAnswer(req Request, resp *http.Response) error {
	body, _ := readBody(resp, maxNotification)
	m, err := protocol.Decode(body)
	switch {
	case err == nil && m.Error != nil:
		return subRefusal(req.method, resp.StatusCode, m.Error)
	case resp.StatusCode == http.StatusOK && err == nil && m.Result != nil:
		return &RefusedError{Method: req.method, Status: resp.StatusCode, Err: errors.New("answered with a result and no stream: the server ended the listen before acknowledging it")}
	case resp.StatusCode == http.StatusOK:
		return protocolErr("%s: HTTP 200 with Content-Type %q and no JSON-RPC answer: %s", req.method, resp.Header.Get("Content-Type"), excerpt(body))
	}
	return &RefusedError{Method: req.method, Status: resp.StatusCode, Err: statusError(resp.StatusCode, req.method, body)}
}

// readListen reads the listen stream to its end: every event is taken as
// it comes (takeListen); the stream's end says how the subscription
// ended. Between events the stream waits in AwaitBody, in this frame,
// whose few words are all the goroutine's stack holds then: the event's
// reading and judging (listenEvent) are a call deeper, so that the
// garbage collector can shrink the stack of an idle stream (thousands of
// them, each a goroutine).
func (sub *Subscription) readListen(body io.Reader) {
	ls := &listenState{r: newStreamReader(body)}
	for {
		if ls.r.Buffered() == 0 {
			h1.AwaitBody(body)
		}
		if !sub.listenEvent(ls) {
			return
		}
	}
}

// listenState is what a listen stream's reader keeps between events: the
// SSE reader and the buffer an event's data is read into, reused.
type listenState struct {
	r   *protocol.SSEReader
	msg []byte
}

// listenEvent reads one event of the stream and takes it; false when the
// stream (and the subscription) ended.
//
//go:noinline
func (sub *Subscription) listenEvent(ls *listenState) bool {
	r := ls.r
	ev, rerr := r.NextInto(ls.msg)
	if ev.Data != nil {
		ls.msg = ev.Data
	}
	sub.keepAlives.Store(r.Comments())
	data, over, err := eventOf(ev, rerr)
	if err != nil {
		if errors.Is(err, io.EOF) {
			sub.end(EndDropped, fmt.Errorf("%w: the listen stream ended without an answer", ErrTransport))
		} else {
			sub.end(EndDropped, fmt.Errorf("%w: the listen stream broke: %w", ErrTransport, err))
		}
		return false
	}
	if data == nil && !over {
		return true // priming events, keep-alives
	}
	at := time.Now()
	if over {
		sub.deliver(Notification{At: at, Flags: Unreadable})
		return true
	}
	n, nerr := readNotice(data)
	if nerr == nil && n.response {
		sub.answered(n, at)
		return false
	}
	sub.takeListen(n, nerr, at)
	if cap(ls.msg) > 4<<10 {
		ls.msg = nil // a big message's buffer is not kept by an idle stream
	}
	return true
}

// answered ends the subscription with its listen request's answer: a
// result is the server ending it gracefully, an error a refusal (before
// the acknowledgement, Subscribe returns it).
func (sub *Subscription) answered(n notice, at time.Time) {
	switch {
	case !sameID(n.id, sub.id) && string(n.id) != "null":
		sub.end(EndDropped, protocolErr("the listen stream carried an answer to id %s, not to the listen request %d", excerpt(n.id), sub.id))
	case n.rpcErr != nil && !sub.isAckedNow():
		sub.end(EndRefused, subRefusal(protocol.MethodSubscriptionsListen, http.StatusOK, n.rpcErr))
	case n.rpcErr != nil:
		sub.end(EndRefused, n.rpcErr)
	default:
		sub.end(EndServer, nil)
	}
}

// takeListen judges and delivers one message a listen stream carried (or
// one routed to it by its subscriptionId, on stdio); err is a message that
// did not read. It reports false when sub's Close has begun (nothing is
// delivered then).
func (sub *Subscription) takeListen(n notice, err error, at time.Time) bool {
	if err != nil {
		return sub.deliver(Notification{At: at, Flags: Unreadable})
	}
	note := Notification{Method: n.method, URI: n.uri, SubscriptionID: n.subID, At: at}
	note.Flags = sub.routeFlags(n.subID)
	if n.id != nil {
		note.Flags |= UnaskedType // a request on a listen stream: no notification at all
		return sub.deliver(note)
	}
	acked := sub.isAckedNow()
	if !acked && n.method != protocol.NotifySubscriptionsAcked {
		note.Flags |= BeforeAck
	}
	honoured := sub.honoured(acked)
	switch n.method {
	case protocol.NotifySubscriptionsAcked:
		if n.subID == nil {
			note.Flags &^= NoSubscriptionID // the acknowledgement names its listen by arriving on it
		}
		sub.ack(n.acked, at)
	case protocol.NotifyResourceUpdated:
		if !n.hasURI || !slices.Contains(honoured.ResourceSubscriptions, n.uri) {
			note.Flags |= UnsubscribedURI
		}
	case protocol.NotifyResourcesListChanged:
		if !honoured.ResourcesListChanged {
			note.Flags |= UnaskedType
		}
	default:
		note.Flags |= UnaskedType
	}
	return sub.deliver(note)
}

// honoured is what sub may hear of: what the acknowledgement agreed to,
// or before it came, what was asked.
func (sub *Subscription) honoured(acked bool) protocol.NotificationSubscriptions {
	if acked {
		sub.mu.Lock()
		defer sub.mu.Unlock()
		return sub.acked
	}
	return protocol.NotificationSubscriptions{ResourceSubscriptions: sub.spec.URIs, ResourcesListChanged: sub.spec.ListChanged}
}

// listenShared sends the listen request on a stream shared by the
// session's requests (stdio): the request waits for its answer on a
// goroutine of the subscription's, its notifications are routed to sub by
// their subscriptionId; closing cancels it with notifications/cancelled.
func (s *Session) listenShared(ctx context.Context, life context.Context, sub *Subscription, req Request) error {
	if _, ok := s.t.(*sseTransport); ok {
		return fmt.Errorf("%w: subscriptions/listen belongs to %s, which has no HTTP+SSE binding", ErrSubscriptionsUnsupported, protocol.V20260728)
	}
	sub.mu.Lock()
	sub.sent = time.Now()
	sub.mu.Unlock()
	req.cancelInline = true // Close returns once the server can read the cancel (stopStream waits for this goroutine)
	sub.wg.Go(func() {
		resp, err := s.t.call(life, req)
		switch {
		case err != nil && life.Err() != nil:
			sub.end(EndClosed, nil)
		case err != nil:
			sub.end(EndDropped, err)
		default:
			n, rerr := readNotice(resp.Body)
			if rerr != nil || !n.response {
				sub.end(EndDropped, protocolErr("the answer to subscriptions/listen is not a JSON-RPC response: %s", excerpt(resp.Body)))
				return
			}
			sub.answered(n, resp.Done)
		}
	})
	return sub.waitAck(ctx)
}
