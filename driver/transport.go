package driver

import (
	"context"
	"errors"
	"fmt"
	"time"
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
