package client

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"
)

func response(status int, contentType, body string) *http.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body)), ContentLength: -1}
}

func TestReadHTTPAnswer(t *testing.T) {
	const answer = `{"jsonrpc":"2.0","id":7,"result":{"contents":[]}}`
	cases := []struct {
		why        string
		resp       *http.Response
		wantBody   string // "" when an error is expected
		wantWire   int64
		errContain string
	}{
		{"a JSON body", response(200, "application/json", answer), answer, int64(len(answer)), ""},
		{"a JSON body with parameters in its content type", response(200, "application/json; charset=utf-8", answer), answer, int64(len(answer)), ""},
		{"SSE: priming event, a notification, then the answer; framing counted",
			response(200, "text/event-stream", "id: 0\ndata:\n\n: keepalive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\ndata: "+answer+"\n\n"),
			answer, int64(len("id: 0\ndata:\n\n: keepalive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\ndata: " + answer + "\n\n")), ""},
		{"SSE: an answer to another id is skipped",
			response(200, "text/event-stream", `data: {"jsonrpc":"2.0","id":6,"result":{}}`+"\n\ndata: "+answer+"\n\n"), answer, 0, ""},
		{"SSE stream that ends before the answer", response(200, "text/event-stream", "data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n"), "", 0, "ended before the answer"},
		{"a modern JSON-RPC error carried on 400 is an answer",
			response(400, "application/json", `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch"}}`), `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch"}}`, 0, ""},
		{"an error with id null on 404 is an answer",
			response(404, "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"no"}}`), `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"no"}}`, 0, ""},
		{"a plain-text 500 is a transport failure with the body quoted", response(500, "text/plain", "database down"), "", 0, `HTTP 500 Internal Server Error, not a JSON-RPC answer (body: "database down")`},
		{"406 is explained", response(406, "", ""), "", 0, "refused our Accept"},
		{"415 is explained", response(415, "", ""), "", 0, "refused Content-Type"},
		{"200 with an unknown content type", response(200, "text/html", "<html>"), "", 0, `Content-Type "text/html"`},
	}
	for _, c := range cases {
		a, err := readHTTPAnswer(c.resp, 7, 0, nil)
		if c.wantBody == "" {
			if err == nil || !strings.Contains(err.Error(), c.errContain) || !errors.Is(err, ErrTransport) {
				t.Errorf("%s: err = %v, want a transport error containing %q", c.why, err, c.errContain)
			}
			continue
		}
		if err != nil || string(a.Body) != c.wantBody || (c.wantWire > 0 && a.WireBytes != c.wantWire) {
			t.Errorf("%s: got %v, %v", c.why, a, err)
		}
	}
}

// TestContentMediaType: the known types are what mime.ParseMediaType makes of
// them, and anything else goes through it.
func TestContentMediaType(t *testing.T) {
	for _, ct := range []string{
		"application/json", "text/event-stream", "Application/JSON", "application/json; charset=utf-8",
		"text/event-stream;charset=utf-8", "", "nonsense/", "application/json ",
	} {
		want, _, _ := mime.ParseMediaType(ct)
		if got := contentMediaType(ct); got != want {
			t.Errorf("%q: %q, mime.ParseMediaType %q", ct, got, want)
		}
	}
}
