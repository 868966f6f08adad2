package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// httpTransport speaks Streamable HTTP: every message is a POST; an answer
// is one JSON body or an SSE stream carrying it (possibly after
// notifications). Cancellation is closing the request's stream; in the
// legacy era a notifications/cancelled is POSTed as well.
type httpTransport struct {
	url       string
	client    *http.Client
	headers   http.Header    // from the workload, already expanded
	maxAnswer int64          // bytes; a bigger answer is a protocol failure of its read
	bg        sync.WaitGroup // notifications/cancelled and replies being POSTed; close waits
	auth      *bearer        // the target's tokens (nil: none)
	fixed     fixedHeaders   // see post

	mu        sync.Mutex
	sessionID string
	version   string
	modern    bool
}

// newHTTPTransport makes a transport with its own connection pool, so that
// each session looks like a separate host to the server. Answers are at
// most maxAnswer bytes (0: targets.DefaultMaxAnswer).
func newHTTPTransport(url string, headers http.Header, maxAnswer int64) *httpTransport {
	t := &httpTransport{url: url, client: newHTTPClient(), headers: headers, maxAnswer: answerLimit(maxAnswer)}
	t.fixed = newFixedHeaders(url)
	t.fixed.lines = postLines(headers)
	return t
}

func (t *httpTransport) setEra(version string, modern bool) {
	t.mu.Lock()
	t.version, t.modern = version, modern
	t.mu.Unlock()
}

// versionHeader is the protocol version header's value for version: one
// slice per transport while the version stays the same.
func (t *httpTransport) versionHeader(version string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fixed.versionFor != version || t.fixed.version == nil {
		t.fixed.version, t.fixed.versionFor = []string{version}, version
	}
	return t.fixed.version
}

// state returns the session id and era under the lock.
func (t *httpTransport) state() (sessionID, version string, modern bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessionID, t.version, t.modern
}

// send POSTs req, with the session's bearer token when it has tokens (a
// refused token renewed once and the request sent once more: bearer.do),
// and returns the answer, the session id the request carried ("" when
// none: a 404 means that id expired, not another one), the token and when
// the request was first sent (once it had its token).
func (t *httpTransport) send(ctx context.Context, req Request) (resp *http.Response, sid string, tok auth.Token, sent time.Time, err error) {
	resp, tok, err = t.auth.do(ctx, t.do, req.method, func(auth.Token) (*http.Request, error) {
		hr, s, err := t.newRequest(ctx, req)
		sid = s
		if sent.IsZero() {
			sent = time.Now()
		}
		return hr, err
	})
	return resp, sid, tok, sent, err
}

// newRequest builds the POST for req and returns the session id it
// carries ("" when none).
func (t *httpTransport) newRequest(ctx context.Context, req Request) (*http.Request, string, error) {
	hr, err := t.post(ctx, req.body)
	if err != nil {
		return nil, "", fmt.Errorf("build request: %w", err)
	}
	if req.accepted != nil {
		hr.Body = &acceptedBody{r: bytes.NewReader(req.body), req: req}
	}
	t.setFixed(hr)
	sid, version, modern := t.state()
	if req.method == protocol.MethodInitialize {
		sid = "" // a new session starts without one, also when renewing an expired one
	}
	t.setCommon(hr, sid, version, modern, req.method)
	setTraceHeader(hr.Header, req.trace)
	if modern {
		if req.method == protocol.MethodResourcesRead && t.fixed.methodRead != nil {
			hr.Header[canonicalMethod] = t.fixed.methodRead
		} else {
			hr.Header[canonicalMethod] = []string{req.method}
		}
		if req.name != "" {
			hr.Header[canonicalName] = []string{protocol.EncodeHeaderValue(req.name)}
		}
	}
	return hr, sid, nil
}

// setFixed sets the Content-Type and Accept of a POST.
func (t *httpTransport) setFixed(hr *http.Request) {
	if t.fixed.contentType == nil { // a transport made without newHTTPTransport
		hr.Header.Set("Content-Type", protocol.ContentTypeJSON)
		hr.Header.Set("Accept", protocol.AcceptBoth)
		return
	}
	hr.Header["Content-Type"] = t.fixed.contentType
	hr.Header["Accept"] = t.fixed.accept
}

