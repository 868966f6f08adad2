package client

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// A server that forgot a session (restarted, or expired it) says so in
// its own way; the session then renews itself (session.go, renew).

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
		body, err := readBody(resp, 1<<20) // an error body: its start is enough
		if err != nil && !errors.Is(err, protocol.ErrTooLarge) {
			return transportErr("reading answer: %w", err)
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
