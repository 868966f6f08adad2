package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// deadlineServer answers a read of a uri holding "fast" at once and
// holds any other read until the client leaves; each notification it is
// POSTed goes to notes.
func deadlineServer(t *testing.T, notes chan<- []byte) string {
	return peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     *int64 `json:"id"`
			Params struct {
				URI string `json:"uri"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &m) != nil {
			http.Error(w, "not JSON", http.StatusBadRequest)
			return
		}
		if m.ID == nil {
			notes <- body
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if !strings.Contains(m.Params.URI, "fast") {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+jsonInt(*m.ID)+`,"result":{"contents":[{"uri":"`+m.Params.URI+`","text":"ok"}]}}`)
	})).URL
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestReadDeadline: a read's ReadSpec.Deadline ends it as a context with
// that deadline and cause would, whichever way the read goes over HTTP
// (an h1.Post with the deadline on its connection, or an http.Request
// under a context): at the deadline, with an error that is its cause and
// context.DeadlineExceeded, after telling a legacy server with the cause
// as the reason; a read that answers in time is untouched by it.
func TestReadDeadline(t *testing.T) {
	errCause := errors.New("read timeout")
	for _, c := range []struct {
		name    string
		version string
		sid     string
		light   bool
	}{
		{"stateless, h1.Post", protocol.V20260728, "", true},
		{"stateless, http.Request", protocol.V20260728, "", false},
		{"legacy session, h1.Post", protocol.V20250618, "sid-1", true},
		{"legacy session, http.Request", protocol.V20250618, "sid-1", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			notes := make(chan []byte, 4)
			tr := newHTTPTransport(deadlineServer(t, notes), nil, 0)
			defer tr.close()
			if !c.light {
				tr.fixed.lines = nil // the http.Request way
			}
			modern := protocol.IsModern(c.version)
			tr.setEra(c.version, modern)
			tr.sessionID = c.sid
			s := &Session{t: tr, modern: modern, version: c.version, client: Implementation{Name: "readbench", Version: "test"}}
			if h, _, _ := tr.lightPost(Request{method: protocol.MethodResourcesRead, read: &readSpec{}}); (h != nil) != c.light {
				t.Fatalf("h1.Post %v, want %v", h != nil, c.light)
			}

			a, err := s.ReadDocument(context.Background(), "sim:///fast", ReadSpec{Deadline: time.Now().Add(5 * time.Second), DeadlineCause: errCause})
			if err != nil || a.Outcome != stats.OK {
				t.Fatalf("a read in time: %v %v %s", err, a.Outcome, a.Detail)
			}

			start := time.Now()
			_, err = s.ReadDocument(context.Background(), "sim:///slow", ReadSpec{Deadline: start.Add(200 * time.Millisecond), DeadlineCause: errCause})
			took := time.Since(start)
			if !errors.Is(err, errCause) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("a read past its deadline: %v, want the cause and context.DeadlineExceeded", err)
			}
			if took < 200*time.Millisecond || took > 3*time.Second {
				t.Errorf("a read past its deadline ended after %v, want at 200ms", took)
			}
			if modern {
				return // closing the stream is the whole cancellation
			}
			var note struct {
				Method string `json:"method"`
				Params struct {
					Reason string `json:"reason"`
				} `json:"params"`
			}
			select {
			case msg := <-notes:
				if err := json.Unmarshal(msg, &note); err != nil {
					t.Fatal(err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no notifications/cancelled was POSTed")
			}
			if note.Method != protocol.MethodCancelled || note.Params.Reason != errCause.Error() {
				t.Errorf("cancellation %+v, want %s with reason %q", note, protocol.MethodCancelled, errCause)
			}
		})
	}
}

// TestReadDeadlineWithinContext: a reader that has no connection to put
// a deadline on (the script transport, a stdio child's way) reads under
// a context with it, and says so the same way.
func TestReadDeadlineWithinContext(t *testing.T) {
	errCause := errors.New("read timeout")
	s := &Session{version: protocol.V20250618, t: &blockingTransport{}}
	start := time.Now()
	_, err := s.ReadDocument(context.Background(), "docs://x", ReadSpec{Deadline: start.Add(100 * time.Millisecond), DeadlineCause: errCause})
	if !errors.Is(err, errCause) || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("%v after %v, want the cause and context.DeadlineExceeded at 100ms", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := s.ReadDocument(ctx, "docs://x", ReadSpec{Deadline: time.Now().Add(time.Minute), DeadlineCause: errCause}); !errors.Is(err, context.Canceled) || errors.Is(err, errCause) {
		t.Fatalf("a read whose context ended first: %v, want context.Canceled", err)
	}
}

// blockingTransport answers nothing: every call waits for its context.
type blockingTransport struct{}

func (blockingTransport) call(ctx context.Context, _ Request) (*Response, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
func (blockingTransport) notify(context.Context, Request) error { return nil }
func (blockingTransport) setEra(string, bool)                   {}
func (blockingTransport) close() error                          { return nil }
