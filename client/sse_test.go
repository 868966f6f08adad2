package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// fakeSSE is a scripted HTTP+SSE server: GET /sse opens the stream with an
// endpoint event, POST /post hands each message to onPost, which may write
// raw event text to the stream through send.
type fakeSSE struct {
	t      *testing.T
	hs     *httptest.Server
	events chan string
	posts  chan []byte // every POSTed message, in order
	traced chan string // every POST's traceparent header ("" when none), in order
	end    chan struct{}
	onPost func(msg []byte, send func(string))
}

func newFakeSSE(t *testing.T, onPost func(msg []byte, send func(string))) *fakeSSE {
	f := &fakeSSE{t: t, events: make(chan string, 64), posts: make(chan []byte, 64), traced: make(chan string, 64), end: make(chan struct{}), onPost: onPost}
	var endOnce sync.Once
	f.hs = peertest.ServeLocal(t, http.HandlerFunc(f.serve))
	t.Cleanup(func() { endOnce.Do(func() { close(f.end) }) })
	return f
}

func (f *fakeSSE) send(ev string) { f.events <- ev }

func (f *fakeSSE) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": hello\n\nevent: endpoint\ndata: post?session=1\r\n\r\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case ev := <-f.events:
				if ev == "" { // the server ends the stream
					return
				}
				fmt.Fprint(w, ev)
				w.(http.Flusher).Flush()
			case <-f.end:
				return
			case <-r.Context().Done():
				return
			}
		}
	case r.Method == http.MethodPost && r.URL.Path == "/post" && r.URL.Query().Get("session") == "1":
		var msg json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		f.traced <- r.Header.Get(protocol.HeaderTraceParent)
		f.posts <- msg
		if f.onPost != nil {
			f.onPost(msg, f.send)
		}
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeSSE) start(t *testing.T, late LateFunc) *sseTransport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr, err := startSSE(ctx, f.hs.URL+"/sse", http.Header{"Authorization": {"Bearer s3cret"}}, late, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.close() })
	return tr
}

func testRequest(id int64, method string) Request {
	body, _ := protocol.AppendRequest(nil, protocol.IntID(id), method, map[string]any{"uri": "docs://x"})
	return Request{ID: id, method: method, body: body}
}

func TestSSEAnswersInAnyOrderWithWireBytes(t *testing.T) {
	ev := func(id int) string {
		return fmt.Sprintf(": keepalive\nid: %d\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"n\":%d}}\n\n", 100+id, id, id)
	}
	var seen atomic.Int32
	f := newFakeSSE(t, func(_ []byte, send func(string)) {
		if seen.Add(1) == 2 { // both requests are in: answer the second first
			send(`data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n\n")
			send(ev(2))
			send(ev(1))
		}
	})
	tr := f.start(t, nil)
	var wg sync.WaitGroup
	got := make([]*Response, 3)
	errs := make([]error, 3)
	for _, id := range []int64{1, 2} {
		wg.Go(func() {
			got[id], errs[id] = tr.call(context.Background(), testRequest(id, protocol.MethodResourcesRead))
		})
	}
	wg.Wait()
	for _, id := range []int{1, 2} {
		if errs[id] != nil {
			t.Fatalf("call %d: %v", id, errs[id])
		}
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"n":%d}}`, id, id)
		if string(got[id].Body) != want || got[id].WireBytes != int64(len(ev(id))) {
			t.Errorf("call %d: body %s wire %d, want %s wire %d", id, got[id].Body, got[id].WireBytes, want, len(ev(id)))
		}
	}
}

func TestSSEStreamEndFailsPendingCalls(t *testing.T) {
	var posted atomic.Int32
	f := newFakeSSE(t, func(_ []byte, send func(string)) {
		if posted.Add(1) == 3 {
			send("") // the server ends the stream with three calls waiting
		}
	})
	tr := f.start(t, nil)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	start := time.Now()
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = tr.call(context.Background(), testRequest(int64(i+1), protocol.MethodResourcesRead))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, ErrTransport) || !strings.Contains(err.Error(), "stream") {
			t.Errorf("call %d: err = %v, want a transport failure naming the stream", i+1, err)
		}
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("pending calls took %v to fail", el)
	}
	if _, err := tr.call(context.Background(), testRequest(9, protocol.MethodResourcesRead)); !errors.Is(err, ErrTransport) {
		t.Errorf("a call after the stream ended: %v", err)
	}
}

