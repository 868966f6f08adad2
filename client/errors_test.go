package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// TestErrorChainsSurvive: a client error keeps its cause in the chain, so
// a caller can errors.Is and errors.As it as well as the class of failure.
func TestErrorChainsSurvive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		class error
		cause error
	}{
		{"transport", transportErr("reading answer: %w", io.ErrUnexpectedEOF), ErrTransport, io.ErrUnexpectedEOF},
		{"protocol", protocolErr("endpoint: %w", context.Canceled), ErrProtocol, context.Canceled},
	} {
		if !errors.Is(tc.err, tc.class) || !errors.Is(tc.err, tc.cause) {
			t.Errorf("%s: %v is not both %v and %v", tc.name, tc.err, tc.class, tc.cause)
		}
	}
	rpc := &protocol.Error{Code: protocol.CodeInternal, Message: "boom"}
	var got *protocol.Error
	if err := transportErr("call: %w", rpc); !errors.As(err, &got) || got.Code != protocol.CodeInternal {
		t.Errorf("errors.As found %v in %v", got, err)
	}
}

// TestRefusedConnectionIsNetOpError: connecting to a port nobody listens
// on fails as a transport failure whose cause errors.As finds as the
// *net.OpError the dial returned.
func TestRefusedConnectionIsNetOpError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, target := range []string{"http://" + addr + "/mcp", "range+http://" + addr + "/files/"} {
		tg, err := targets.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Open(context.Background(), Dial{Target: tg})
		var op *net.OpError
		if !errors.Is(err, ErrTransport) || !errors.As(err, &op) {
			t.Errorf("%s: %v (%T): want ErrTransport with a *net.OpError cause", target, err, err)
		}
	}
}

// TestTransportErrorHidesQuerySecrets: net/http quotes the URL it failed
// on (Post "http://h/mcp?token=…": dial tcp …) and its *url.Error stays in
// the chain, but the failure's text masks the URL's secret query
// parameters, over each transport (issue 47, item 18).
func TestTransportErrorHidesQuerySecrets(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, target := range []string{
		"http://" + addr + "/mcp?token=q-secret-1",
		"sse+http://" + addr + "/sse?access_token=q-secret-2&x=1",
		"range+http://u:q-secret-3@" + addr + "/files/",
	} {
		tg, err := targets.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Open(context.Background(), Dial{Target: tg})
		var ue *url.Error
		switch {
		case err == nil:
			t.Errorf("%s: connected to a closed port", target)
		case strings.Contains(err.Error(), "q-secret"):
			t.Errorf("%s: the error shows the secret: %v", target, err)
		case !strings.Contains(err.Error(), "xxxxx"):
			t.Errorf("%s: the error does not name the URL, masked: %v", target, err)
		case !errors.Is(err, ErrTransport) || !errors.As(err, &ue):
			t.Errorf("%s: %v (%T): want ErrTransport with a *url.Error cause", target, err, err)
		}
	}
}

// TestStatusErrorSaysWhatArrived: a web server's HTML error page is quoted
// by its first line only, and the message says what was expected and what
// to try; a long line is cut at a character boundary.
func TestStatusErrorSaysWhatArrived(t *testing.T) {
	page := "<!DOCTYPE HTML>\n<html lang=\"en\">\n<head><title>Error response</title></head>\n<body>Error code: 501</body></html>\n"
	long := strings.Repeat("é", 200)
	cases := []struct {
		status      int
		body        string
		want, never []string
	}{
		{501, page, []string{`initialize: HTTP 501 Not Implemented, not a JSON-RPC answer (body: "<!DOCTYPE HTML> …")`, "an HTML page", "often /mcp"}, []string{"<html", "Error code"}},
		{404, "404 page not found", []string{`HTTP 404 Not Found, not a JSON-RPC answer (body: "404 page not found"): is the URL the server's MCP endpoint`}, nil},
		{500, long, []string{"é …\")"}, []string{strings.Repeat("é", 61)}},
		{503, "", []string{"HTTP 503 Service Unavailable, not a JSON-RPC answer"}, []string{"body:", "MCP endpoint"}},
	}
	for _, c := range cases {
		msg := statusError(c.status, "initialize", []byte(c.body)).Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("HTTP %d: %q does not contain %q", c.status, msg, w)
			}
		}
		for _, n := range c.never {
			if strings.Contains(msg, n) {
				t.Errorf("HTTP %d: %q contains %q", c.status, msg, n)
			}
		}
		if !utf8.ValidString(msg) || strings.Contains(msg, "\n") {
			t.Errorf("HTTP %d: %q is not one line of valid UTF-8", c.status, msg)
		}
	}
}

// TestHandshakeNonMCPTarget: a web server that is no MCP server fails the
// handshake with one "initialize:", not two, and without its page.
func TestHandshakeNonMCPTarget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotImplemented)
		io.WriteString(w, "<!DOCTYPE HTML>\n<html><body>Unsupported method ('POST')</body></html>\n")
	}))
	defer srv.Close()
	target, err := targets.Parse(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := Connect(context.Background(), Dial{Target: target})
	if err == nil {
		s.Close()
		t.Fatal("a web server passed the handshake")
	}
	msg := err.Error()
	if strings.Contains(msg, "initialize: initialize:") || strings.Contains(msg, "Unsupported method") || !strings.Contains(msg, "initialize: HTTP 501") {
		t.Errorf("handshake error: %s", msg)
	}
}

// TestHandshakeTimeoutNamed: a target that accepts the request and never
// answers fails when Dial.HandshakeTimeout expires, with an error naming
// the limit and the flag that sets it; the caller's own deadline is left
// as it is.
func TestHandshakeTimeoutNamed(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // never answers: waits for the client to give up
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	target, err := targets.Parse(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Connect(context.Background(), Dial{Target: target, HandshakeTimeout: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no answer within the handshake timeout of 100ms (--handshake-timeout sets it") {
		t.Errorf("err = %v, want the limit and its flag named", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v: the deadline must stay in the chain", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, _, err = Connect(ctx, Dial{Target: target, HandshakeTimeout: time.Hour})
	if err == nil || strings.Contains(err.Error(), "handshake timeout") {
		t.Errorf("the caller's deadline: err = %v, want no handshake timeout blamed", err)
	}
}