// acceptedBody is a request body that tells its request's OnAccepted hook
// once it has been read to its end: the transport has then written it to
// the connection.
type acceptedBody struct {
	r    *bytes.Reader
	req  Request
	told bool
}

func (b *acceptedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF && !b.told {
		b.told = true
		b.req.tellAccepted()
	}
	return n, err
}

func (b *acceptedBody) Close() error { return nil }

// authorize puts the session's bearer token on a request sent in the
// background (a reply, the closing DELETE), which is not retried when
// refused: it reports false when no token could be had (nothing to send).
func (t *httpTransport) authorize(ctx context.Context, hr *http.Request) bool {
	if t.auth == nil {
		return true
	}
	tok, err := t.auth.token(ctx, hr.Method)
	if err != nil {
		return false
	}
	setBearer(hr, tok)
	return true
}

// setCommon adds what every request of the session carries: the
// workload's headers (an Authorization among them is replaced by the
// bearer token when the session has tokens), the session id and the
// protocol version header.
// Legacy clients send the version header from 2025-06-18 on, after
// initialize; modern clients on every request.
func (t *httpTransport) setCommon(hr *http.Request, sid, version string, modern bool, method string) {
	for k, vs := range t.headers {
		hr.Header[k] = vs
	}
	if sid != "" {
		hr.Header[canonicalSessionID] = []string{sid}
	}
	if version != "" && method != protocol.MethodInitialize && (modern || version >= protocol.V20250618) {
		hr.Header[canonicalProtocolVersion] = t.versionHeader(version)
	}
}

// liveSessionID is the session id requests carry now ("" when none).
func (t *httpTransport) liveSessionID() string {
	sid, _, _ := t.state()
	return sid
}

func (t *httpTransport) call(ctx context.Context, req Request) (*Response, error) {
	var traced *time.Time // the first byte as a trace saw it (nil: h1 says)
	if u := t.fixed.target; u == nil || u.Scheme != "http" {
		// not h1 (https: net/http's transport): the first byte from a trace
		traced = new(time.Time)
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GotFirstResponseByte: func() { *traced = time.Now() },
		})
	}
	if t.auth != nil {
		req = req.acceptedOnce() // a request sent twice (its token refused) is accepted once
	}
	var resp *http.Response
	var tok auth.Token
	var sent time.Time
	var err error
	h, lines, sid := t.lightPost(req)
	switch {
	case h != nil:
		resp, sent, err = t.sendPost(ctx, h, lines, sid, req)
	case req.read != nil && !req.read.deadline.IsZero():
		return t.callWithin(ctx, req)
	default:
		resp, sid, tok, sent, err = t.send(ctx, req)
	}
	if err != nil {
		return nil, t.failure(ctx, req, err)
	}
	var first time.Time
	if at, ok := h1.FirstByte(resp.Body); ok {
		first = at
	} else if traced != nil {
		first = *traced
	}
	defer resp.Body.Close()
	if err := checkExpired(resp, req.method, sid); err != nil {
		return nil, err
	}
	var a *Response
	if req.read != nil {
		rb := sharedReadBufs.get()
		a, err = readHTTPRead(resp, req.ID, t.maxAnswer, req.read, t.replyInBackground, rb)
		sharedReadBufs.put(rb)
	} else {
		limit := keptLimit(req.method, t.maxAnswer) // a handshake's or a listing's answer, kept whole
		a, err = readHTTPAnswer(resp, req.ID, limit, t.replyInBackground)
		err = keptOver(err, limit, t.maxAnswer)
	}
	if err != nil {
		var se *StatusError
		if errors.As(err, &se) {
			se.method = req.method
		}
		return nil, t.failure(ctx, req, err)
	}
	if req.method == protocol.MethodInitialize {
		t.adoptSession(resp.Header.Get(protocol.HeaderSessionID), a.Body)
	}
	a.Sent, a.FirstByte, a.Done, a.Status = sent, first, time.Now(), resp.StatusCode
	a.FreshToken = countsFresh(req.method) && t.auth.fresh(tok)
	return a, nil
}

