package driver

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/stats"
)

// TestListenTimelineAddsUp: a run with listeners and changes keeps the
// freshness loop per second on the reads' seconds, and its columns add
// up to the totals: changes made, notifications received, missed, lost
// in gaps and re-reads made. Its progress carries the listeners' state
// so far once they listen: the sessions listening, the subscriptions
// open, notifications received and their latency.
func TestListenTimelineAddsUp(t *testing.T) {
	hs := peertest.ServeLocal(t, simserver.New(simserver.Options{}).Handler())
	w := listenWorkload(t, hs.URL+"/mcp", "auto", fmt.Sprintf(touchListen, listenURIs))
	var mu sync.Mutex
	var ticks []stats.Progress
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := measure(ctx, Options{Workload: w, Logf: t.Logf, Progress: func(p stats.Progress) {
		mu.Lock()
		defer mu.Unlock()
		ticks = append(ticks, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := rep.result(results.Tool{Name: "readbench", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Subscriptions
	if s == nil || len(s.Timeline) == 0 {
		t.Fatalf("no subscriptions timeline: %+v", s)
	}
	var sum stats.ListenSecond
	for i, x := range s.Timeline {
		if x.Second != i {
			t.Errorf("timeline entry %d is second %d", i, x.Second)
		}
		sum.Changes += x.Changes
		sum.Notifications += x.Notifications
		sum.Missed += x.Missed
		sum.LostInGaps += x.LostInGaps
		sum.Rereads += x.Rereads
	}
	n := s.Notifications
	want := stats.ListenSecond{Changes: s.Changes.Made, Notifications: n.Received, Missed: n.Missed, LostInGaps: n.LostInGaps, Rereads: s.Rereads.Made}
	if sum != want || want.Changes == 0 || want.Notifications == 0 || want.Rereads == 0 {
		t.Errorf("the seconds add up to %+v, the totals are %+v", sum, want)
	}
	mu.Lock()
	defer mu.Unlock()
	// Some tick, while the streams were open, saw them all acknowledged
	// and notifications come (the last tick may come after they closed,
	// at the run's end, on a slow machine).
	var seen *stats.Listening
	for i, p := range ticks {
		if p.Listening == nil {
			t.Fatalf("tick %d of a run with listeners has no listeners' state", i+1)
		}
		if l := p.Listening; l.Freshness.Counts.Notifications > 0 && (seen == nil || !midRun(seen)) {
			seen = l
		}
	}
	if seen == nil {
		t.Fatalf("no tick saw a notification in %d ticks", len(ticks))
	}
	if !midRun(seen) {
		t.Errorf("listeners' state so far: listening %d, open %d, acks %d, notify %d, mode %q; want 2, 4, 4, some, listen",
			seen.Listeners.Listening, seen.Freshness.Open, seen.Freshness.Ack.Count(), seen.Freshness.Notify.Count(), seen.Mode)
	}
}

// midRun says whether l is the state of TestListenTimelineAddsUp's run
// in its middle: 2 listeners on 4 streams, all acknowledged, notified.
func midRun(l *stats.Listening) bool {
	return l.Listeners.Listening == 2 && l.Freshness.Open == 4 && l.Freshness.Ack.Count() == 4 && l.Freshness.Notify.Count() > 0 && l.Mode == stats.ModeListen
}
