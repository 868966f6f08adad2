package metrics

import (
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/readbench/readbench/stats"
)

// listening is what two listeners might record: four changes of one URI,
// the first listener told of each 2 ms after, the second of every other
// one 7 ms after when miss (then one change is coalesced, one missed),
// and violations wrong subscription ids.
func listening(miss bool, violations int64) *stats.Listening {
	f := stats.NewFreshness(true)
	t0 := time.Date(2026, 12, 9, 12, 0, 0, 0, time.UTC)
	a := f.Subscribe([]string{"u"}, t0, 3*time.Millisecond)
	b := f.Subscribe([]string{"u"}, t0, 5*time.Millisecond)
	for i := range 4 {
		at := t0.Add(time.Duration(10*(i+1)) * time.Millisecond)
		f.Changed("u", at)
		a.Notified("u", at.Add(2*time.Millisecond))
		if !miss || i%2 == 0 {
			b.Notified("u", at.Add(7*time.Millisecond))
		}
	}
	l := stats.NewListening()
	l.Mode = stats.ModeListen
	l.Listeners = stats.ListenerCounts{Asked: 2, Connected: 2, Listening: 2}
	l.Streams = stats.StreamCounts{Asked: 3, Opened: 2, Refused: stats.StreamRefusals{LimitReached: 1}}
	l.Violations.WrongSubscriptionID = violations
	l.Freshness = f.Summary()
	return l
}

// value is the value of family name's series whose label has value v
// (a summary's count when it is a summary), and whether there is one.
func value(fams []*dto.MetricFamily, name, label, v string) (float64, bool) {
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			match := label == ""
			for _, l := range m.GetLabel() {
				match = match || l.GetName() == label && l.GetValue() == v
			}
			switch {
			case !match:
			case m.GetCounter() != nil:
				return m.GetCounter().GetValue(), true
			case m.GetGauge() != nil:
				return m.GetGauge().GetValue(), true
			case m.GetSummary() != nil:
				return float64(m.GetSummary().GetSampleCount()), true
			}
		}
	}
	return 0, false
}

// TestSubscriptionSeries: a run's listeners, published at its end, are
// series of that run (its labels) with the accounting's counts and the
// latency summaries; published again, they replace the first values; a
// run without listeners publishes none.
func TestSubscriptionSeries(t *testing.T) {
	r := New(Options{})
	r.Start(RunLabels{ID: "subs"}, []stats.ClassInfo{{Name: "a"}}, 1)
	r.Subscriptions("", nil)
	fams, err := r.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := value(fams, "readbench_notifications_total", "kind", "expected"); ok {
		t.Fatal("a run without listeners has notification series")
	}
	for _, c := range []struct {
		miss       bool
		violations int64
		missed     float64
	}{{true, 2, 1}, {false, 0, 0}} {
		r.Subscriptions("", listening(c.miss, c.violations))
		fams, err := r.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct {
			name, label, v string
			want           float64
		}{
			{"readbench_notifications_total", "kind", "expected", 8},
			{"readbench_notifications_total", "kind", "missed", c.missed},
			{"readbench_notification_violations_total", "violation", "wrong_subscription_id", float64(c.violations)},
			{"readbench_subscriptions", "state", "refused_limit", 1},
			{"readbench_listeners", "state", "listening", 2},
			{"readbench_subscription_ack_seconds", "", "", 2},
			{"readbench_notify_by_nobody", "", "", -1},
		} {
			got, ok := value(fams, w.name, w.label, w.v)
			if w.want < 0 {
				if ok {
					t.Errorf("%s exists", w.name)
				}
				continue
			}
			if !ok || got != w.want {
				t.Errorf("miss %v: %s{%s=%q} = %v (%v), want %v", c.miss, w.name, w.label, w.v, got, ok, w.want)
			}
		}
		if _, ok := value(fams, "readbench_notifications_total", "run_id", "subs"); !ok {
			t.Errorf("the series do not carry the run's labels")
		}
	}
}
