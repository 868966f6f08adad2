package simserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// Raw readers of notification streams, for the tests that check what a
// stream carries byte for byte (the faults above all).

// streamItem is one thing a stream carried: a message, a comment, or its
// end (msg and comment both empty).
type streamItem struct {
	msg     *protocol.Message
	comment string
	end     bool
}

// rawStream is an SSE response read by a goroutine the test owns (close
// stops and waits for it).
type rawStream struct {
	t      testing.TB
	status int
	header http.Header
	body   []byte // a response that was not a stream: its body
	items  chan streamItem
	cancel context.CancelFunc
	done   chan struct{}
}

// openStream sends req and, when the answer is an SSE stream, reads it.
func openStream(t testing.TB, req *http.Request) *rawStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req = req.WithContext(ctx)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	rs := &rawStream{t: t, status: resp.StatusCode, header: resp.Header, items: make(chan streamItem, 1024), cancel: cancel, done: make(chan struct{})}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), protocol.ContentTypeSSE) {
		defer resp.Body.Close()
		var sb strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			sb.WriteString(sc.Text())
		}
		rs.body = []byte(sb.String())
		close(rs.done)
		cancel()
		return rs
	}
	go func() {
		defer close(rs.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "data: "):
				m, err := protocol.Decode([]byte(line[len("data: "):]))
				if err != nil {
					t.Errorf("bad data line %q: %v", line, err)
					continue
				}
				rs.items <- streamItem{msg: m}
			case strings.HasPrefix(line, ":"):
				rs.items <- streamItem{comment: line}
			}
		}
		rs.items <- streamItem{end: true}
	}()
	t.Cleanup(rs.close)
	return rs
}

// close ends the stream from the client's side and waits for its reader.
func (rs *rawStream) close() {
	rs.cancel()
	<-rs.done
}

// next is the next message, skipping comments; nil at the stream's end.
func (rs *rawStream) next() *protocol.Message {
	rs.t.Helper()
	for {
		it := rs.nextItem()
		if it.comment == "" {
			return it.msg
		}
	}
}

// nextItem is the next item, bounded.
func (rs *rawStream) nextItem() streamItem {
	rs.t.Helper()
	select {
	case it := <-rs.items:
		return it
	case <-time.After(10 * time.Second):
		rs.t.Fatal("nothing on the stream within 10s")
		return streamItem{}
	}
}

// listenRequest is a raw 2026-07-28 subscriptions/listen POST.
func listenRequest(t testing.TB, url string, id int, uris ...string) *http.Request {
	t.Helper()
	body := request(t, id, protocol.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": uris},
		"_meta":         modernMeta(protocol.V20260728),
	})
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", protocol.ContentTypeJSON)
	req.Header.Set("Accept", protocol.AcceptBoth)
	for k, v := range modernHeaders(protocol.MethodSubscriptionsListen, "") {
		req.Header.Set(k, v)
	}
	return req
}

// openListenStream opens a listen and checks it is a stream.
func openListenStream(t testing.TB, url string, id int, uris ...string) *rawStream {
	t.Helper()
	rs := openStream(t, listenRequest(t, url, id, uris...))
	if rs.status != http.StatusOK || rs.body != nil {
		t.Fatalf("listen: status %d, body %s", rs.status, rs.body)
	}
	return rs
}

// params decodes a notification's params.
func notifParams(t testing.TB, m *protocol.Message) (uri string, meta map[string]json.RawMessage, notifications map[string]any) {
	t.Helper()
	var p struct {
		URI           string                     `json:"uri"`
		Meta          map[string]json.RawMessage `json:"_meta"`
		Notifications map[string]any             `json:"notifications"`
	}
	if len(m.Params) > 0 {
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatalf("params %s: %v", m.Params, err)
		}
	}
	return p.URI, p.Meta, p.Notifications
}

// wantNotification checks m is method (with the subscriptionId subID when
// not "") and returns its uri.
func wantNotification(t testing.TB, m *protocol.Message, method, subID string) string {
	t.Helper()
	if m == nil {
		t.Fatalf("the stream ended; want %s", method)
	}
	if m.Method != method || len(m.ID) != 0 {
		t.Fatalf("got %s (id %s, result %s), want the notification %s", m.Method, m.ID, m.Result, method)
	}
	uri, meta, _ := notifParams(t, m)
	if got := string(meta[protocol.MetaSubscriptionID]); subID != "" && got != subID {
		t.Fatalf("%s: subscriptionId %s, want %s", method, got, subID)
	}
	return uri
}

// startSubHTTP serves s with /mcp and ChangesPath as readbench serve
// mounts them, and returns the base URL.
func startSubHTTP(t testing.TB, s *Server) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.Handler())
	mux.Handle(ChangesPath, s.Changes())
	return peertest.ServeLocal(t, mux).URL
}
