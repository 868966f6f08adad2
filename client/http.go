package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/protocol"
)

// httpTransport speaks Streamable HTTP: every message is a POST; an answer
// is one JSON body or an SSE stream carrying it (possibly after
// notifications). Cancellation is closing the request's stream; in the
// legacy era a notifications/cancelled is POSTed as well.
type httpTransport struct {
	url     string
	client  *http.Client
	headers http.Header    // from the workload, already expanded
	bg      sync.WaitGroup // notifications/cancelled being POSTed; close waits

	mu        sync.Mutex
	sessionID string
	version   string
	modern    bool
}

// newHTTPTransport makes a transport with its own connection pool, so that
// each session looks like a separate host to the server.
func newHTTPTransport(url string, headers http.Header) *httpTransport {
	return &httpTransport{url: url, client: &http.Client{Transport: newHTTPRoundTripper()}, headers: headers}
}

// newHTTPRoundTripper is one session's connection pool, tuned for
// measuring a server: no proxy, no compression, many idle connections.
func newHTTPRoundTripper() *http.Transport {
	return &http.Transport{
		Proxy:               nil, // a benchmark measures the server, not a proxy
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true, // wire bytes are the bytes the server sent
		ForceAttemptHTTP2:   true,
	}
}

func (t *httpTransport) setEra(version string, modern bool) {
	t.mu.Lock()
	t.version, t.modern = version, modern
	t.mu.Unlock()
}

// state returns the session id and era under the lock.
func (t *httpTransport) state() (sessionID, version string, modern bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessionID, t.version, t.modern
}

// newRequest builds the POST for req and returns the session id it
// carries ("" when none): a 404 means that id expired, not another one.
func (t *httpTransport) newRequest(ctx context.Context, req Request) (*http.Request, string, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(req.body))
	if err != nil {
		return nil, "", fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", protocol.ContentTypeJSON)
	hr.Header.Set("Accept", protocol.AcceptBoth)
	sid, version, modern := t.state()
	if req.method == protocol.MethodInitialize {
		sid = "" // a new session starts without one, also when renewing an expired one
	}
	t.setCommon(hr, sid, version, modern, req.method)
	if modern {
		hr.Header.Set(protocol.HeaderMethod, req.method)
		if req.name != "" {
			hr.Header.Set(protocol.HeaderName, protocol.EncodeHeaderValue(req.name))
		}
	}
	return hr, sid, nil
}

// setCommon adds what every request of the session carries: the
// workload's headers, the session id and the protocol version header.
// Legacy clients send the version header from 2025-06-18 on, after
// initialize; modern clients on every request.
func (t *httpTransport) setCommon(hr *http.Request, sid, version string, modern bool, method string) {
	for k, vs := range t.headers {
		hr.Header[k] = vs
	}
	if sid != "" {
		hr.Header.Set(protocol.HeaderSessionID, sid)
	}
	if version != "" && method != protocol.MethodInitialize && (modern || version >= protocol.V20250618) {
		hr.Header.Set(protocol.HeaderProtocolVersion, version)
	}
}

// liveSessionID is the session id requests carry now ("" when none).
func (t *httpTransport) liveSessionID() string {
	sid, _, _ := t.state()
	return sid
}

func (t *httpTransport) call(ctx context.Context, req Request) (*Answer, error) {
	var first time.Time
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotFirstResponseByte: func() { first = time.Now() },
	})
	hr, sid, err := t.newRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	sent := time.Now()
	resp, err := t.client.Do(hr)
	if err != nil {
		return nil, t.failure(ctx, req, err)
	}
	defer resp.Body.Close()
	if err := checkExpired(resp, req.method, sid); err != nil {
		return nil, err
	}
	a, err := readHTTPAnswer(resp, req.ID)
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

