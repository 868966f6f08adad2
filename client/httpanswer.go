package client

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Reading a Streamable HTTP answer: one JSON body or an SSE stream,
// bounded by the answer size limit as the bytes arrive.

// readHTTPAnswer reads the response to request id from a JSON body or an
// SSE stream, at most maxAnswer bytes of it; reply, when set, is handed
// the reply to each request the server sends on an SSE stream. Modern
// servers carry JSON-RPC errors on 400 and 404, so any status with a
// JSON-RPC body for our id (or null) is an answer.
func readHTTPAnswer(resp *http.Response, id, maxAnswer int64, reply func([]byte)) (*Response, error) {
	// Headers are read before the body: a read's response (h1.Post) has
	// its connection's Header, which the connection's next response fills.
	contentType := resp.Header.Get("Content-Type")
	ct, _, _ := mime.ParseMediaType(contentType)
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return nil, protocolErr("the server answered a request with 202 Accepted, which only acknowledges a notification: a request must be answered with application/json or text/event-stream")
	case ct == protocol.ContentTypeSSE && resp.StatusCode == http.StatusOK:
		return readSSEAnswer(resp.Body, id, maxAnswer, reply)
	case ct == protocol.ContentTypeJSON:
		limit := answerLimit(maxAnswer)
		if resp.StatusCode != http.StatusOK {
			limit = 1 << 20 // error bodies are small; do not trust them to be
		} else if resp.ContentLength > limit {
			return nil, &tooLargeError{limit: limit, read: resp.ContentLength, announced: true}
		}
		body, err := readBody(resp, limit)
		switch {
		case errors.Is(err, protocol.ErrTooLarge) && resp.StatusCode == http.StatusOK:
			return nil, tooLargeErr(limit, int64(len(body))+1) // a byte past the limit was read
		case err != nil && !errors.Is(err, protocol.ErrTooLarge):
			return nil, transportErr("reading answer: %w", err)
		}
		if resp.StatusCode == http.StatusOK {
			if got, ok := answerID(body); ok && string(got) != "null" && !idIs(got, id) {
				return nil, protocolErr("the answer's id is %s, the request's %d: an answer to another request", excerpt(got), id)
			}
			return &Response{Body: body, WireBytes: int64(len(body))}, nil
		}
		if isAnswerFor(body, id) {
			return &Response{Body: body, WireBytes: int64(len(body))}, nil
		}
		return nil, statusError(resp.StatusCode, "request", body)
	default:
		body, _ := readBody(resp, 4096)
		if resp.StatusCode == http.StatusOK {
			return nil, transportErr("answer has Content-Type %q, want JSON or SSE", contentType)
		}
		return nil, statusError(resp.StatusCode, "request", body)
	}
}

// readBody reads at most limit bytes of a body. The buffer grows with
// what arrives and is never sized from a header: a Content-Length that
// claims gigabytes costs nothing. A body longer than limit stops the read
// there; the error then wraps protocol.ErrTooLarge and the bytes are the
// first limit ones.
//
// The buffer doubles as it fills but never grows past limit bytes
// (growKept): bytes.Buffer's growth reserved up to twice the limit. A
// full buffer of limit bytes is not grown to learn whether more comes: a
// byte of its own is read for that. (Grown to limit+1, a 32 MiB limit
// reached by doubling took a second buffer of 32 MiB: three times the
// limit allocated, twice held, for one byte.)
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(512, limit))
	for {
		if len(b) == cap(b) && int64(len(b)) >= limit {
			var more [1]byte
			k, err := io.ReadAtLeast(resp.Body, more[:], 1)
			if k > 0 {
				return b[:limit], &protocol.TooLargeError{Limit: limit, Read: int64(len(b) + k)}
			}
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return b, nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = growKept(b, len(b)+1, limit)
		}
		k, err := resp.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// readSSEAnswer skips notifications until the response with our id; every
// byte read counts as wire bytes. A request the server sends meanwhile
// (a ping, sampling/createMessage) gets its reply through reply (nil:
// none). An event over maxAnswer ends the read there.
func readSSEAnswer(body io.Reader, id, maxAnswer int64, reply func([]byte)) (*Response, error) {
	r := protocol.NewSSEReader(body)
	r.SetMax(answerLimit(maxAnswer))
	var wire int64
	for {
		ev, err := r.Next()
		wire += ev.WireBytes
		var tl *protocol.TooLargeError
		if errors.As(err, &tl) {
			return nil, tooLargeErr(tl.Limit, wire)
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, transportErr("SSE stream ended before the answer: %w", err)
		}
		if len(ev.Data) == 0 || (ev.Name != "" && ev.Name != "message") {
			continue // priming events and other event types
		}
		if isAnswerFor(ev.Data, id) {
			return &Response{Body: bytes.Clone(ev.Data), WireBytes: wire}, nil
		}
		if sid, method := routing(ev.Data); method != "" && sid != nil && reply != nil {
			reply(replyToServer(sid, method))
		}
	}
}

// answerID returns a message's top-level id, stopping at it: an answer's
// id comes before its payload in every server readbench has met, so the
// payload is not scanned twice.
func answerID(msg []byte) (id []byte, ok bool) {
	errFound := errors.New("found")
	_ = protocol.ObjectFields(msg, func(k, v []byte) error {
		if string(k) == "id" {
			id, ok = v, true
			return errFound
		}
		return nil
	})
	return id, ok
}

// idIs reports whether the raw id is the integer id.
func idIs(raw []byte, id int64) bool {
	n, ok := protocol.ParseIntID(raw)
	return ok && n == id
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
