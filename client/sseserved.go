package client

import (
	"errors"
	"fmt"
)

// streamServedError is the failure of an HTTP+SSE session whose GET
// stream the server served (its endpoint event came) before the handshake
// failed. A server that keeps one global SSE transport serves the first
// client's stream, then lets a second client's GET replace or refuse it:
// the first session's handshake then fails on its POST, and the mark that
// its stream was served is what tells that apart from a server that is
// down or of another transport. The message is err's own.
type streamServedError struct{ err error }

func (e *streamServedError) Error() string { return e.err.Error() }
func (e *streamServedError) Unwrap() error { return e.err }

// SSEStreamServed says err is the failure of an HTTP+SSE session whose
// GET stream the server had served: the server is up and speaks HTTP+SSE,
// whatever the failure says.
func SSEStreamServed(err error) bool {
	var e *streamServedError
	return errors.As(err, &e)
}

// sseGetError is an HTTP+SSE GET answered with something other than an
// event stream (a status other than 200, or another Content-Type). Unless
// served, its message adds that a Streamable HTTP server is targeted as
// http://: the likely mistake when nothing says the server speaks
// HTTP+SSE; once another session's stream was served (ServerStarted),
// that advice would send the user after the wrong cause.
type sseGetError struct {
	url, ctype, body string
	status           int
	served           bool
}

func (e *sseGetError) Error() string {
	hint := " (an HTTP+SSE server answers the GET with a text/event-stream; a Streamable HTTP server is targeted as http://...)"
	if e.served {
		hint = ""
	}
	return fmt.Sprintf("GET %s: HTTP %d, Content-Type %q%s: %s", e.url, e.status, e.ctype, hint, e.body)
}

// getRefused is the transport error of an HTTP+SSE GET that was not
// answered with an event stream.
func getRefused(e *sseGetError) error {
	return hideSecrets(fmt.Errorf("%w: %w", ErrTransport, e))
}
