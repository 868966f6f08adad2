package simserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// initSession initializes a legacy session on a stateful server and
// returns its id.
func initSession(t testing.TB, url string) string {
	t.Helper()
	status, h, b := post(t, url, nil, request(t, 1, protocol.MethodInitialize, map[string]any{
		"protocolVersion": protocol.V20251125, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "raw", "version": "1"}}))
	sid := h.Get(protocol.HeaderSessionID)
	if status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q: %s", status, sid, b)
	}
	return sid
}

// openSessionStream opens a session's standalone GET stream.
func openSessionStream(t testing.TB, url, sid string) *rawStream {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", protocol.ContentTypeSSE)
	req.Header.Set(protocol.HeaderSessionID, sid)
	rs := openStream(t, req)
	if rs.status != http.StatusOK || rs.body != nil {
		t.Fatalf("GET: %d %s", rs.status, rs.body)
	}
	return rs
}

// legacyCall posts a legacy request in a session and returns the answer.
func legacyCall(t testing.TB, url, sid string, id int, method string, params map[string]any) *protocol.Message {
	t.Helper()
	_, _, b := post(t, url, map[string]string{protocol.HeaderSessionID: sid, protocol.HeaderProtocolVersion: protocol.V20251125}, request(t, id, method, params))
	return decodeMsg(t, b)
}

// TestLegacySessionStream: in stateful mode, resources/subscribe then a
// change puts notifications/resources/updated (no subscriptionId) on the
// session's GET stream; wire=duplicate_notify doubles it; unsubscribe
// stops them; DELETE ends the stream.
func TestLegacySessionStream(t *testing.T) {
	s := New(Options{Stateful: true})
	defer s.Close()
	url := startHTTP(t, s)
	sid := initSession(t, url)
	get := openSessionStream(t, url, sid)
	if second := openStream(t, get.reqAgain(url, sid)); second.status != http.StatusConflict {
		t.Errorf("a second GET stream: %d, want 409", second.status)
	}
	plain, dup := "sim:///p.md?mime=text/markdown&size=10", "sim:///d.md?mime=text/markdown&size=10&wire=duplicate_notify"
	for i, uri := range []string{plain, dup} {
		if m := legacyCall(t, url, sid, 10+i, protocol.MethodSubscribe, map[string]any{"uri": uri}); m.Error != nil {
			t.Fatalf("subscribe %s: %v", uri, m.Error)
		}
	}
	if _, err := s.Touch(plain); err != nil {
		t.Fatal(err)
	}
	m := get.next()
	if uri := wantNotification(t, m, protocol.NotifyResourceUpdated, ""); uri != plain {
		t.Errorf("updated %q, want %q", uri, plain)
	}
	if _, meta, _ := notifParams(t, m); meta[protocol.MetaSubscriptionID] != nil {
		t.Errorf("a legacy notification carries a subscriptionId: %v", meta)
	}
	_, _ = s.Touch(dup)
	for range 2 {
		if uri := wantNotification(t, get.next(), protocol.NotifyResourceUpdated, ""); uri != dup {
			t.Errorf("updated %q, want %q twice", uri, dup)
		}
	}
	legacyCall(t, url, sid, 20, protocol.MethodUnsubscribe, map[string]any{"uri": plain})
	if ch, _ := s.Touch(plain); ch.Notified != 0 {
		t.Errorf("after unsubscribe %d notified", ch.Notified)
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set(protocol.HeaderSessionID, sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if m := get.next(); m != nil {
		t.Errorf("after DELETE the stream carried %s, want its end", m.Method)
	}
}

// reqAgain is a second GET of the same session.
func (rs *rawStream) reqAgain(url, sid string) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", protocol.ContentTypeSSE)
	req.Header.Set(protocol.HeaderSessionID, sid)
	return req
}

// TestLegacySubscribeStateless: a stateless server has nowhere to keep a
// legacy subscription: it does not advertise resources.subscribe, and
// resources/subscribe is -32601 saying what to do instead.
func TestLegacySubscribeStateless(t *testing.T) {
	url := startHTTP(t, New(Options{}))
	_, _, b := post(t, url, nil, request(t, 1, protocol.MethodInitialize, map[string]any{"protocolVersion": protocol.V20251125}))
	var init struct {
		Capabilities struct {
			Resources map[string]any `json:"resources"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(decodeMsg(t, b).Result, &init); err != nil || init.Capabilities.Resources["subscribe"] != nil {
		t.Errorf("stateless initialize advertises %v (%v), want no subscribe", init.Capabilities.Resources, err)
	}
	_, _, b = post(t, url, map[string]string{protocol.HeaderProtocolVersion: protocol.V20251125}, request(t, 2, protocol.MethodSubscribe, map[string]any{"uri": "sim:///a"}))
	e := rpcError(t, decodeMsg(t, b))
	if e.Code != protocol.CodeMethodNotFound || !strings.Contains(e.Message, "--stateful") || !strings.Contains(e.Message, protocol.MethodSubscriptionsListen) {
		t.Errorf("error %d %q: want -32601 naming --stateful and subscriptions/listen", e.Code, e.Message)
	}
}

// TestStdioListenRaw: a 2026-07-28 listen on stdio (ack, notification
// with the listen's id) ended by notifications/cancelled, after which
// nothing is written for it; and the legacy subscribe on the same pipe.
func TestStdioListenRaw(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	p := startStdio(t, s)
	uri := "sim:///s.json?mime=application/json&size=64"
	p.send(request(t, 9, protocol.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{uri}}, "_meta": modernMeta(protocol.V20260728)}))
	wantNotification(t, p.next(), protocol.NotifySubscriptionsAcked, "9")
	if _, err := s.Touch(uri); err != nil {
		t.Fatal(err)
	}
	wantNotification(t, p.next(), protocol.NotifyResourceUpdated, "9")
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`)
	waitStats(t, s, "the listen cancelled", func(st Stats) bool { return st.Subscriptions.Listens == 0 })

	if m := p.roundTrip(request(t, 10, protocol.MethodSubscribe, map[string]any{"uri": uri})); m.Error != nil {
		t.Fatalf("legacy subscribe: %v", m.Error)
	}
	if m := p.roundTrip(request(t, 11, protocol.MethodSubscribe, map[string]any{"uri": "docs://x"})); rpcError(t, m).Code != protocol.CodeResourceNotFound {
		t.Errorf("subscribe to a non-sim URI: %v, want -32002", m.Error)
	}
	ch, _ := s.Touch(uri)
	if ch.Notified != 1 {
		t.Errorf("%d notified, want the legacy subscriber alone", ch.Notified)
	}
	if u := wantNotification(t, p.next(), protocol.NotifyResourceUpdated, ""); u != uri {
		t.Errorf("updated %q", u)
	}
	for _, m := range p.close() {
		if len(m.ID) > 0 {
			t.Errorf("after the cancel, the listen was answered: %s %s", m.ID, m.Result)
		}
	}
}

// TestCloseEndsStreams: Close ends a listen with its empty result, ends a
// session's GET stream and a stdio listen, and stops the changes of
// Options.Changes (goleak, in TestMain, finds any goroutine left).
func TestCloseEndsStreams(t *testing.T) {
	s := New(Options{Stateful: true, Changes: 1000})
	url := startHTTP(t, s)
	uri := "sim:///c?mime=text/plain&size=1"
	rs := openListenStream(t, url, 8, uri)
	wantNotification(t, rs.next(), protocol.NotifySubscriptionsAcked, "8")
	get := openSessionStream(t, url, initSession(t, url))
	p := startStdio(t, s)
	p.send(request(t, 1, protocol.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{uri}}, "_meta": modernMeta(protocol.V20260728)}))
	wantNotification(t, p.next(), protocol.NotifySubscriptionsAcked, "1")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for m := rs.next(); m != nil; m = rs.next() {
		if len(m.ID) > 0 {
			if idOf(m) != "8" || m.Result == nil {
				t.Errorf("listen ended with %s %s", m.ID, m.Error)
			}
			if rest := rs.next(); rest != nil {
				t.Errorf("after the result: %s", rest.Method)
			}
			break
		}
	}
	for m := get.next(); m != nil; m = get.next() {
		t.Errorf("GET stream carried %s", m.Method)
	}
	for m := p.next(); len(m.ID) == 0; m = p.next() {
		if m.Method != protocol.NotifyResourceUpdated {
			t.Fatalf("stdio listen carried %s", m.Method)
		}
	}
}

