package client

import (
	"context"
	"sync"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Request is one encoded JSON-RPC request or notification. Build one with
// Session.NewRequest when the id must be known before the answer (to
// cancel it by hand, as the contract check does).
type Request struct {
	ID     int64  // 0 for notifications
	method string // for headers and errors
	name   string // Mcp-Name header value (the uri of a read); "" when none
	body   []byte
	read   *readSpec            // a read: its answer is classified as it streams in
	trace  protocol.TraceParent // a read's trace context, for the traceparent header (tracecontext.go)
	// accepted, when set, is told when the request is on the server's side
	// of the transport (see OnAccepted).
	accepted func(at time.Time)
	// cancelInline, on stdio, writes the request's notifications/cancelled
	// before the call returns instead of in the background: a listen's
	// cancel is its unsubscribe, and whatever its closer sends next (a
	// change, say) must not overtake it on the server's stdin.
	cancelInline bool
}

// OnAccepted returns req with f called once the request is on the
// server's side of the transport: on stdio when its line is written to
// the child's stdin, over HTTP+SSE when the POST was accepted (2xx), over
// Streamable HTTP when the POST's body was written. A cancellation sent
// before then may overtake its request, so the contract check cancels
// only afterwards. f is called at most once, from the transport's
// goroutine; a request that fails before then never calls it.
func (r Request) OnAccepted(f func(at time.Time)) Request {
	r.accepted = f
	return r
}

// acceptedOnce returns r with its OnAccepted hook, if any, called at most
// once however many times r is sent: a request whose token was refused is
// sent again, and its hook was told by the first attempt.
func (r Request) acceptedOnce() Request {
	if f := r.accepted; f != nil {
		var once sync.Once
		r.accepted = func(at time.Time) { once.Do(func() { f(at) }) }
	}
	return r
}

// tellAccepted calls the OnAccepted hook, if any.
func (r Request) tellAccepted() {
	if r.accepted != nil {
		r.accepted(time.Now())
	}
}

// Response is the JSON-RPC response message to one request, with its
// timing: what a transport delivers (Session.Do, the read tool's parts).
// Body is the message exactly as received. A read of a document ends in
// an Answer (ReadDocument), which is built from one or more responses;
// a resources/read's own response carries no body but that Answer's
// classification, made as it streamed in.
type Response struct {
	Body      []byte
	WireBytes int64 // bytes received for it, framing included
	Sent      time.Time
	FirstByte time.Time // zero when the transport cannot tell
	Done      time.Time
	Status    int // HTTP status; 0 on stdio
	// FreshToken is true when the request was a read (resources/read, a
	// read tool part) and the first of its session to carry its bearer
	// token (Dial.Auth): the server met that token for the first time.
	FreshToken bool

	// read is what a resources/read's answer is, classified by the
	// transport as it streamed in (scannedAnswer); nil when the transport
	// had the answer whole (Session.read classifies it then) and for any
	// other request.
	read *Answer

	// err, when set, is what a shared stream found instead of an answer
	// (one over the size limit): the transport returns it to the caller
	// rather than the Response.
	err error
}

// transport moves messages. Implementations are safe for concurrent use:
// many reads are in flight on one session.
type transport interface {
	// call sends req and waits for the response with the same id. When ctx
	// ends first it cancels the request the way the transport and era say
	// and returns ctx's error.
	call(ctx context.Context, req Request) (*Response, error)
	// notify sends a notification; nothing comes back.
	notify(ctx context.Context, req Request) error
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
