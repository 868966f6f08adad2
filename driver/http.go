package driver

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
	headers http.Header // from the workload, already expanded

	mu        sync.Mutex
	sessionID string
	version   string
	modern    bool
}

// newHTTPTransport makes a transport with its own connection pool, so that
// each session looks like a separate host to the server.
func newHTTPTransport(url string, headers http.Header) *httpTransport {
	tr := &http.Transport{
		Proxy:               nil, // a benchmark measures the server, not a proxy
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: 1024,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true, // wire bytes are the bytes the server sent
		ForceAttemptHTTP2:   true,
	}
	return &httpTransport{url: url, client: &http.Client{Transport: tr}, headers: headers}
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

func (t *httpTransport) newRequest(ctx context.Context, req request) (*http.Request, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(req.body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	for k, vs := range t.headers {
		hr.Header[k] = vs
	}
	hr.Header.Set("Content-Type", protocol.ContentTypeJSON)
	hr.Header.Set("Accept", protocol.AcceptBoth)
	sid, version, modern := t.state()
	if sid != "" {
		hr.Header.Set(protocol.HeaderSessionID, sid)
	}
	// Legacy clients send the version header from 2025-06-18 on, after
	// initialize; modern clients on every request along with the method
	// and name headers.
	if version != "" && req.method != protocol.MethodInitialize && (modern || version >= protocol.V20250618) {
		hr.Header.Set(protocol.HeaderProtocolVersion, version)
	}
	if modern {
		hr.Header.Set(protocol.HeaderMethod, req.method)
		if req.name != "" {
			hr.Header.Set(protocol.HeaderName, protocol.EncodeHeaderValue(req.name))
		}
	}
	return hr, nil
}

func (t *httpTransport) call(ctx context.Context, req request) (*answer, error) {
	var first time.Time
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotFirstResponseByte: func() { first = time.Now() },
	})
	hr, err := t.newRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	sent := time.Now()
	resp, err := t.client.Do(hr)
	if err != nil {
		return nil, t.failure(ctx, req, err)
	}
	defer resp.Body.Close()
	if req.method == protocol.MethodInitialize {
		if sid := resp.Header.Get(protocol.HeaderSessionID); sid != "" {
			t.mu.Lock()
			t.sessionID = sid
			t.mu.Unlock()
		}
	}
	a, err := readHTTPAnswer(resp, req.id)
	if err != nil {
		return nil, t.failure(ctx, req, err)
	}
	a.sent, a.firstByte, a.done, a.status = sent, first, time.Now(), resp.StatusCode
	return a, nil
}

// failure turns an error into the right kind: a cancellation (after
// telling a legacy server), or a transport failure.
func (t *httpTransport) failure(ctx context.Context, req request, err error) error {
	if ctx.Err() != nil {
		// Closing the stream (done by the context) is the whole
		// cancellation in 2026-07-28; legacy servers also get the
		// notification.
		if _, _, modern := t.state(); !modern && req.id != 0 {
			t.postCancel(req.id)
		}
		return ctx.Err()
	}
	var se *statusError
	if errors.As(err, &se) {
		return err
	}
	return transportErr("%s %s: %v", req.method, t.url, err)
}

func (t *httpTransport) postCancel(id int64) {
	body, err := protocol.AppendRequest(nil, nil, protocol.MethodCancelled, map[string]any{"requestId": id, "reason": "cancelled by readbench"})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = t.notify(ctx, request{method: protocol.MethodCancelled, body: body})
}

func (t *httpTransport) notify(ctx context.Context, req request) error {
	hr, err := t.newRequest(ctx, req)
	if err != nil {
		return err
	}
	resp, err := t.client.Do(hr)
	if err != nil {
		return transportErr("%s %s: %v", req.method, t.url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode/100 != 2 {
		return &statusError{status: resp.StatusCode, method: req.method}
	}
	return nil
}

// close ends the session: DELETE when the server issued a session id.
func (t *httpTransport) close() error {
	sid, _, _ := t.state()
	if sid != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if hr, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil); err == nil {
			hr.Header.Set(protocol.HeaderSessionID, sid)
			if resp, err := t.client.Do(hr); err == nil {
				resp.Body.Close()
			}
		}
	}
	t.client.CloseIdleConnections()
	return nil
}

// statusError is an HTTP answer that carries no JSON-RPC response.
type statusError struct {
	status int
	method string
	body   string // a short excerpt, for the message
}

func (e *statusError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d %s", e.method, e.status, http.StatusText(e.status))
	switch e.status {
	case http.StatusNotAcceptable:
		msg += " (the server refused our Accept: " + protocol.AcceptBoth + ")"
	case http.StatusUnsupportedMediaType:
		msg += " (the server refused Content-Type: application/json)"
	}
	if e.body != "" {
		msg += ": " + e.body
	}
	return msg
}

// Unwrap makes a status error a transport failure for errors.Is.
func (e *statusError) Unwrap() error { return errTransport }

// readHTTPAnswer reads the response to request id from a JSON body or an
// SSE stream. Modern servers carry JSON-RPC errors on 400 and 404, so any
// status with a JSON-RPC body for our id (or null) is an answer.
func readHTTPAnswer(resp *http.Response, id int64) (*answer, error) {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
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
			return &answer{body: body, wireBytes: int64(len(body))}, nil
		}
		return nil, &statusError{status: resp.StatusCode, method: "request", body: excerpt(body)}
	default:
		body, _ := readBody(resp, 4096)
		if resp.StatusCode == http.StatusOK {
			return nil, transportErr("answer has Content-Type %q, want JSON or SSE", resp.Header.Get("Content-Type"))
		}
		return nil, &statusError{status: resp.StatusCode, method: "request", body: excerpt(body)}
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
func readSSEAnswer(body io.Reader, id int64) (*answer, error) {
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
			return &answer{body: bytes.Clone(ev.Data), wireBytes: wire}, nil
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

func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