// adoptSession records the session id an initialize result came with. A
// renewed session replaces the expired id, or clears it when the server
// no longer issues ids; a failed initialize leaves the id as it was.
func (t *httpTransport) adoptSession(sid string, body []byte) {
	if sid == "" && !hasResult(body) {
		return
	}
	t.mu.Lock()
	t.sessionID = sid
	t.mu.Unlock()
}

// callWithin is call for a read with a deadline that cannot be its
// connection's (not an h1.Post): under a context with that deadline.
func (t *httpTransport) callWithin(ctx context.Context, req Request) (*Response, error) {
	spec := *req.read
	at := spec.deadline
	spec.deadline, req.read = time.Time{}, &spec
	return withinDeadline(ctx, at, spec.cause, func(ctx context.Context) (*Response, error) { return t.call(ctx, req) })
}

// failure turns an error into the right kind: a cancellation, by the
// context or the read's deadline (after telling a legacy server), or a
// transport failure.
func (t *httpTransport) failure(ctx context.Context, req Request, err error) error {
	past := req.read.pastDeadline(err)
	if ctx.Err() != nil || past {
		// Closing the stream (done by the context or the deadline) is the
		// whole cancellation in 2026-07-28; legacy servers also get the
		// notification. initialize is never cancelled.
		if _, _, modern := t.state(); !modern && req.ID != 0 && req.method != protocol.MethodInitialize {
			id, reason := req.ID, cancelReason(ctx)
			if past {
				reason = req.read.cause.Error()
			}
			t.bg.Go(func() { t.postCancel(id, reason) }) // the read's own end is not delayed by it
		}
		if past && ctx.Err() == nil {
			return &deadlineError{req.read.cause}
		}
		return ctx.Err()
	}
	if errors.Is(err, ErrTransport) || errors.Is(err, ErrProtocol) || errors.Is(err, ErrUnauthorized) {
		return err
	}
	return transportErr("%s %s: %w", req.method, targets.RedactSecrets(t.url), err)
}

// replyInBackground POSTs the reply to a request the server sent on a
// response stream, with a short deadline of its own: the read that met the
// request is not delayed by it, and close waits for it.
func (t *httpTransport) replyInBackground(msg []byte) {
	t.bg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hr, err := t.post(ctx, msg)
		if err != nil {
			return
		}
		t.setFixed(hr)
		sid, version, modern := t.state()
		t.setCommon(hr, sid, version, modern, "")
		if !t.authorize(ctx, hr) {
			return
		}
		withGetBody(hr)
		if resp, err := t.client.Do(hr); err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
		}
	})
}

// postCancel tells a legacy server that request id is abandoned; it has
// its own short deadline because the read's context is already over.
func (t *httpTransport) postCancel(id int64, reason string) {
	n, err := cancelNotification(id, reason)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = t.notify(ctx, n)
}

func (t *httpTransport) notify(ctx context.Context, req Request) error {
	resp, _, _, _, err := t.send(ctx, req)
	if errors.Is(err, ErrUnauthorized) {
		return err
	}
	if err != nil {
		return transportErr("%s %s: %w", req.method, targets.RedactSecrets(t.url), err)
	}
	defer resp.Body.Close()
	body, _ := readBody(resp, 4096)
	if resp.StatusCode/100 != 2 {
		return statusError(resp.StatusCode, req.method, body)
	}
	return nil
}

// close ends the session: DELETE when the server issued a session id
// (with the workload's headers, which may carry the credentials the
// server wants for it).
func (t *httpTransport) close() error {
	t.bg.Wait()
	sid, version, modern := t.state()
	if sid != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if hr, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil); err == nil {
			t.setCommon(hr, sid, version, modern, http.MethodDelete)
			if !t.authorize(ctx, hr) {
				t.client.CloseIdleConnections()
				return nil
			}
			if resp, err := t.client.Do(hr); err == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
				resp.Body.Close()
			}
		}
	}
	t.client.CloseIdleConnections()
	return nil
}
