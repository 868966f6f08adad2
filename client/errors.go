package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// ErrTransport marks failures of the connection itself (a dead child, a
// refused connection, an HTTP status without a JSON-RPC answer): a load
// run counts the read's outcome as transport. Test with errors.Is.
var ErrTransport = errors.New("transport failure")

// transportErr marks a failure as a transport failure. format follows
// fmt.Errorf: a cause given with %w stays in the chain, so callers can
// errors.Is or errors.As it (a context error, a *net.OpError) as well as
// ErrTransport. Its text is masked (hideSecrets).
func transportErr(format string, args ...any) error {
	return hideSecrets(fmt.Errorf("%w: "+format, append([]any{ErrTransport}, args...)...))
}

// hideSecrets masks the secrets in err's text (targets.RedactSecrets),
// keeping err whole in the chain for errors.Is and errors.As. net/http
// quotes the URL it failed on (*url.Error: Post "https://h/mcp?token=…":
// dial tcp …), query included, and a failed read's message is printed,
// saved and pasted into CI logs.
func hideSecrets(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if masked := targets.RedactSecrets(msg); masked != msg {
		return &maskedError{err: err, msg: masked}
	}
	return err
}

// maskedError is an error whose text had secrets in it: Error is the
// masked text, Unwrap the error itself.
type maskedError struct {
	err error
	msg string
}

func (e *maskedError) Error() string { return e.msg }
func (e *maskedError) Unwrap() error { return e.err }

// ErrProtocol marks a peer that broke the transport's rules in a way no
// retry can fix (a request answered with 202 Accepted and no body): a
// server bug, not a network failure, so callers count it as a protocol
// outcome. Test with errors.Is.
var ErrProtocol = errors.New("protocol violation")

// protocolErr marks a failure as a protocol violation; a cause given with
// %w stays in the chain and the text is masked, as for transportErr.
func protocolErr(format string, args ...any) error {
	return hideSecrets(fmt.Errorf("%w: "+format, append([]any{ErrProtocol}, args...)...))
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
func (e *sessionExpiredError) Unwrap() error { return ErrTransport }

// StatusError is an HTTP answer that carries no JSON-RPC response (a 4xx or
// 5xx from a proxy or a server that refused the request). It unwraps to
// ErrTransport; errors.As tells it from a stream that simply ended.
type StatusError struct {
	status int
	method string
	body   string // a short excerpt, for the message (see statusBody)
}

// statusError is the StatusError of an HTTP answer without JSON-RPC: its
// body is cut to its first line, as a web server's HTML error page would
// otherwise fill the terminal.
func statusError(status int, method string, body []byte) *StatusError {
	return &StatusError{status: status, method: method, body: statusBody(body)}
}

// maxStatusBody bounds the excerpt of a body a StatusError quotes.
const maxStatusBody = 120

// statusBody is the first non-empty line of body, cut to maxStatusBody
// bytes (at a character boundary), with "…" when anything was left out.
func statusBody(body []byte) string {
	s := strings.TrimSpace(string(body))
	line, rest, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	cut := rest != ""
	if len(line) > maxStatusBody {
		line = strings.ToValidUTF8(line[:maxStatusBody], "")
		cut = true
	}
	if cut {
		line += " …"
	}
	return line
}

// Error says what was expected (a JSON-RPC answer), what arrived (the
// status and the body's first line) and, where the status or the body
// points at one, what to try.
func (e *StatusError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d %s", e.method, e.status, http.StatusText(e.status))
	switch e.status {
	case http.StatusNotAcceptable:
		msg += " (the server refused our Accept: " + protocol.AcceptBoth + ")"
	case http.StatusUnsupportedMediaType:
		msg += " (the server refused Content-Type: application/json)"
	}
	msg += ", not a JSON-RPC answer"
	if e.body != "" {
		msg += fmt.Sprintf(" (body: %q)", e.body)
	}
	if hint := e.hint(); hint != "" {
		msg += ": " + hint
	}
	return msg
}

// hint is what to try for a status that usually means the URL names no
// MCP endpoint: a web page, a path that does not exist, a server that
// takes no POST.
func (e *StatusError) hint() string {
	html := strings.HasPrefix(strings.ToLower(e.body), "<!doctype html") || strings.HasPrefix(strings.ToLower(e.body), "<html")
	switch {
	case html:
		return "the target answered with an HTML page; is it an MCP server, and is the URL its MCP endpoint (often /mcp; an HTTP+SSE server is targeted as sse+http://HOST:PORT/sse)?"
	case e.status == http.StatusNotFound || e.status == http.StatusMethodNotAllowed || e.status == http.StatusNotImplemented:
		return "is the URL the server's MCP endpoint (often /mcp; an HTTP+SSE server is targeted as sse+http://HOST:PORT/sse)?"
	}
	return ""
}

// Unwrap makes a status error a transport failure for errors.Is.
func (e *StatusError) Unwrap() error { return ErrTransport }
