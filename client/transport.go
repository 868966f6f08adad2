package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/readbench/readbench/protocol"
)

// request is one encoded JSON-RPC request or notification.
type request struct {
	id     int64  // 0 for notifications
	method string // for headers and errors
	name   string // Mcp-Name header value (the uri of a read); "" when none
	body   []byte
}

// answer is the response message to one request, with its timing.
type answer struct {
	body      []byte // the JSON-RPC response message, exactly as received
	wireBytes int64  // bytes received for it, framing included
	sent      time.Time
	firstByte time.Time // zero when the transport cannot tell
	done      time.Time
	status    int // HTTP status; 0 on stdio
}

// transport moves messages. Implementations are safe for concurrent use:
// many reads are in flight on one session.
type transport interface {
	// call sends req and waits for the response with the same id. When ctx
	// ends first it cancels the request the way the transport and era say
	// and returns ctx's error.
	call(ctx context.Context, req request) (*answer, error)
	// notify sends a notification; nothing comes back.
	notify(ctx context.Context, req request) error
	// setEra tells the transport which protocol version the session speaks
	// (headers and the way to cancel depend on it).
	setEra(version string, modern bool)
	close() error
}

// legacyOnlyTransport is implemented by transports that exist only in the
// handshake era (the 2024-11-05 HTTP+SSE transport): the session never
// probes them with server/discover, and initializes with legacyVersion
// unless a handshake-era version is forced.
type legacyOnlyTransport interface {
	transport
	legacyVersion() string
}

// sessionIDTransport is implemented by transports whose server may issue
// a session id (Streamable HTTP in the handshake era). The session uses it
// to tell whether an expired session has already been renewed by another
// read.
type sessionIDTransport interface {
	transport
	liveSessionID() string
}

// lateFunc receives an answer that arrived after its read was cancelled:
// the server did not honour the cancellation.
type lateFunc func(wireBytes int64, afterCancel time.Duration)

// errTransport marks failures of the connection itself (a dead child, a
// refused connection, an HTTP status without a JSON-RPC answer): the read's
// outcome is transport.
var errTransport = errors.New("transport failure")

// transportErr wraps a cause as a transport failure.
func transportErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errTransport, fmt.Sprintf(format, args...))
}

// errProtocolViolation marks a peer that broke the transport's rules in a
// way no retry can fix (a request answered with 202 Accepted and no body):
// a server bug, not a network failure, so callers that can tell count it
// as a protocol outcome.
var errProtocolViolation = errors.New("protocol violation")

// protocolErr wraps a cause as a protocol violation.
func protocolErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errProtocolViolation, fmt.Sprintf(format, args...))
}

// sessionExpiredError is a handshake-era Streamable HTTP server saying
// that the session id a request carried is no longer known (404, or a 400
// whose body says so). The session re-initializes and retries the request
// once; when that fails too the error stands as a transport failure.
type sessionExpiredError struct {
	sessionID string // the id the request carried: the one that expired
	method    string
	status    int
	body      string // a short excerpt of the server's explanation
}

func (e *sessionExpiredError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d: the server no longer knows the session", e.method, e.status)
	if e.body != "" {
		msg += ": " + e.body
	}
	return msg
}

// Unwrap makes an expired session a transport failure for errors.Is.
func (e *sessionExpiredError) Unwrap() error { return errTransport }

// cancelReason is the reason a notifications/cancelled gives: the turn's
// deadline or the read's own timeout.
func cancelReason(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), errReadTimeout) {
		return "read timeout"
	}
	return "turn deadline"
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

// maxTombs bounds the memory kept for cancelled requests whose answer may
// still come; the oldest are forgotten first.
const maxTombs = 1 << 16

// tombstones remembers when requests were cancelled, so that an answer
// arriving after all is counted as late. It is bounded: past maxTombs the
// oldest are forgotten first.
type tombstones struct {
	at    map[int64]time.Time
	order []int64 // insertion order; may still hold ids already taken
}

func (ts *tombstones) add(id int64, at time.Time) {
	if ts.at == nil {
		ts.at = make(map[int64]time.Time)
	}
	for len(ts.at) >= maxTombs && len(ts.order) > 0 {
		delete(ts.at, ts.order[0])
		ts.order = ts.order[1:]
	}
	if len(ts.order) > 2*len(ts.at)+64 { // drop ids already taken
		kept := ts.order[:0]
		for _, k := range ts.order {
			if _, ok := ts.at[k]; ok {
				kept = append(kept, k)
			}
		}
		ts.order = kept
	}
	ts.at[id] = at
	ts.order = append(ts.order, id)
}

// take removes id and returns when it was cancelled.
func (ts *tombstones) take(id int64) (time.Time, bool) {
	at, ok := ts.at[id]
	if ok {
		delete(ts.at, id)
	}
	return at, ok
}

// routing reads a message's id (raw) and method.
func routing(msg []byte) (id []byte, method string) {
	_ = protocol.ObjectFields(msg, func(k, v []byte) error {
		switch string(k) {
		case "id":
			id = v
		case "method":
			method = string(bytes.Trim(v, `"`))
		}
		return nil
	})
	return id, method
}
