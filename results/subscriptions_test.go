package results

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// listening is what listeners might record: a freshness accounting of
// changes and notifications (with miss, the second subscription is not
// told of two changes: one is coalesced with the next, the last missed),
// and the counts
// around it.
func listening(miss bool, violations int64) *stats.Listening {
	f := stats.NewFreshness(true)
	f.SetClassOf(func(u string) string { return map[string]string{"u": "md"}[u] })
	t0 := time.Date(2026, 12, 9, 12, 0, 0, 0, time.UTC)
	gone := f.Subscribe([]string{"v"}, t0, time.Millisecond) // dropped, its change lost in the gap
	gone.Dropped(t0.Add(time.Millisecond))
	f.Changed("v", t0.Add(2*time.Millisecond))
	gone.End(t0.Add(time.Second))
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
	l.Streams = stats.StreamCounts{Asked: 2, Opened: 2, Ended: stats.StreamEndings{Closed: 2}, Reconnects: 1, KeepAlives: 3}
	l.Lifetime.Record(time.Second)
	l.Lifetime.Record(2 * time.Second)
	l.Violations.WrongSubscriptionID = violations
	l.Changes = stats.ChangeCounts{Via: "tool", Rate: 5}
	l.ChangeLag.Record(time.Millisecond)
	l.Rereads = stats.RereadCounts{Class: "reread", Made: 7, SkippedFresh: 1}
	l.Freshness = f.Summary()
	return l
}

// TestSubscriptionsBlock: the block has every key, its counts are the
// accounting's, its identity holds, a run without listeners has it null,
// and what the server did wrong reaches the health line and its reasons.
func TestSubscriptionsBlock(t *testing.T) {
	plain := fixture(t, false)
	if plain.Subscriptions != nil {
		t.Fatalf("a run without listeners has subscriptions %+v", plain.Subscriptions)
	}
	b, _ := json.Marshal(plain)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil || string(top["subscriptions"]) != "null" {
		t.Fatalf("subscriptions key %q, want null (%v)", top["subscriptions"], err)
	}
	for _, c := range []struct {
		name       string
		miss       bool
		violations int64
		line       string // in the health line ("": nothing said)
	}{
		{"all told", false, 0, ""},
		{"missed", true, 0, "1 of 8 expected notifications missed"},
		{"wrong id", false, 3, "3 protocol violations in notifications (wrong-subscription-id 3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := fixtureMeta(false)
			m.AskedRate = 10.5
			m.Listening = listening(c.miss, c.violations)
			r, err := Build(m, fixtureWorkload(t), fixtureRun(false), fixtureWarmup())
			if err != nil {
				t.Fatal(err)
			}
			s := r.Subscriptions
			n := s.Notifications
			if s == nil || !n.IdentityOK || n.Expected != 8 || n.Notified+n.Coalesced+n.Missed != 8 || s.Changes.Made != 5 ||
				n.LostInGaps != 1 || s.Ack.Count != 3 || s.Notify.Count != n.Notified+n.Coalesced || s.Changes.Lag.Count != 1 || s.Rereads.Made != 7 {
				t.Fatalf("block %+v", s)
			}
			if (c.miss && n.Missed != 1) || (!c.miss && n.Missed != 0) {
				t.Errorf("missed %d", n.Missed)
			}
			said := strings.Contains(r.Health.Line, "subscriptions:")
			if c.line == "" && said || c.line != "" && !strings.Contains(r.Health.Line, c.line) {
				t.Errorf("health line %q, want it to say %q", r.Health.Line, c.line)
			}
			if c.line != "" && r.Health.Mark() == "✓" {
				t.Errorf("health line %q: a server defect must not be marked ✓", r.Health.Line)
			}
			b, _ := json.Marshal(r)
			var doc struct {
				Subscriptions map[string]json.RawMessage `json:"subscriptions"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"mode", "listeners", "streams", "changes", "notifications", "violations", "ack", "notify", "spread", "rereads"} {
				if _, ok := doc.Subscriptions[k]; !ok {
					t.Errorf("subscriptions.%s missing", k)
				}
			}
		})
	}
}

// TestMergeAddsSubscriptions: merged shards add every count and merge
// every histogram of their subscriptions blocks exactly (the merged
// identity holds), and shards without listeners keep the key null.
func TestMergeAddsSubscriptions(t *testing.T) {
	w := fixtureWorkload(t)
	_, shards := shardedRuns(2)
	shard := func(k int, l *stats.Listening) MergeInput {
		r := buildShard(t, w, Segment{K: k, N: 2}, shards[k-1], 25)
		var err error
		if r.Subscriptions, err = subscriptionsOf(l); err != nil {
			t.Fatal(err)
		}
		return MergeInput{Name: "s" + string(rune('0'+k)), Result: r}
	}
	got, err := Merge([]MergeInput{shard(1, listening(true, 1)), shard(2, listening(false, 0))})
	if err != nil {
		t.Fatal(err)
	}
	s := got.Subscriptions
	if s == nil {
		t.Fatal("merged subscriptions null")
	}
	n := s.Notifications
	if n.Expected != 16 || n.Missed != 1 || !n.IdentityOK || s.Changes.Made != 10 || n.LostInGaps != 2 ||
		s.Streams.Lifetime.Count != 4 || s.Streams.Reconnects != 2 || s.Streams.KeepAlives != 6 || s.Streams.Opened != 4 || s.Listeners.Asked != 4 ||
		s.Violations.WrongSubscriptionID != 1 || s.Rereads.Made != 14 || s.Ack.Count != 6 || s.Notify.Count != n.Notified+n.Coalesced ||
		s.Changes.Rate != 10 || s.Mode != "listen" {
		t.Errorf("merged %+v", s)
	}
	if len(s.NotifyByClass) != 1 || s.NotifyByClass[0].Class != "md" || s.NotifyByClass[0].Latency.Count != s.Notify.Count {
		t.Errorf("merged notify_by_class %+v, want md with all %d values", s.NotifyByClass, s.Notify.Count)
	}
	if len(s.NotifyByListeners) != 1 || s.NotifyByListeners[0].Listeners != "2-10" || s.NotifyByListeners[0].Min != 2 ||
		s.NotifyByListeners[0].Max != 10 || s.NotifyByListeners[0].Latency.Count != s.Notify.Count {
		t.Errorf("merged notify_by_listeners %+v, want 2-10 with all %d values", s.NotifyByListeners, s.Notify.Count)
	}
	plain, err := Merge([]MergeInput{shard(1, nil), shard(2, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Subscriptions != nil {
		t.Errorf("merged subscriptions %+v of runs without listeners", plain.Subscriptions)
	}
}