// TestStdioNothingAfterCancel: a change made by a tools/call read after
// a listen's notifications/cancelled on stdin is never told on that
// listen: the loop cancels the listen as it reads the cancel, and the
// listen writes nothing once cancelled (checked under the writer's lock,
// as a read that honours cancellation is). Written beside the client's
// fix of the same symptom (client: TestStdioListenCloseCancelsFirst), as
// a guard of the server's half: the race it guards was not made to show
// on this machine.
func TestStdioNothingAfterCancel(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	p := startStdio(t, s)
	uri := "sim:///c.md?mime=text/markdown&size=64"
	meta := modernMeta(protocol.V20260728)
	id := 100
	told := func(m *protocol.Message, listen int) bool {
		if m.Method != protocol.NotifyResourceUpdated {
			return false
		}
		_, mt, _ := notifParams(t, m)
		return string(mt[protocol.MetaSubscriptionID]) == fmt.Sprint(listen)
	}
	for range 30 {
		id++
		listen := id
		p.send(request(t, listen, protocol.MethodSubscriptionsListen, map[string]any{
			"notifications": map[string]any{"resourceSubscriptions": []string{uri}}, "_meta": meta}))
		wantNotification(t, p.next(), protocol.NotifySubscriptionsAcked, fmt.Sprint(listen))
		id++
		touch := id
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, listen) + "\n" +
			request(t, touch, protocol.MethodToolsCall, map[string]any{"name": TouchTool, "arguments": map[string]any{"uri": uri}, "_meta": meta}))
		waitStats(t, s, "the listen cancelled", func(st Stats) bool { return st.Subscriptions.Listens == 0 })
		id++
		p.send(request(t, id, protocol.MethodPing, map[string]any{"_meta": meta}))
		for answers := 0; answers < 2; {
			m := p.next()
			if len(m.ID) > 0 {
				answers++ // the touch's and the ping's, in either order
			}
			if told(m, listen) {
				t.Fatalf("listen %d told of a change made after its notifications/cancelled: %s", listen, m.Params)
			}
		}
	}
}
