package metrics

import (
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// soFar is what a run's progress might carry of its listeners mid-run:
// two listening, one subscription acknowledged, three notifications, and
// untold changes so far.
func soFar(untold int64) *stats.Listening {
	f := stats.FreshnessSummary{Ack: stats.NewHistogram(), Notify: stats.NewHistogram(), Open: 2}
	f.Ack.Record(3 * time.Millisecond)
	f.Notify.Record(5 * time.Millisecond)
	f.Counts = stats.FreshnessCounts{Changes: 4, Subscriptions: 2, Notifications: 3, Notified: 3, Expected: 3 + untold, Missed: untold}
	return &stats.Listening{Mode: stats.ModeListen, Listeners: stats.ListenerCounts{Asked: 2, Connected: 2, Listening: 2},
		Streams: stats.StreamCounts{Asked: 2, Opened: 2}, Freshness: f}
}

// TestSubscriptionSeriesLive: each progress of a run with listeners
// updates their series while the run goes on (the listeners, the
// notifications received and notified, the latency so far, the untold
// gauge), without the identity's expected, coalesced and missed, which a
// late notification could lower; the end's accounting then replaces them
// with every kind. A progress without listeners publishes none.
func TestSubscriptionSeriesLive(t *testing.T) {
	r := New(Options{})
	r.Start(RunLabels{ID: "live"}, []stats.ClassInfo{{Name: "a"}}, 1)
	progress := r.Progress("", nil)
	type want struct {
		name, label, v string
		want           float64 // -1: absent
	}
	for _, c := range []struct {
		name  string
		apply func()
		want  []want
	}{
		{name: "no listeners", apply: func() { progress(stats.Progress{InFlight: 1}) },
			want: []want{{"readbench_listeners", "state", "listening", -1}, {"readbench_notifications_untold", "", "", -1}}},
		{name: "mid-run", apply: func() { progress(stats.Progress{InFlight: 1, Listening: soFar(1)}) },
			want: []want{{"readbench_listeners", "state", "listening", 2}, {"readbench_notifications_total", "kind", "received", 3},
				{"readbench_notifications_total", "kind", "notified", 3}, {"readbench_notifications_total", "kind", "missed", -1},
				{"readbench_notifications_total", "kind", "expected", -1}, {"readbench_notifications_untold", "", "", 1},
				{"readbench_subscription_ack_seconds", "", "", 1}}},
		{name: "the next second: replaced", apply: func() { progress(stats.Progress{InFlight: 1, Listening: soFar(0)}) },
			want: []want{{"readbench_notifications_untold", "", "", 0}, {"readbench_listeners", "state", "listening", 2}}},
		{name: "the end", apply: func() { r.Subscriptions("", listening(true, 2)) },
			want: []want{{"readbench_notifications_total", "kind", "missed", 1}, {"readbench_notifications_total", "kind", "expected", 8},
				{"readbench_notifications_untold", "", "", 1}, {"readbench_subscription_ack_seconds", "", "", 2}}},
	} {
		c.apply()
		fams, err := r.Gather()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			got, ok := value(fams, w.name, w.label, w.v)
			if w.want < 0 {
				if ok {
					t.Errorf("%s: %s{%s=%q} = %v, want none", c.name, w.name, w.label, w.v, got)
				}
				continue
			}
			if !ok || got != w.want {
				t.Errorf("%s: %s{%s=%q} = %v (%v), want %v", c.name, w.name, w.label, w.v, got, ok, w.want)
			}
		}
	}
}
