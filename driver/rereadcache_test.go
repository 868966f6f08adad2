package driver

import (
	"context"
	"testing"
	"time"

	"github.com/readbench/readbench/workload"
)

// rereadStep is one re-read in a counting test: listener who re-reads
// uri as of its change through; a leader's read is answered with
// scopes[uri] at once, unless inFlight (settled after the next step).
type rereadStep struct {
	who      int
	uri      string
	through  int
	inFlight bool
}

// rereadCounts are the counters admit and the leaders' settling move.
type rereadCounts struct{ sent, skippedFresh, wouldSkip, skippedScope, wouldScope int64 }

// TestRereadCacheCounting: what the listener's own cache (ttlMs) and a
// cache shared between the listeners (cacheScope public) save, counted
// once each: docs/subscriptions.md, re-reads and the cache hints.
func TestRereadCacheCounting(t *testing.T) {
	pub := map[string]string{"a": "public", "b": "private", "c": ""}
	for _, c := range []struct {
		name              string
		ignoreTTL, honour bool
		fresh             map[int]string // listener → a URI its own cache holds fresh
		steps             []rereadStep
		want              rereadCounts
	}{
		{name: "two listeners, one change, public", steps: []rereadStep{{0, "a", 1, false}, {1, "a", 1, false}},
			want: rereadCounts{sent: 2, wouldScope: 1}},
		{name: "honoured: public", honour: true, steps: []rereadStep{{0, "a", 1, false}, {1, "a", 1, false}},
			want: rereadCounts{sent: 1, skippedScope: 1}},
		{name: "private", steps: []rereadStep{{0, "b", 1, false}, {1, "b", 1, false}},
			want: rereadCounts{sent: 2}},
		{name: "honoured: private", honour: true, steps: []rereadStep{{0, "b", 1, false}, {1, "b", 1, false}},
			want: rereadCounts{sent: 2}},
		{name: "no scope", honour: true, steps: []rereadStep{{0, "c", 1, false}, {1, "c", 1, false}},
			want: rereadCounts{sent: 2}},
		{name: "private, two streams a listener: its own cache", steps: []rereadStep{{0, "b", 1, false}, {0, "b", 1, false}, {1, "b", 1, false}, {1, "b", 1, false}},
			want: rereadCounts{sent: 4, wouldScope: 2}},
		{name: "honoured: private, two streams a listener", honour: true, steps: []rereadStep{{0, "b", 1, false}, {0, "b", 1, false}, {1, "b", 1, false}, {1, "b", 1, false}},
			want: rereadCounts{sent: 2, skippedScope: 2}},
		{name: "public, two streams a listener", steps: []rereadStep{{0, "a", 1, false}, {0, "a", 1, false}, {1, "a", 1, false}, {1, "a", 1, false}},
			want: rereadCounts{sent: 4, wouldScope: 3}},
		{name: "honoured: public, two streams a listener", honour: true, steps: []rereadStep{{0, "a", 1, false}, {1, "a", 1, false}, {1, "a", 1, false}, {0, "a", 1, false}},
			want: rereadCounts{sent: 1, skippedScope: 3}},
		{name: "no scope, two streams a listener", honour: true, steps: []rereadStep{{0, "c", 1, false}, {0, "c", 1, false}},
			want: rereadCounts{sent: 2}},
		{name: "private in flight: the same listener's", steps: []rereadStep{{0, "b", 1, true}, {0, "b", 1, false}, {1, "b", 1, false}},
			want: rereadCounts{sent: 3, wouldScope: 1}},
		{name: "mixed: three listeners of a public and a private document",
			steps: []rereadStep{{0, "a", 1, false}, {0, "b", 1, false}, {1, "a", 1, false}, {1, "b", 1, false}, {2, "b", 1, false}, {2, "a", 1, false}},
			want:  rereadCounts{sent: 6, wouldScope: 2}},
		{name: "honoured: mixed", honour: true,
			steps: []rereadStep{{0, "a", 1, false}, {0, "b", 1, false}, {1, "a", 1, false}, {1, "b", 1, false}, {2, "b", 1, false}, {2, "a", 1, false}},
			want:  rereadCounts{sent: 4, skippedScope: 2}},
		{name: "two changes: a leader each", steps: []rereadStep{{0, "a", 1, false}, {1, "a", 1, false}, {0, "a", 2, false}, {1, "a", 2, false}},
			want: rereadCounts{sent: 4, wouldScope: 2}},
		{name: "sent while the leader is in flight", steps: []rereadStep{{0, "a", 1, true}, {1, "a", 1, false}, {2, "a", 1, false}},
			want: rereadCounts{sent: 3, wouldScope: 2}},
		{name: "ttl honoured first: not counted again", honour: true, fresh: map[int]string{1: "a"},
			steps: []rereadStep{{0, "a", 1, false}, {1, "a", 1, false}, {2, "a", 1, false}},
			want:  rereadCounts{sent: 1, skippedFresh: 1, skippedScope: 1}},
		{name: "ttl ignored: a fresh re-read is the ttl's, and leads nothing", ignoreTTL: true, fresh: map[int]string{0: "a"},
			steps: []rereadStep{{0, "a", 1, false}, {1, "a", 1, false}, {2, "a", 1, false}},
			want:  rereadCounts{sent: 3, wouldSkip: 1, wouldScope: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &listeners{spec: &workload.Listen{Reread: workload.Reread{IgnoreTTL: c.ignoreTTL, HonourScope: c.honour}}}
			now := time.Now()
			members := make([]*listener, 3)
			for i := range members {
				members[i] = &listener{l: l}
				if u, ok := c.fresh[i]; ok {
					members[i].ttl.store(u, now, time.Hour)
				}
			}
			var sent int64
			var inFlight func()
			for _, st := range c.steps {
				send, leads := members[st.who].admit(context.Background(), st.uri, st.through, now)
				if send {
					sent++
				}
				settle := func() { l.settle(leads, pub[st.uri]) }
				if inFlight != nil {
					inFlight()
					inFlight = nil
				}
				if st.inFlight {
					inFlight = settle
				} else if send {
					settle()
				}
			}
			if inFlight != nil {
				inFlight()
			}
			got := rereadCounts{sent, l.skipped.Load(), l.wouldSkip.Load(), l.skippedScope.Load(), l.wouldScope.Load()}
			if got != c.want {
				t.Errorf("counts %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestRereadSharedWaitEnds: honouring the scope, a re-read waiting for
// its version's leader is neither sent nor counted when the run ends
// first.
func TestRereadSharedWaitEnds(t *testing.T) {
	l := &listeners{spec: &workload.Listen{Reread: workload.Reread{HonourScope: true}}}
	a, b := &listener{l: l}, &listener{l: l}
	if send, got := a.admit(context.Background(), "a", 1, time.Now()); !send || got.shared == nil {
		t.Fatalf("first re-read: send %v leads %+v", send, got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if send, got := b.admit(ctx, "a", 1, time.Now()); send || got != (leads{}) || l.skippedScope.Load() != 0 || l.wouldScope.Load() != 0 {
		t.Errorf("a re-read waiting as the run ended: send %v leads %+v, skipped %d", send, got, l.skippedScope.Load())
	}
}
