package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// A hostile 2026-07-28 peer: the violations no real server here produces
// on demand (a notification before the acknowledgement, a wrong or missing
// subscriptionId, types and uris never asked for, the TypeScript SDK's
// limit refusal inside an HTTP 200), written by hand on the wire. It is
// not a mock of a real server, only a peer that breaks the protocol.

// hostileListen serves server/discover and answers subscriptions/listen
// with listen(w, id).
func hostileListen(t *testing.T, listen func(w http.ResponseWriter, id string)) string {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, err := protocol.Decode(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch m.Method {
		case protocol.MethodDiscover:
			w.Header().Set("Content-Type", protocol.ContentTypeJSON)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":[%q],"capabilities":{"resources":{"subscribe":true,"listChanged":true}},"_meta":{%q:{"name":"hostile","version":"0"}}}}`,
				m.ID, protocol.V20260728, protocol.MetaServerInfo)
		case protocol.MethodSubscriptionsListen:
			listen(w, string(m.ID))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	})
	return peertest.ServeLocal(t, h).URL + "/mcp"
}

// sseMessage writes one message event and flushes it.
func sseMessage(w http.ResponseWriter, msg string) {
	fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
	w.(http.Flusher).Flush()
}

// TestListenFlagsViolations: every flag a listen stream can earn, each on
// its own notification, then a graceful end.
func TestListenFlagsViolations(t *testing.T) {
	url := hostileListen(t, func(w http.ResponseWriter, id string) {
		w.Header().Set("Content-Type", protocol.ContentTypeSSE)
		w.WriteHeader(http.StatusOK)
		meta := func(sid string) string { return fmt.Sprintf(`"_meta":{%q:%s}`, protocol.MetaSubscriptionID, sid) }
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://sub/a",`+meta(id)+`}}`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["docs://sub/a"]},`+meta(id)+`}}`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://sub/a",`+meta(`"other"`)+`}}`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://sub/a"}}`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://sub/b",`+meta(id)+`}}`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{`+meta(id)+`}}`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x",`+meta(id)+`}}`)
		sseMessage(w, `{not json`)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"docs://sub/a",`+meta(`"`+id+`"`)+`}}`)
		sseMessage(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`)
	})
	s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, protocol.V20260728)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := newCollector()
	sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, c.on)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-sub.Done():
	case <-ctx.Done():
		t.Fatal("the stream did not end")
	}
	if e := sub.End(); e.Reason != EndServer || e.Err != nil {
		t.Errorf("End = %+v, want the server's graceful end", e)
	}
	want := []Flags{BeforeAck, 0, WrongSubscriptionID, NoSubscriptionID, UnsubscribedURI, UnaskedType, UnaskedType, Unreadable, 0}
	got := c.all()
	if len(got) != len(want) {
		t.Fatalf("%d notifications, want %d: %+v", len(got), len(want), got)
	}
	for i, n := range got {
		if n.Flags != want[i] {
			t.Errorf("notification %d (%s %s): flags %q, want %q", i, n.Method, n.URI, n.Flags, want[i])
		}
	}
	if d, f := sub.Counts(); d != int64(len(want)) || f != 7 {
		t.Errorf("Counts = %d delivered, %d flagged; want %d, 7", d, f, len(want))
	}
}

// TestListenLimitIn200: the TypeScript SDK's refusal past its limit, a
// JSON-RPC -32603 inside an HTTP 200, is a RefusedError that says so.
func TestListenLimitIn200(t *testing.T) {
	url := hostileListen(t, func(w http.ResponseWriter, id string) {
		w.Header().Set("Content-Type", protocol.ContentTypeJSON)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":%q}}`, id, protocol.SubscriptionLimitMessage)
	})
	s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, protocol.V20260728)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, nil)
	var re *RefusedError
	if !errors.As(err, &re) || !re.LimitReached || re.Status != http.StatusOK || re.RPC == nil || re.RPC.Code != protocol.CodeInternal {
		t.Fatalf("err = %v (%#v), want a RefusedError with LimitReached in an HTTP 200", err, re)
	}
}

// TestListenRefusals: an HTTP error status and a method the server lacks,
// before any stream.
func TestListenRefusals(t *testing.T) {
	for _, tc := range []struct {
		name        string
		status      int
		body        string
		unsupported bool
	}{
		{"http 503", http.StatusServiceUnavailable, "overloaded", false},
		{"method not found", http.StatusNotFound, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := hostileListen(t, func(w http.ResponseWriter, id string) {
				w.Header().Set("Content-Type", protocol.ContentTypeJSON)
				w.WriteHeader(tc.status)
				if tc.unsupported {
					fmt.Fprintf(w, tc.body, id)
				} else {
					fmt.Fprint(w, tc.body)
				}
			})
			s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, protocol.V20260728)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, nil)
			var re *RefusedError
			switch {
			case tc.unsupported && !errors.Is(err, ErrSubscriptionsUnsupported):
				t.Fatalf("err = %v, want ErrSubscriptionsUnsupported", err)
			case !tc.unsupported && (!errors.As(err, &re) || re.Status != tc.status):
				t.Fatalf("err = %v, want a RefusedError with HTTP %d", err, tc.status)
			}
		})
	}
}

// TestListenDropped: a stream cut after its acknowledgement (a proxy's
// idle timeout) ends the subscription EndDropped, not EndServer.
func TestListenDropped(t *testing.T) {
	url := hostileListen(t, func(w http.ResponseWriter, id string) {
		w.Header().Set("Content-Type", protocol.ContentTypeSSE)
		w.WriteHeader(http.StatusOK)
		sseMessage(w, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourceSubscriptions":["docs://sub/a"]}}}`)
		// the handler returns: the stream ends without an answer
	})
	s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, protocol.V20260728)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{subURI}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-sub.Done():
	case <-ctx.Done():
		t.Fatal("the stream did not end")
	}
	if e := sub.End(); e.Reason != EndDropped || !errors.Is(e.Err, ErrTransport) {
		t.Errorf("End = %+v, want dropped", e)
	}
}

// TestSubscribeCapabilityAbsent: a server that declares no subscribe
// capability is not asked, and the error says not applicable.
func TestSubscribeCapabilityAbsent(t *testing.T) {
	url := peertest.StartSDKHTTP(t, nil) // the SDK peer of the reads: no SubscribeHandler
	s := connectSub(t, targets.Target{Kind: targets.HTTP, Address: url}, protocol.V20251125)
	_, err := s.Subscribe(context.Background(), SubscribeSpec{URIs: []string{subURI}}, nil)
	if !errors.Is(err, ErrSubscriptionsUnsupported) {
		t.Fatalf("err = %v, want ErrSubscriptionsUnsupported", err)
	}
}
