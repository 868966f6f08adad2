package simserver

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/protocol"
)

// The freshness loop against the official Go SDK's client, in both eras,
// on each transport that serves it: subscribe, touch, the right
// notification, unsubscribe, no more.

// sdkListener is an SDK client whose notifications/resources/updated land
// in a channel.
func sdkListener(updates chan<- *mcp.ResourceUpdatedNotificationParams) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "simserver-test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updates <- req.Params:
			default: // the test reads them all; a full channel is its failure
			}
		},
	})
}

// touchSDK calls the touch tool and returns its Change.
func touchSDK(t *testing.T, cs *mcp.ClientSession, uri string) Change {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: TouchTool, Arguments: map[string]any{"uri": uri}})
	if err != nil || res.IsError {
		t.Fatalf("touch %s: %v %+v", uri, err, res)
	}
	var ch Change
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &ch); err != nil {
		t.Fatalf("touch result %s: %v", b, err)
	}
	return ch
}

// nextUpdate waits (bounded) for a notification.
func nextUpdate(t *testing.T, updates <-chan *mcp.ResourceUpdatedNotificationParams) *mcp.ResourceUpdatedNotificationParams {
	t.Helper()
	select {
	case u := <-updates:
		return u
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/updated within 10s")
		return nil
	}
}

func TestSDKSubscriptions(t *testing.T) {
	legacy := &mcp.ClientSessionOptions{ProtocolVersion: protocol.V20251125}
	cases := []struct {
		name    string
		opts    Options
		stdio   bool
		session *mcp.ClientSessionOptions
		modern  bool
	}{
		{"http-stateless/modern", Options{}, false, nil, true},
		{"http-stateful/modern", Options{Stateful: true}, false, nil, true},
		{"http-stateful/legacy", Options{Stateful: true}, false, legacy, false},
		{"stdio/modern", Options{}, true, nil, true},
		{"stdio/legacy", Options{}, true, legacy, false},
	}
	const uri = "sim:///live.md?mime=text/markdown&size=2048"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(tc.opts)
			defer s.Close()
			updates := make(chan *mcp.ResourceUpdatedNotificationParams, 16)
			client := sdkListener(updates)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var cs *mcp.ClientSession
			if tc.stdio {
				cs = connectStdioClient(t, s, client, tc.session)
			} else {
				var err error
				cs, err = client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: startHTTP(t, s), MaxRetries: -1}, tc.session)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
			}
			if init := cs.InitializeResult(); init.Capabilities.Resources == nil || !init.Capabilities.Resources.Subscribe {
				t.Errorf("capabilities %+v: want resources.subscribe", init.Capabilities.Resources)
			}
			before, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatal(err)
			}
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			// A 2026-07-28 Subscribe returns before the server has the
			// listen; a legacy one once it has it.
			waitStats(t, s, "one URI followed", func(st Stats) bool { return st.Subscriptions.URIs == 1 })

			ch := touchSDK(t, cs, uri)
			if ch.Revision != 1 || ch.Seq != 1 || ch.Notified != 1 {
				t.Errorf("touch = %+v, want revision 1, seq 1, 1 notified", ch)
			}
			u := nextUpdate(t, updates)
			if u.URI != uri {
				t.Errorf("updated uri %q, want %q", u.URI, uri)
			}
			if got := fmt.Sprint(u.Meta[MetaChangeSeq]); got != "1" {
				t.Errorf("_meta changeSeq = %v, want 1 (meta %v)", got, u.Meta)
			}
			if _, ok := u.Meta[protocol.MetaSubscriptionID]; ok != tc.modern {
				t.Errorf("_meta %v: subscriptionId present %v, want %v", u.Meta, ok, tc.modern)
			}
			after, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatal(err)
			}
			if after.Contents[0].Text == before.Contents[0].Text || len(after.Contents[0].Text) != len(before.Contents[0].Text) {
				t.Errorf("after the change the text is the same, or of another size (%d, %d bytes)", len(after.Contents[0].Text), len(before.Contents[0].Text))
			}
			if rev := fmt.Sprint(after.Contents[0].Meta[MetaRevision]); rev != "1" {
				t.Errorf("entry _meta revision = %v, want 1", rev)
			}

			if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
				t.Fatalf("unsubscribe: %v", err)
			}
			waitStats(t, s, "nothing followed", func(st Stats) bool { return st.Subscriptions.URIs == 0 })
			if ch := touchSDK(t, cs, uri); ch.Notified != 0 || ch.Revision != 2 {
				t.Errorf("touch after unsubscribe = %+v, want revision 2, nobody notified", ch)
			}
			select {
			case u := <-updates:
				t.Errorf("notification after unsubscribe: %+v", u)
			case <-time.After(100 * time.Millisecond): // the server notified nobody: this only catches a stray
			}
		})
	}
}
