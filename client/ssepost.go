package client

// The client's side of the HTTP+SSE transport (sse.go): each message a
// POST to the endpoint the stream named, whose answer comes back on the
// stream and is matched there by id; a cancel is sent once the POST it
// cancels was accepted.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/protocol"
)

// post sends one message to the endpoint and returns the response body
// (normally empty: answers come on the stream).
func (t *sseTransport) post(ctx context.Context, body []byte, method string) ([]byte, error) {
	return t.postWith(ctx, body, method, protocol.TraceParent{}, nil)
}

// postWith is post, telling use (when set) each token the POST is about
// to carry: a refused token is renewed once and the POST sent once more
// (bearer.do), before it is acknowledged, so the order of a request, its
// acknowledgement and its cancel is kept. A read's carries its trace
// context (trace) in the traceparent header too.
func (t *sseTransport) postWith(ctx context.Context, body []byte, method string, trace protocol.TraceParent, use func(auth.Token)) ([]byte, error) {
	resp, _, err := t.auth.do(ctx, t.client.Do, method, func(tok auth.Token) (*http.Request, error) {
		hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.postURL, bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("build request: %w", err)
		}
		for k, vs := range t.headers {
			hr.Header[k] = vs
		}
		hr.Header.Set("Content-Type", protocol.ContentTypeJSON)
		setTraceHeader(hr.Header, trace)
		t.mu.Lock()
		version := t.version
		t.mu.Unlock()
		if version >= protocol.V20250618 && method != protocol.MethodInitialize {
			hr.Header.Set(protocol.HeaderProtocolVersion, version)
		}
		if use != nil {
			use(tok)
		}
		return hr, nil
	})
	if errors.Is(err, ErrUnauthorized) {
		return nil, err
	}
	if err != nil {
		return nil, transportErr("POST %s: %w", method, err)
	}
	defer resp.Body.Close()
	b, err := readBody(resp, t.maxAnswer) // an acknowledgement, or an answer sent in the POST's body
	if resp.StatusCode/100 != 2 {
		return nil, statusError(resp.StatusCode, method, b)
	}
	var tl *protocol.TooLargeError
	if errors.As(err, &tl) {
		return nil, tooLargeErr(tl.Limit, tl.Read)
	}
	if err != nil {
		return nil, transportErr("POST %s: reading the acknowledgement: %w", method, err)
	}
	return b, nil
}

func (t *sseTransport) call(ctx context.Context, req Request) (*Response, error) {
	p := &ssePost{done: make(chan struct{})}
	a, err := t.exchange(ctx, req, p)
	if a != nil && countsFresh(req.method) {
		a.FreshToken = t.auth.fresh(p.token())
	}
	return a, err
}

// exchange POSTs req through p and waits for its answer on the stream.
func (t *sseTransport) exchange(ctx context.Context, req Request, p *ssePost) (*Response, error) {
	select {
	case <-t.failed:
		return nil, t.deadErr
	default:
	}
	if err := ctx.Err(); err != nil {
		return nil, err // never POST a request whose caller is gone: nothing to cancel
	}
	ch := t.calls.addCall(req.ID, req.method, req.read)
	sent := time.Now()
	t.bg.Go(func() { p.run(t, req) })
	dead := func() error { return t.deadErr }
	select {
	case <-p.done:
		switch {
		case p.err != nil && t.calls.forget(req.ID):
			return nil, p.err
		case p.err == nil && isAnswerFor(p.ack, req.ID) && t.calls.forget(req.ID):
			// A server that answers in the POST body as well: take it there.
			return &Response{Body: p.ack, WireBytes: int64(len(p.ack)), Sent: sent, Done: time.Now(), Status: http.StatusOK}, nil
		case p.err == nil:
			req.tellAccepted() // the POST was acknowledged: the server has it
		}
	case <-ctx.Done():
		// Cut before the POST was acknowledged: the cancel waits for the
		// acknowledgement (a cancel POSTed now could overtake its request),
		// and is not sent at all when the POST fails: the server never
		// had the request.
		a, cancelled, err := t.calls.wait(ctx, req.ID, ch, t.failed, dead)
		if cancelled {
			p.onAccepted(func() { t.calls.sendCancel(ctx, req, t.postCancel) })
		}
		return answered(a, err, sent)
	case a := <-ch: // the answer came on the stream before the POST's acknowledgement
		req.tellAccepted()
		ch <- a
	}
	return t.calls.await(ctx, req, ch, sent, t.failed, dead, t.postCancel)
}

// postCancel POSTs a notifications/cancelled in the background and tells
// its OnAccepted hook once the server acknowledged it.
func (t *sseTransport) postCancel(n Request) {
	t.background(func(ctx context.Context) {
		if _, err := t.post(ctx, n.body, n.method); err == nil {
			n.tellAccepted()
		}
	})
}

// acceptTimeout bounds a request's POST. The POST is not cut when its
// read is (the read returns at once; the POST goes on in the background),
// so that whether the server has the request is known before a cancel is
// sent.
const acceptTimeout = 30 * time.Second

// ssePost is one request's POST, run in the background: done is closed
// with its outcome; a read cut before then leaves what to do once the
// POST is acknowledged (send its cancel).
type ssePost struct {
	done chan struct{}
	ack  []byte
	err  error

	mu       sync.Mutex
	finished bool
	then     func()     // run once acknowledged, when set before the POST finished
	tok      auth.Token // the bearer token the POST carries (its latest attempt)
}

// token is the bearer token the POST carried last: the one the server
// answered, since it answers only a POST it accepted.
func (p *ssePost) token() auth.Token {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tok
}

// run POSTs req, bounded by acceptTimeout and the session's life.
func (p *ssePost) run(t *sseTransport, req Request) {
	ctx, cancel := context.WithTimeout(t.life, acceptTimeout)
	defer cancel()
	p.ack, p.err = t.postWith(ctx, req.body, req.method, req.trace, func(tok auth.Token) {
		p.mu.Lock()
		p.tok = tok
		p.mu.Unlock()
	})
	p.mu.Lock()
	p.finished = true
	then := p.then
	p.mu.Unlock()
	close(p.done)
	if then != nil && p.err == nil {
		then()
	}
}

// onAccepted runs f once the POST is acknowledged: now if it already is,
// never if it failed.
func (p *ssePost) onAccepted(f func()) {
	p.mu.Lock()
	if !p.finished {
		p.then = f
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	if p.err == nil {
		f()
	}
}

// answered is what a call given up on returns: an answer that raced the
// end after all, or the error.
func answered(a *Response, err error, sent time.Time) (*Response, error) {
	switch {
	case err != nil:
		return nil, err
	case a.err != nil:
		return nil, a.err
	}
	a.Sent = sent
	return a, nil
}

func (t *sseTransport) notify(ctx context.Context, req Request) error {
	select {
	case <-t.failed:
		return t.deadErr
	default:
	}
	_, err := t.post(ctx, req.body, req.method)
	return err
}
