package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/workload"
)

// sseTransport speaks the 2024-11-05 HTTP+SSE transport: one GET stream
// per session carries every message from the server, and each client
// message is a POST to the endpoint the stream's first event names.
// Answers arrive on the stream in any order and are matched by id, as on
// stdio; a POST only acknowledges (202).
type sseTransport struct {
	sseURL  string
	postURL string // from the endpoint event, resolved against sseURL
	client  *http.Client
	headers http.Header // from the workload, already expanded; never logged
	late    lateFunc

	stopStream context.CancelFunc // ends the GET stream
	readerDone chan struct{}      // closed when readLoop has returned
	bg         sync.WaitGroup     // cancellations and replies being POSTed
	closeOnce  sync.Once

	mu      sync.Mutex
	pending map[int64]chan *answer
	tombs   tombstones // cancelled ids, to spot late answers
	version string     // the session's protocol version, once known
	closing bool

	failed  chan struct{} // closed when the stream ends
	deadErr error         // set before failed is closed
}

// endpointTimeout bounds the wait for the endpoint event when the caller's
// context has no deadline of its own.
const endpointTimeout = 30 * time.Second

// startSSE opens the session's GET stream and waits for its endpoint
// event; ctx bounds only that wait, the stream lives until close.
func startSSE(ctx context.Context, sseURL string, headers http.Header, late lateFunc) (*sseTransport, error) {
	streamCtx, stop := context.WithCancel(context.Background())
	t := &sseTransport{
		sseURL: sseURL, client: &http.Client{Transport: newHTTPRoundTripper()}, headers: headers, late: late,
		stopStream: stop, readerDone: make(chan struct{}), pending: make(map[int64]chan *answer), failed: make(chan struct{}),
	}
	wctx, cancel := context.WithTimeout(ctx, endpointTimeout)
	defer cancel()
	unwatch := context.AfterFunc(wctx, stop) // a server that never sends the endpoint must not hang the run
	body, r, err := t.open(streamCtx)
	if unwatch() && err == nil {
		go t.readLoop(r, body)
		return t, nil
	}
	stop()
	if body != nil {
		body.Close()
	}
	t.client.CloseIdleConnections()
	if err == nil || wctx.Err() != nil {
		return nil, fmt.Errorf("%w: %s: no endpoint event: %w", errTransport, sseURL, context.Cause(wctx))
	}
	return nil, err
}

// open sends the GET and reads up to the endpoint event.
func (t *sseTransport) open(ctx context.Context) (io.ReadCloser, *protocol.SSEReader, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, t.sseURL, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("build request: %w", err)
	}
	for k, vs := range t.headers {
		hr.Header[k] = vs
	}
	hr.Header.Set("Accept", protocol.ContentTypeSSE)
	hr.Header.Set("Cache-Control", "no-cache")
	resp, err := t.client.Do(hr)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: GET %s: %w", errTransport, t.sseURL, err)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || ct != protocol.ContentTypeSSE {
		b, _ := readBody(resp, 4096)
		resp.Body.Close()
		return nil, nil, transportErr("GET %s: HTTP %d, Content-Type %q (an HTTP+SSE server answers the GET with a text/event-stream; a Streamable HTTP server is targeted as http://...): %s",
			t.sseURL, resp.StatusCode, resp.Header.Get("Content-Type"), excerpt(b))
	}
	r := protocol.NewSSEReader(resp.Body)
	for {
		ev, err := r.Next()
		if err != nil {
			resp.Body.Close()
			return nil, nil, fmt.Errorf("%w: GET %s: the stream ended before the endpoint event: %w", errTransport, t.sseURL, err)
		}
		switch {
		case ev.Name == "endpoint":
			if t.postURL, err = resolveEndpoint(t.sseURL, string(ev.Data)); err != nil {
				resp.Body.Close()
				return nil, nil, err
			}
			return resp.Body, r, nil
		case len(ev.Data) > 0:
			resp.Body.Close()
			return nil, nil, protocolErr("GET %s: the first event is %q, want the endpoint event", t.sseURL, ev.Name)
		}
	}
}

