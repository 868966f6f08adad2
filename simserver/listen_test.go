package simserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// touchHTTP changes uri through POST ChangesPath and returns the Change.
func touchHTTP(t testing.TB, base, uri string) Change {
	t.Helper()
	resp, err := http.Post(base+ChangesPath+"?uri="+urlQuery(uri), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ch Change
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", ChangesPath, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&ch); err != nil {
		t.Fatal(err)
	}
	return ch
}

func urlQuery(s string) string {
	return strings.NewReplacer("%", "%25", "&", "%26", "=", "%3D", "?", "%3F", "#", "%23", "+", "%2B", " ", "%20").Replace(s)
}

// TestListenWire: the ack first, naming the subset honoured (a URI that is
// not a sim: URI never changes, so it is left out), the listen's id as
// subscriptionId on the ack and every notification, the change's sequence
// and time in _meta; closing the stream stops the notifications.
func TestListenWire(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	base := startSubHTTP(t, s)
	a, b := "sim:///a.md?mime=text/markdown&size=100", "sim:///b.png?mime=image/png&size=300"
	rs := openListenStream(t, base+"/mcp", 7, a, "docs://not/sim", b, a)

	ack := rs.next()
	wantNotification(t, ack, protocol.NotifySubscriptionsAcked, "7")
	_, _, ns := notifParams(t, ack)
	got, _ := ns["resourceSubscriptions"].([]any)
	if len(got) != 2 || got[0] != a || got[1] != b || len(ns) != 1 {
		t.Errorf("ack honours %v, want [%s %s] and nothing else", ns, a, b)
	}
	ch := touchHTTP(t, base, b)
	if ch.Notified != 1 || ch.Revision != 1 {
		t.Errorf("change %+v: want revision 1, one notified", ch)
	}
	m := rs.next()
	if uri := wantNotification(t, m, protocol.NotifyResourceUpdated, "7"); uri != b {
		t.Errorf("updated %q, want %q", uri, b)
	}
	_, meta, _ := notifParams(t, m)
	if string(meta[MetaChangeSeq]) != "1" || len(meta[MetaChangedAt]) < 20 {
		t.Errorf("_meta %v: want changeSeq 1 and changedAt", meta)
	}
	rs.close()
	waitStats(t, s, "the listen gone", func(st Stats) bool { return st.Subscriptions.Listens == 0 && st.Subscriptions.URIs == 0 })
	if ch := touchHTTP(t, base, b); ch.Notified != 0 {
		t.Errorf("after the stream closed, %d notified", ch.Notified)
	}
}

// TestListenFaults: each subscription fault, enabled by wire= on the URI
// followed and server-wide, does on the wire what its name says.
func TestListenFaults(t *testing.T) {
	for _, fault := range subscriptionFaults() {
		for _, how := range []string{"uri", "server"} {
			t.Run(string(fault)+"/"+how, func(t *testing.T) {
				o, uri := Options{}, "sim:///f.txt?mime=text/plain&size=10"
				if how == "uri" {
					uri += "&wire=" + string(fault)
				} else {
					o.SubscriptionFault = fault
				}
				s := New(o)
				defer s.Close()
				base := startSubHTTP(t, s)
				rs := openListenStream(t, base+"/mcp", 41, uri)
				var seen []string
				if fault == WireNotifyBeforeAck {
					wantNotification(t, rs.next(), protocol.NotifyResourceUpdated, "41")
				}
				if fault != WireNoAck {
					wantNotification(t, rs.next(), protocol.NotifySubscriptionsAcked, "41")
				}
				touchHTTP(t, base, uri)
				n := 1
				if fault == WireUnrequested || fault == WireDuplicateNotify {
					n = 2
				}
				for range n {
					m := rs.next()
					_, meta, _ := notifParams(t, m)
					seen = append(seen, m.Method+" "+string(meta[protocol.MetaSubscriptionID]))
				}
				want := []string{protocol.NotifyResourceUpdated + " 41"}
				switch fault {
				case WireWrongSubscriptionID:
					want = []string{protocol.NotifyResourceUpdated + " 1000041"}
				case WireUnrequested:
					want = append(want, protocol.NotifyToolsListChanged+" 41")
				case WireDuplicateNotify:
					want = append(want, want[0])
				}
				if !slices.Equal(seen, want) {
					t.Errorf("after a change the stream carried %q, want %q", seen, want)
				}
			})
		}
	}
}

