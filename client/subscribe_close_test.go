package client

import (
	"context"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/targets"
)

// TestStdioListenCloseCancelsFirst: over stdio, a 2026-07-28 listen's
// Close returns only once its notifications/cancelled is written to the
// server's stdin. Sent in the background, as a read's cancel is, it could
// be written after what the closer sent next — check's change of the
// unsubscribed document — and a server that honoured the cancel was
// failed "unsubscribe stops" for telling of that change (seen in CI on a
// saturated machine).
func TestStdioListenCloseCancelsFirst(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := Dial{Target: targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, simStdioPeer)}, HandshakeTimeout: 30 * time.Second}
	s, _, err := Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Modern() {
		t.Fatal("the simulated server did not speak 2026-07-28")
	}
	st := s.t.(*stdioTransport)
	for i := range 20 {
		sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{"sim:///close.md?mime=text/markdown&size=64"}}, func(Notification) {})
		if err != nil {
			t.Fatal(err)
		}
		if err := sub.Close(ctx); err != nil {
			t.Fatal(err)
		}
		st.calls.mu.Lock()
		tb, ok := st.calls.tombs.Get(sub.id)
		st.calls.mu.Unlock()
		if !ok || tb.onServer.IsZero() {
			t.Fatalf("close %d: Close returned before the listen's notifications/cancelled was written (tomb %v %+v)", i, ok, tb)
		}
	}
}
