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