func TestSSECancellationAndLateAnswer(t *testing.T) {
	type lateAnswer struct {
		wire  int64
		after time.Duration
	}
	lates := make(chan lateAnswer, 1)
	const answer = "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n"
	f := newFakeSSE(t, func(msg []byte, send func(string)) {
		if strings.Contains(string(msg), protocol.MethodCancelled) {
			send(answer) // a server that does not honour the cancellation
		}
	})
	tr := f.start(t, func(l stats.LateSample) { lates <- lateAnswer{l.WireBytes, l.AfterCancel} })
	ctx, cancel := context.WithTimeoutCause(context.Background(), 300*time.Millisecond, errors.New("read timeout"))
	defer cancel()
	if _, err := tr.call(ctx, testRequest(7, protocol.MethodResourcesRead)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled call: err = %v", err)
	}
	<-f.posts // the request
	var note struct {
		Method string `json:"method"`
		Params struct {
			RequestID int64  `json:"requestId"`
			Reason    string `json:"reason"`
		} `json:"params"`
	}
	select {
	case msg := <-f.posts:
		if err := json.Unmarshal(msg, &note); err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/cancelled was POSTed")
	}
	if note.Method != protocol.MethodCancelled || note.Params.RequestID != 7 || note.Params.Reason != "read timeout" {
		t.Errorf("cancellation %+v", note)
	}
	select {
	case l := <-lates:
		if l.wire != int64(len(answer)) || l.after <= 0 {
			t.Errorf("late answer counted as %+v, want %d bytes", l, len(answer))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the late answer was not counted")
	}
}

func TestSSEAnswersServerRequests(t *testing.T) {
	f := newFakeSSE(t, nil)
	f.start(t, nil)
	f.send(`data: {"jsonrpc":"2.0","id":"p1","method":"ping"}` + "\n\n")
	f.send(`data: {"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}` + "\n\n")
	want := map[string]string{`"p1"`: `"result":{}`, `"s1"`: `"code":-32601`}
	for range want {
		select {
		case msg := <-f.posts:
			m, err := protocol.Decode(msg)
			if err != nil {
				t.Fatal(err)
			}
			if w, ok := want[string(m.ID)]; !ok || !strings.Contains(string(msg), w) {
				t.Errorf("reply %s", msg)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a server request got no reply")
		}
	}
}

func TestResolveEndpoint(t *testing.T) {
	cases := []struct{ sse, data, want, errContains string }{
		{"http://127.0.0.1:8080/sse", "/messages?sessionId=a", "http://127.0.0.1:8080/messages?sessionId=a", ""},
		{"http://127.0.0.1:8080/mcp/sse", "?sessionid=b", "http://127.0.0.1:8080/mcp/sse?sessionid=b", ""},
		{"http://127.0.0.1:8080/mcp/sse", "message?x=1", "http://127.0.0.1:8080/mcp/message?x=1", ""},
		{"http://127.0.0.1:8080/sse", " http://localhost:8080/m?s=1 ", "http://localhost:8080/m?s=1", ""}, // both loopback
		{"https://api.example.com/sse", "https://api.example.com/m", "https://api.example.com/m", ""},
		{"https://api.example.com/sse", "https://evil.example.net/m", "", "another origin"},
		{"http://127.0.0.1:8080/sse", "http://127.0.0.1:9090/m", "", "another origin"},
		{"https://api.example.com/sse", "http://api.example.com/m", "", "another origin"},
		{"http://127.0.0.1:8080/sse", "http://[::1", "", "not a URL"},
	}
	for _, c := range cases {
		got, err := resolveEndpoint(c.sse, c.data)
		if c.errContains != "" {
			if err == nil || !strings.Contains(err.Error(), c.errContains) {
				t.Errorf("%s + %q: err = %v, want %q", c.sse, c.data, err, c.errContains)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s + %q = %q, %v; want %q", c.sse, c.data, got, err, c.want)
		}
	}
}

func TestSSEOpenFailuresAreExplained(t *testing.T) {
	notSSE := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}))
	silent := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // never sends the endpoint event
	}))
	wrongFirst := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message\ndata: {}\n\n")
	}))
	cases := []struct{ url, want string }{
		{notSSE.URL + "/sse", "HTTP 405"},
		{silent.URL + "/sse", "no endpoint event"},
		{wrongFirst.URL + "/sse", "want the endpoint event"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		start := time.Now()
		tr, err := startSSE(ctx, c.url, http.Header{"Authorization": {"Bearer s3cret"}}, nil, 0)
		cancel()
		if err == nil {
			_ = tr.close()
			t.Errorf("%s: no error", c.url)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: err = %v, want %q and no header value", c.url, err, c.want)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %v", c.url, el)
		}
	}
}

// The reader begins each message while it waits for it, before the
// request it answers is pending: what to keep of the message (the whole
// answer of a request that is not a read) is settled at its first byte,
// so a listing sent on an idle stream still arrives whole.
func TestSSEKeepsAnAnswerToACallMadeWhileIdle(t *testing.T) {
	f := newFakeSSE(t, func(msg []byte, send func(string)) {
		send("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"resources\":[]}}\n\n")
	})
	tr := f.start(t, nil)
	time.Sleep(50 * time.Millisecond) // the reader is now waiting for the next event
	a, err := tr.call(context.Background(), testRequest(7, protocol.MethodResourcesList))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":7,"result":{"resources":[]}}`; string(a.Body) != want {
		t.Fatalf("body %q, want %q", a.Body, want)
	}
}