// checkExpired recognises a server that no longer knows the session id a
// request carried: 404 (what the specification says a server answers),
// or a 400 whose body says the session is unknown (what some servers do).
// A 400 body that says something else is put back for readHTTPAnswer.
func checkExpired(resp *http.Response, method, sid string) error {
	if sid == "" {
		return nil
	}
	switch resp.StatusCode {
	case http.StatusNotFound:
		body, _ := readBody(resp, 4096)
		return &sessionExpiredError{sessionID: sid, method: method, status: resp.StatusCode, body: excerpt(body)}
	case http.StatusBadRequest:
		body, err := readBody(resp, 1<<20)
		if err != nil {
			return transportErr("reading answer: %v", err)
		}
		if saysSessionUnknown(body) {
			return &sessionExpiredError{sessionID: sid, method: method, status: resp.StatusCode, body: excerpt(body)}
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
	}
	return nil
}

// saysSessionUnknown reports whether an error body (plain text or a
// JSON-RPC error) says the session id is unknown, invalid or expired.
func saysSessionUnknown(body []byte) bool {
	s := strings.ToLower(string(body))
	if !strings.Contains(s, "session") {
		return false
	}
	for _, w := range []string{"not found", "unknown", "invalid", "expired", "no valid", "terminated", "does not exist", "no such"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// failure turns an error into the right kind: a cancellation (after
// telling a legacy server), or a transport failure.
func (t *httpTransport) failure(ctx context.Context, req Request, err error) error {
	if ctx.Err() != nil {
		// Closing the stream (done by the context) is the whole
		// cancellation in 2026-07-28; legacy servers also get the
		// notification. initialize is never cancelled.
		if _, _, modern := t.state(); !modern && req.ID != 0 && req.method != protocol.MethodInitialize {
			id, reason := req.ID, cancelReason(ctx)
			t.bg.Go(func() { t.postCancel(id, reason) }) // the read's own end is not delayed by it
		}
		return ctx.Err()
	}
	if errors.Is(err, ErrTransport) || errors.Is(err, ErrProtocol) {
		return err
	}
	return fmt.Errorf("%w: %s %s: %w", ErrTransport, req.method, t.url, err)
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
	hr, _, err := t.newRequest(ctx, req)
	if err != nil {
		return err
	}
	resp, err := t.client.Do(hr)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %w", ErrTransport, req.method, t.url, err)
	}
	defer resp.Body.Close()
	body, _ := readBody(resp, 4096)
	if resp.StatusCode/100 != 2 {
		return &StatusError{status: resp.StatusCode, method: req.method, body: excerpt(body)}
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
			if resp, err := t.client.Do(hr); err == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
				resp.Body.Close()
			}
		}
	}
	t.client.CloseIdleConnections()
	return nil
}

// readHTTPAnswer reads the response to request id from a JSON body or an
// SSE stream. Modern servers carry JSON-RPC errors on 400 and 404, so any
// status with a JSON-RPC body for our id (or null) is an answer.
func readHTTPAnswer(resp *http.Response, id int64) (*Answer, error) {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return nil, protocolErr("the server answered a request with 202 Accepted, which only acknowledges a notification: a request must be answered with application/json or text/event-stream")
	case ct == protocol.ContentTypeSSE && resp.StatusCode == http.StatusOK:
		return readSSEAnswer(resp.Body, id)
	case ct == protocol.ContentTypeJSON:
		limit := int64(-1)
		if resp.StatusCode != http.StatusOK {
			limit = 1 << 20 // error bodies are small; do not trust them to be
		}
		body, err := readBody(resp, limit)
		if err != nil {
			return nil, transportErr("reading answer: %v", err)
		}
		if resp.StatusCode == http.StatusOK || isAnswerFor(body, id) {
			return &Answer{Body: body, WireBytes: int64(len(body))}, nil
		}
		return nil, &StatusError{status: resp.StatusCode, method: "request", body: excerpt(body)}
	default:
		body, _ := readBody(resp, 4096)
		if resp.StatusCode == http.StatusOK {
			return nil, transportErr("answer has Content-Type %q, want JSON or SSE", resp.Header.Get("Content-Type"))
		}
		return nil, &StatusError{status: resp.StatusCode, method: "request", body: excerpt(body)}
	}
}

func readBody(resp *http.Response, limit int64) ([]byte, error) {
	var r io.Reader = resp.Body
	if limit >= 0 {
		r = io.LimitReader(resp.Body, limit)
	}
	buf := bytes.NewBuffer(make([]byte, 0, max(resp.ContentLength, 512)))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// readSSEAnswer skips notifications and server requests on the stream
// until the response with our id; every byte read counts as wire bytes.
func readSSEAnswer(body io.Reader, id int64) (*Answer, error) {
	r := protocol.NewSSEReader(body)
	var wire int64
	for {
		ev, err := r.Next()
		wire += ev.WireBytes
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, transportErr("SSE stream ended before the answer: %v", err)
		}
		if len(ev.Data) == 0 || (ev.Name != "" && ev.Name != "message") {
			continue // priming events and other event types
		}
		if isAnswerFor(ev.Data, id) {
			return &Answer{Body: bytes.Clone(ev.Data), WireBytes: wire}, nil
		}
	}
}

// isAnswerFor reports whether msg is a JSON-RPC response to id (or with a
// null id: an error about a request the server could not read).
func isAnswerFor(msg []byte, id int64) bool {
	var gotID []byte
	var isResponse bool
	err := protocol.ObjectFields(msg, func(k, v []byte) error {
		switch string(k) {
		case "id":
			gotID = v
		case "result", "error":
			isResponse = true
		}
		return nil
	})
	if err != nil || !isResponse {
		return false
	}
	if string(gotID) == "null" {
		return true
	}
	n, ok := protocol.ParseIntID(gotID)
	return ok && n == id
}

// hasResult reports whether msg is a JSON-RPC success response.
func hasResult(msg []byte) bool {
	found := false
	_ = protocol.ObjectFields(msg, func(k, _ []byte) error {
		found = found || string(k) == "result"
		return nil
	})
	return found
}

// excerpt shortens an error body for a message. It never sees request
// headers, so workload header values cannot leak through it.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
