package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// Every wait of the client ends with its context, whatever the server
// does: these servers stop reading, never print, or keep a stream open
// with keep-alive comments and never answer.

// within fails the test when f has not returned after limit: the bug
// these tests catch is a wait that never ends.
func within(t *testing.T, limit time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s: still waiting after %v", what, limit)
	}
}

// bigRequest is a request of about n bytes: a few of them fill a pipe.
func bigRequest(id int64, n int) Request {
	body, _ := protocol.AppendRequest(nil, protocol.IntID(id), protocol.MethodResourcesRead, map[string]any{"uri": "docs://" + strings.Repeat("x", n)})
	return Request{ID: id, method: protocol.MethodResourcesRead, body: body}
}

// TestStdioWedgedChildTimesOut: a child that stays alive but stops
// reading its stdin fills the pipe; each read still ends at its timeout
// (writes never block a caller past its context), the cancellations sent
// for them never block either, and closing the session ends the child.
func TestStdioWedgedChildTimesOut(t *testing.T) {
	tr, err := startStdio(peertest.Command(t, wedgedStdioPeer), nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			_ = tr.close()
		}
	}()
	if _, err := tr.call(context.Background(), testRequest(1, "x/first")); err != nil {
		t.Fatal(err) // answered before the child wedged
	}
	for id := int64(2); id < 12; id++ { // 10 × 64 KiB: far more than a pipe holds
		within(t, 3*time.Second, fmt.Sprintf("read %d against a child that stopped reading", id), func() {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := tr.call(ctx, bigRequest(id, 64<<10))
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("read %d: %v, want the read timeout", id, err)
			}
			if took := time.Since(start); took > time.Second {
				t.Errorf("read %d took %v for a 200ms timeout", id, took)
			}
		})
	}
	within(t, 10*time.Second, "closing the session of a wedged child", func() { _ = tr.close() })
	closed = true
}

// TestStdioChildThatNeverPrints: the handshake with a child that reads
// everything and answers nothing ends with the caller's context.
func TestStdioChildThatNeverPrints(t *testing.T) {
	argv := peertest.Command(t, silentStdioPeer)
	within(t, 5*time.Second, "connecting to a child that never prints", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		_, _, err := Connect(ctx, Dial{Target: targets.Target{Kind: targets.Stdio, Argv: argv}})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("connect: %v, want the context's deadline", err)
		}
	})
}

// keepAliveOnly answers every POST with an SSE stream of keep-alive
// comments and never the answer, until the client goes away.
func keepAliveOnly(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for range 500 { // at most 10 s
		if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// TestHTTPSSEKeepAlivesNeverAnswer: a Streamable HTTP answer stream that
// carries only comments times the read out; so does an HTTP+SSE session
// whose stream carries only comments.
func TestHTTPSSEKeepAlivesNeverAnswer(t *testing.T) {
	hs := peertest.ServeLocal(t, http.HandlerFunc(keepAliveOnly))
	tr := newHTTPTransport(hs.URL, nil, 0)
	defer tr.close()
	within(t, 3*time.Second, "a Streamable HTTP read answered only with keep-alives", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if _, err := tr.call(ctx, testRequest(1, protocol.MethodResourcesRead)); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("read: %v, want the read timeout", err)
		}
	})

	f := newFakeSSE(t, func(_ []byte, send func(string)) {
		for range 20 {
			send(": keep-alive\n\n")
		}
	})
	st := f.start(t, nil)
	within(t, 3*time.Second, "an HTTP+SSE read answered only with keep-alives", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if _, err := st.call(ctx, testRequest(1, protocol.MethodResourcesRead)); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("read: %v, want the read timeout", err)
		}
	})
}

// TestHTTPHeadersNeverSent: a server that accepts the request and never
// sends its response headers holds a read only until its timeout.
func TestHTTPHeadersNeverSent(t *testing.T) {
	hs := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // read: net/http then sees the client leave
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	tr := newHTTPTransport(hs.URL, nil, 0)
	defer tr.close()
	within(t, 3*time.Second, "a read whose response headers never come", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if _, err := tr.call(ctx, testRequest(1, protocol.MethodResourcesRead)); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("read: %v, want the read timeout", err)
		}
	})
}

// TestStreamableHTTPRepliesToServerRequests: a server that sends a ping
// on a read's stream and answers only once the client replied gets its
// reply (POSTed, as the transport says), and the read its answer.
func TestStreamableHTTPRepliesToServerRequests(t *testing.T) {
	replied := make(chan string, 1)
	var posts atomic.Int32
	hs := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		m, err := decodeBody(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if m.IsResponse() { // the client's reply to our ping
			replied <- string(m.ID) + " " + string(m.Result)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-9\",\"method\":\"ping\"}\n\n")
		w.(http.Flusher).Flush()
		select {
		case got := <-replied:
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"reply\":%q}}\n\n", m.ID, got)
		case <-time.After(3 * time.Second):
		}
	}))
	tr := newHTTPTransport(hs.URL, nil, 0)
	defer tr.close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a, err := tr.call(ctx, testRequest(4, protocol.MethodResourcesRead))
	if err != nil || !strings.Contains(string(a.Body), `"srv-9\" {}`) {
		t.Fatalf("read: %v %v; want the answer sent after the ping was answered", a, err)
	}
}

// decodeBody reads one JSON-RPC message from a request body.
func decodeBody(r *http.Request) (*protocol.Message, error) {
	b, err := readBody(&http.Response{Body: r.Body}, 1<<20)
	if err != nil {
		return nil, err
	}
	return protocol.Decode(b)
}