// resolveEndpoint resolves the endpoint event's URL against the SSE URL.
// The workload's headers (credentials, often) go only to the target's own
// origin, so an endpoint elsewhere is refused (loopback names count as one).
func resolveEndpoint(sseURL, data string) (string, error) {
	base, err := url.Parse(sseURL)
	if err != nil {
		return "", fmt.Errorf("SSE URL: %w", err)
	}
	ep, err := base.Parse(strings.TrimSpace(data))
	if err != nil {
		return "", protocolErr("endpoint event %q is not a URL: %v", excerpt([]byte(data)), err)
	}
	same := ep.Scheme == base.Scheme && (ep.Host == base.Host ||
		(ep.Port() == base.Port() && workload.IsLoopbackHost(ep.Hostname()) && workload.IsLoopbackHost(base.Hostname())))
	if !same {
		return "", protocolErr("endpoint event names %s://%s, another origin than the target %s://%s; readbench sends the workload's headers only to the target", ep.Scheme, ep.Host, base.Scheme, base.Host)
	}
	return ep.String(), nil
}

// readLoop owns the GET stream: it routes every message event and, when
// the stream ends, fails every waiting call at once.
func (t *sseTransport) readLoop(r *protocol.SSEReader, body io.ReadCloser) {
	defer close(t.readerDone)
	defer body.Close()
	var err error
	for {
		var ev protocol.Event
		if ev, err = r.Next(); err != nil {
			break
		}
		if len(ev.Data) == 0 || (ev.Name != "" && ev.Name != "message") {
			continue // priming events, a repeated endpoint
		}
		t.dispatch(ev.Data, ev.WireBytes, time.Now())
	}
	t.mu.Lock()
	if t.closing {
		t.deadErr = transportErr("session closed")
	} else {
		t.deadErr = fmt.Errorf("%w: the HTTP+SSE stream %s ended: %w", errTransport, t.sseURL, err)
	}
	t.mu.Unlock()
	close(t.failed)
}

// dispatch routes one message: an answer to its caller (or to the late
// counter when its read was cancelled), a server request to a reply.
func (t *sseTransport) dispatch(msg []byte, wire int64, now time.Time) {
	id, method := routing(msg)
	if method != "" {
		if id != nil {
			t.reply(bytes.Clone(id), method)
		}
		return // notifications are not answers
	}
	n, ok := protocol.ParseIntID(id)
	if !ok {
		return
	}
	t.mu.Lock()
	ch, waiting := t.pending[n]
	delete(t.pending, n)
	cancelledAt, isLate := t.tombs.take(n)
	t.mu.Unlock()
	switch {
	case waiting:
		ch <- &answer{body: bytes.Clone(msg), wireBytes: wire, done: now}
	case isLate && t.late != nil:
		t.late(wire, now.Sub(cancelledAt))
	}
}

// reply answers a server request in the background: ping gets an empty
// result, anything else method-not-found (readbench offers no client
// capabilities). The read loop must not wait on a POST.
func (t *sseTransport) reply(id []byte, method string) {
	var msg []byte
	if method == protocol.MethodPing {
		msg = protocol.AppendResult(nil, id, []byte("{}"))
	} else {
		msg = protocol.AppendError(nil, id, protocol.NewError(protocol.CodeMethodNotFound, "readbench offers no "+method, nil))
	}
	t.background(func(ctx context.Context) { _, _ = t.post(ctx, msg, "reply to "+method) })
}

// background runs f with a short deadline of its own in a goroutine that
// close waits for.
func (t *sseTransport) background(f func(ctx context.Context)) {
	t.bg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		f(ctx)
	})
}

