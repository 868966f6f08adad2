package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// slowAckSSE is an HTTP+SSE server that holds the acknowledgement (202)
// of the read's POST until the test releases it, and records the order in
// which things reached it: "read" (the read's POST arrived), "accepted"
// (its 202 was written), "cancel" (a notifications/cancelled arrived).
type slowAckSSE struct {
	release chan int // the status the held POST answers with
	mu      sync.Mutex
	order   []string
	seen    chan string
	end     chan struct{} // closed when the test ends: nothing is held any more
}

func (f *slowAckSSE) note(what string) {
	f.mu.Lock()
	f.order = append(f.order, what)
	f.mu.Unlock()
	select {
	case f.seen <- what:
	case <-f.end:
	}
}

func (f *slowAckSSE) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /post\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-f.end:
		}
	case r.Method == http.MethodPost:
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		if strings.Contains(string(body), protocol.MethodCancelled) {
			f.note("cancel")
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if strings.Contains(string(body), `"`+protocol.MethodPing+`"`) {
			f.note("probe") // the ping that follows a cancel
			w.WriteHeader(http.StatusAccepted)
			return
		}
		f.note("read")
		var status int
		select {
		case status = <-f.release: // held: the client's read is cut meanwhile
		case <-f.end:
			return
		}
		w.WriteHeader(status)
		if status == http.StatusAccepted {
			f.note("accepted")
		}
	}
}

// TestSSECancelWaitsForTheAccept: a read cut while its POST is not yet
// acknowledged returns at once, but its notifications/cancelled is POSTed
// only after the server acknowledged the read (a cancel sent before could
// overtake its request on another connection); when the read's POST
// fails, no cancel is sent at all: the server never had the request.
func TestSSECancelWaitsForTheAccept(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		want   []string
	}{
		{"accepted late", http.StatusAccepted, []string{"read", "accepted", "cancel", "probe"}},
		{"refused", http.StatusServiceUnavailable, []string{"read"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &slowAckSSE{release: make(chan int, 1), seen: make(chan string, 8), end: make(chan struct{})}
			hs := peertest.ServeLocal(t, http.HandlerFunc(f.serve))
			t.Cleanup(func() { close(f.end) }) // before the server's Close, which waits for its handlers
			sctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
			defer stop()
			tr, err := startSSE(sctx, hs.URL+"/sse", nil, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.close()
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			returned := make(chan error, 1)
			go func() {
				_, err := tr.call(ctx, testRequest(7, protocol.MethodResourcesRead))
				returned <- err
			}()
			if got := wait(t, f.seen); got != "read" {
				t.Fatalf("first arrival %q, want the read", got)
			}
			// The read is cut at its deadline while the server still holds
			// the 202: the call returns without waiting for it.
			if err := <-returned; !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("cut read: %v", err)
			}
			select {
			case got := <-f.seen:
				t.Fatalf("%q reached the server before the read's POST was acknowledged", got)
			case <-time.After(100 * time.Millisecond):
			}
			f.release <- c.status
			for range len(c.want) - 1 {
				wait(t, f.seen)
			}
			select { // nothing more comes (the refused read gets no cancel)
			case got := <-f.seen:
				t.Errorf("unexpected %q", got)
			case <-time.After(200 * time.Millisecond):
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if strings.Join(f.order, ",") != strings.Join(c.want, ",") {
				t.Errorf("arrivals %v, want %v", f.order, c.want)
			}
		})
	}
}

func wait(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("nothing reached the server")
		return ""
	}
}
