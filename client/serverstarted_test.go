package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestServerStarted: a handshake timeout said of a server known to be up
// drops the slow-start advice and keeps the limit, what sets it and what
// the handshake was doing; other errors, and a timeout wrapped in another
// message, are left as they are.
func TestServerStarted(t *testing.T) {
	he := &handshakeTimeoutError{limit: 2 * time.Second, setBy: "--handshake-timeout sets it", err: fmt.Errorf("initialize: %w", context.DeadlineExceeded)}
	if !strings.Contains(he.Error(), "starts slowly") {
		t.Fatalf("%q: the advice is gone from a plain timeout", he)
	}
	got := ServerStarted(he)
	if msg := got.Error(); strings.Contains(msg, "starts slowly") ||
		msg != "no answer within the handshake timeout of 2s (--handshake-timeout sets it): initialize: context deadline exceeded" {
		t.Errorf("server started: %q", msg)
	}
	if !errors.Is(got, context.DeadlineExceeded) || !strings.Contains(he.Error(), "starts slowly") {
		t.Errorf("the copy must unwrap alike and leave the original whole: %v / %v", got, he)
	}
	other := errors.New("HTTP 409")
	if ServerStarted(other) != other {
		t.Error("another error changed")
	}
	wrapped := fmt.Errorf("%w; 2 stray lines", he)
	if ServerStarted(wrapped) != wrapped {
		t.Error("a wrapped timeout changed")
	}
}

// TestServerStartedSSE: once the server is known to speak HTTP+SSE (a
// session's stream was served), a refused GET drops its advice that a
// Streamable HTTP server may be targeted as HTTP+SSE, and a handshake
// timeout under the served mark drops its slow-start advice, the mark
// kept (issue 47, item 4).
func TestServerStartedSSE(t *testing.T) {
	const wrong = "a Streamable HTTP server is targeted as http://"
	get := getRefused(&sseGetError{url: "http://127.0.0.1:1/sse", status: 500, body: "Already connected to a transport"})
	if !strings.Contains(get.Error(), wrong) || !errors.Is(get, ErrTransport) {
		t.Fatalf("refused GET: %v", get)
	}
	said := ServerStarted(get)
	if strings.Contains(said.Error(), wrong) || !strings.Contains(said.Error(), "transport failure: GET http://127.0.0.1:1/sse: HTTP 500") ||
		!errors.Is(said, ErrTransport) || SSEStreamServed(said) {
		t.Errorf("refused GET, server started: %v", said)
	}
	timeout := &streamServedError{err: &handshakeTimeoutError{limit: time.Second, setBy: "--handshake-timeout sets it", err: context.DeadlineExceeded}}
	if !strings.Contains(timeout.Error(), "starts slowly") || !SSEStreamServed(timeout) {
		t.Fatalf("served, timed out: %v", timeout)
	}
	if said := ServerStarted(timeout); strings.Contains(said.Error(), "starts slowly") || !SSEStreamServed(said) {
		t.Errorf("served, timed out, server started: %v (served %v)", said, SSEStreamServed(said))
	}
}