// TestListenReadOfFaultyURI: a subscription fault on a URI leaves its
// reads alone.
func TestListenReadOfFaultyURI(t *testing.T) {
	s := New(Options{})
	url := startHTTP(t, s)
	uri := "sim:///f.txt?mime=text/plain&size=10&wire=duplicate_notify"
	status, h, body := post(t, url, modernHeaders(protocol.MethodResourcesRead, uri), request(t, 1, protocol.MethodResourcesRead, readParams(uri, protocol.V20260728)))
	if status != http.StatusOK || h.Get("Content-Type") != protocol.ContentTypeJSON {
		t.Fatalf("read: %d %s", status, h.Get("Content-Type"))
	}
	decodeRead(t, decodeMsg(t, body))
}

// TestListenLimit: past MaxListeners a listen is -32603 "Subscription
// limit reached" inside an HTTP 200, as the TypeScript SDK answers.
func TestListenLimit(t *testing.T) {
	s := New(Options{MaxListeners: 1})
	defer s.Close()
	url := startHTTP(t, s)
	uri := "sim:///a?mime=text/plain&size=1"
	first := openListenStream(t, url, 1, uri)
	wantNotification(t, first.next(), protocol.NotifySubscriptionsAcked, "1")
	second := openStream(t, listenRequest(t, url, 2, uri))
	if second.status != http.StatusOK || second.body == nil {
		t.Fatalf("second listen: status %d (a stream: %v), want a 200 JSON error", second.status, second.body == nil)
	}
	e := rpcError(t, decodeMsg(t, second.body))
	if e.Code != protocol.CodeInternal || e.Message != protocol.SubscriptionLimitMessage {
		t.Errorf("error %d %q, want %d %q", e.Code, e.Message, protocol.CodeInternal, protocol.SubscriptionLimitMessage)
	}
	if st := s.Stats().Subscriptions; st.Refused != 1 || st.Listens != 1 {
		t.Errorf("stats %+v: want 1 refused, 1 open", st)
	}
}

// TestDropStreams: DropStreamsAfter ends a listen stream without a
// result, and a session's GET stream.
func TestDropStreams(t *testing.T) {
	s := New(Options{DropStreamsAfter: 50 * 1e6, Stateful: true})
	defer s.Close()
	url := startHTTP(t, s)
	rs := openListenStream(t, url, 3, "sim:///a?mime=text/plain&size=1")
	wantNotification(t, rs.next(), protocol.NotifySubscriptionsAcked, "3")
	if m := rs.next(); m != nil {
		t.Errorf("dropped stream carried %s %s, want its end", m.Method, m.Result)
	}
	get := openSessionStream(t, url, initSession(t, url))
	if m := get.next(); m != nil {
		t.Errorf("dropped GET stream carried %s, want its end", m.Method)
	}
}

// TestKeepAlive: an idle listen stream gets SSE comments.
func TestKeepAlive(t *testing.T) {
	s := New(Options{KeepAlive: 10 * 1e6})
	defer s.Close()
	rs := openListenStream(t, startHTTP(t, s), 4, "sim:///a?mime=text/plain&size=1")
	wantNotification(t, rs.next(), protocol.NotifySubscriptionsAcked, "4")
	if it := rs.nextItem(); it.comment != ": keep-alive" {
		t.Errorf("idle stream carried %+v, want a keep-alive comment", it)
	}
}

// TestListenNothingHonoured: a listen for nothing the server honours is
// acknowledged (empty) and answered at once.
func TestListenNothingHonoured(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	rs := openListenStream(t, startHTTP(t, s), 5, "docs://x")
	_, _, ns := notifParams(t, rs.next())
	if len(ns) != 0 {
		t.Errorf("ack %v, want nothing honoured", ns)
	}
	if m := rs.next(); m == nil || idOf(m) != "5" || m.Result == nil {
		t.Errorf("want the listen's empty result, got %+v", m)
	}
}

// TestListenBadParams: a listen without notifications is invalid params
// (400 in this era).
func TestListenBadParams(t *testing.T) {
	url := startHTTP(t, New(Options{}))
	body := request(t, 6, protocol.MethodSubscriptionsListen, map[string]any{"_meta": modernMeta(protocol.V20260728)})
	status, _, b := post(t, url, modernHeaders(protocol.MethodSubscriptionsListen, ""), body)
	if e := rpcError(t, decodeMsg(t, b)); status != http.StatusBadRequest || e.Code != protocol.CodeInvalidParams {
		t.Errorf("status %d error %d, want 400 -32602", status, e.Code)
	}
}
