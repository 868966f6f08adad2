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
	l.Streams = stats.StreamCounts{Asked: 2, Opened: 2, Ended: stats.StreamEndings{Closed: 2}}
	l.Violations.WrongSubscriptionID = violations
	l.Changes = stats.ChangeCounts{Via: "tool", Rate: 5}
	l.ChangeLag.Record(time.Millisecond)
	l.Rereads = stats.RereadCounts{Class: "reread", Made: 7, SkippedFresh: 1, SkippedScope: 2, WouldSkipScope: 3}
	l.Freshness = f.Summary()
	return l
}

// withLife adds a stream's life to l: two lifetimes, a reconnect,
// keep-alives, and a change lost in a gap.
func withLife(l *stats.Listening) *stats.Listening {
	l.Streams.Reconnects, l.Streams.KeepAlives = 1, 3
	l.Lifetime.Record(time.Second)
	l.Lifetime.Record(2 * time.Second)
	l.Freshness.Counts.LostInGaps++
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
			if s == nil || !n.IdentityOK || n.Expected != 8 || n.Notified+n.Coalesced+n.Missed != 8 || s.Changes.Made != 4 ||
				n.LostInGaps != 0 || s.Ack.Count != 2 || s.Notify.Count != n.Notified+n.Coalesced || s.Changes.Lag.Count != 1 || s.Rereads.Made != 7 {
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
// identity holds) — but the changes, their rate and their failures, one
// schedule every shard records, are not added — and shards without
// listeners keep the key null.
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
	got, err := Merge([]MergeInput{shard(1, withLife(listening(true, 1))), shard(2, withLife(listening(false, 0)))})
	if err != nil {
		t.Fatal(err)
	}
	s := got.Subscriptions
	if s == nil {
		t.Fatal("merged subscriptions null")
	}
	n := s.Notifications
	if n.Expected != 16 || n.Missed != 1 || !n.IdentityOK || s.Changes.Made != 4 || n.LostInGaps != 2 ||
		s.Streams.Lifetime.Count != 4 || s.Streams.Reconnects != 2 || s.Streams.KeepAlives != 6 || s.Streams.Opened != 4 || s.Listeners.Asked != 4 ||
		s.Violations.WrongSubscriptionID != 1 || s.Rereads.Made != 14 || s.Rereads.SkippedScope != 4 || s.Rereads.WouldSkipScope != 6 || s.Ack.Count != 4 || s.Notify.Count != n.Notified+n.Coalesced ||
		s.Changes.Rate != 5 || s.Mode != "listen" {
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

// TestSubscriptionsHealthStreamLife: a legacy session stream cut and
// reopened, and changes lost in a gap, are said on the health line and
// mark it; a run with neither says nothing of them.
func TestSubscriptionsHealthStreamLife(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Subscriptions
		want string // "": nothing said
	}{
		{"quiet", Subscriptions{Streams: Streams{StreamCounts: stats.StreamCounts{Opened: 2}}, Notifications: Notifications{IdentityOK: true}}, ""},
		{"legacy stream cut", Subscriptions{Streams: Streams{StreamCounts: stats.StreamCounts{Opened: 2, Reconnects: 3}}, Notifications: Notifications{IdentityOK: true}},
			"reopened 3 times"},
		{"lost in gaps", Subscriptions{Streams: Streams{StreamCounts: stats.StreamCounts{Opened: 2, Reconnects: 1, Ended: stats.StreamEndings{Dropped: 1}}},
			Notifications: Notifications{IdentityOK: true, LostInGaps: 4}}, "4 changes lost while a stream was down"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, reasons, mark := subscriptionsHealth(&c.s)
			all := strings.Join(reasons, "\n")
			if c.want == "" && (mark || all != "") || c.want != "" && (!mark || !strings.Contains(all, c.want)) {
				t.Errorf("mark %v reasons %q, want %q", mark, all, c.want)
			}
		})
	}
}

// TestNotifyBreakdownsReadBack: the rows read back into histograms that
// give the same rows again, and a row naming a bucket readbench does not
// keep is refused rather than merged into another.
func TestNotifyBreakdownsReadBack(t *testing.T) {
	s, err := subscriptionsOf(withLife(listening(false, 0)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		rows   []ListenersNotify
		refuse bool
	}{
		{"as built", s.NotifyByListeners, false},
		{"unknown bucket", []ListenersNotify{{Listeners: "11-99", Latency: s.Notify}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := *s
			in.NotifyByListeners = c.rows
			var f stats.FreshnessSummary
			err := breakdownsOf(&in, &f)
			if c.refuse {
				if err == nil {
					t.Fatal("an unknown bucket was read back")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			byClass, byListeners, err := notifyBreakdowns(f)
			if err != nil || len(byClass) != len(s.NotifyByClass) || len(byListeners) != len(c.rows) ||
				byListeners[0].Listeners != c.rows[0].Listeners || byListeners[0].Latency.Count != c.rows[0].Latency.Count {
				t.Errorf("read back %+v %+v (%v), want %+v", byClass, byListeners, err, c.rows)
			}
		})
	}
}