// post sends one message to the endpoint and returns the response body
// (normally empty: answers come on the stream).
func (t *sseTransport) post(ctx context.Context, body []byte, method string) ([]byte, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.postURL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	for k, vs := range t.headers {
		hr.Header[k] = vs
	}
	hr.Header.Set("Content-Type", protocol.ContentTypeJSON)
	t.mu.Lock()
	version := t.version
	t.mu.Unlock()
	if version >= protocol.V20250618 && method != protocol.MethodInitialize {
		hr.Header.Set(protocol.HeaderProtocolVersion, version)
	}
	resp, err := t.client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", errTransport, method, err)
	}
	defer resp.Body.Close()
	b, err := readBody(resp, 1<<20)
	if resp.StatusCode/100 != 2 {
		return nil, &statusError{status: resp.StatusCode, method: method, body: excerpt(b)}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: reading the acknowledgement: %w", errTransport, method, err)
	}
	return b, nil
}

func (t *sseTransport) call(ctx context.Context, req request) (*answer, error) {
	select {
	case <-t.failed:
		return nil, t.deadErr
	default:
	}
	ch := make(chan *answer, 1)
	t.mu.Lock()
	t.pending[req.id] = ch
	t.mu.Unlock()
	sent := time.Now()
	ack, err := t.post(ctx, req.body, req.method)
	switch {
	case err != nil && ctx.Err() == nil:
		t.forget(req.id)
		return nil, err
	case err == nil && isAnswerFor(ack, req.id) && t.forget(req.id):
		// A server that answers in the POST body as well: take it there.
		return &answer{body: ack, wireBytes: int64(len(ack)), sent: sent, done: time.Now(), status: http.StatusOK}, nil
	case err == nil:
		select {
		case a := <-ch:
			a.sent = sent
			return a, nil
		case <-t.failed:
			if !t.forget(req.id) { // the answer raced the end of the stream in
				a := <-ch
				a.sent = sent
				return a, nil
			}
			return nil, t.deadErr
		case <-ctx.Done():
		}
	}
	return t.cancel(ctx, req, ch, sent)
}

// cancel gives up on req: unless its answer raced in, the id becomes a
// tombstone (an answer may still come: counted as late) and the server is
// told with notifications/cancelled. initialize is never cancelled.
func (t *sseTransport) cancel(ctx context.Context, req request, ch chan *answer, sent time.Time) (*answer, error) {
	t.mu.Lock()
	_, stillPending := t.pending[req.id]
	if stillPending {
		delete(t.pending, req.id)
		t.tombs.add(req.id, time.Now())
	}
	t.mu.Unlock()
	if !stillPending {
		a := <-ch
		a.sent = sent
		return a, nil
	}
	if req.method != protocol.MethodInitialize {
		msg, err := protocol.AppendRequest(nil, nil, protocol.MethodCancelled, map[string]any{"requestId": req.id, "reason": cancelReason(ctx)})
		if err == nil {
			t.background(func(ctx context.Context) { _, _ = t.post(ctx, msg, protocol.MethodCancelled) })
		}
	}
	return nil, ctx.Err()
}

// forget drops a pending call and reports whether it was still pending.
func (t *sseTransport) forget(id int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.pending[id]
	delete(t.pending, id)
	return ok
}

func (t *sseTransport) notify(ctx context.Context, req request) error {
	select {
	case <-t.failed:
		return t.deadErr
	default:
	}
	_, err := t.post(ctx, req.body, req.method)
	return err
}

// setEra records the version for the MCP-Protocol-Version header, which
// the specification asks of HTTP clients from 2025-06-18 on (only when one
// of those versions is forced over this transport); cancelling is the same
// in every version.
func (t *sseTransport) setEra(version string, _ bool) {
	t.mu.Lock()
	t.version = version
	t.mu.Unlock()
}

// legacyVersion is the version the HTTP+SSE transport belongs to.
func (t *sseTransport) legacyVersion() string { return protocol.V20241105 }

// close ends the GET stream (the server ends the session with it), waits
// for the reader and the background POSTs, and frees the connections.
func (t *sseTransport) close() error {
	t.closeOnce.Do(func() {
		t.mu.Lock()
		t.closing = true
		t.mu.Unlock()
		t.stopStream()
		<-t.readerDone
		t.bg.Wait()
		t.client.CloseIdleConnections()
	})
	return nil
}

var _ legacyOnlyTransport = (*sseTransport)(nil)
