package results

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// TestMergeAddsSubscriptionTimelines: the shards' per-second
// notifications, missed and lost changes and re-reads add second by
// second on the wall clock (a shard started a second later lands a
// second later), and their changes, one schedule every shard records,
// are that schedule's; so each column still adds up to its merged
// total, and the timeline survives the document's JSON.
func TestMergeAddsSubscriptionTimelines(t *testing.T) {
	w := fixtureWorkload(t)
	_, shards := shardedRuns(2)
	for _, c := range []struct {
		name  string
		shift time.Duration // the second shard's start after the first's
		a, b  []stats.ListenSecond
		want  []stats.ListenSecond
	}{
		{name: "started together",
			a:    []stats.ListenSecond{{Second: 0, Changes: 2, Notifications: 3, Rereads: 1}, {Second: 1, Changes: 1, Missed: 1}},
			b:    []stats.ListenSecond{{Second: 0, Changes: 2, Notifications: 1}, {Second: 1, Changes: 1, LostInGaps: 1, Rereads: 2}, {Second: 2, Notifications: 4}},
			want: []stats.ListenSecond{{Second: 0, Changes: 2, Notifications: 4, Rereads: 1}, {Second: 1, Changes: 1, Missed: 1, LostInGaps: 1, Rereads: 2}, {Second: 2, Notifications: 4}}},
		{name: "the second a second later", shift: time.Second, // its seconds are the first's one later: the same changes there
			a:    []stats.ListenSecond{{Second: 0, Changes: 2, Notifications: 3, Rereads: 1}, {Second: 1, Changes: 1, Missed: 1}},
			b:    []stats.ListenSecond{{Second: 0, Changes: 1, Notifications: 1}, {Second: 1, LostInGaps: 1, Rereads: 2}},
			want: []stats.ListenSecond{{Second: 0, Changes: 2, Notifications: 3, Rereads: 1}, {Second: 1, Changes: 1, Notifications: 1, Missed: 1}, {Second: 2, LostInGaps: 1, Rereads: 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			shard := func(k int, secs []stats.ListenSecond, shift time.Duration) MergeInput {
				r := buildShard(t, w, Segment{K: k, N: 2}, shards[k-1], 25)
				l := listening(false, 0)
				l.Freshness.Timeline = secs
				var err error
				if r.Subscriptions, err = subscriptionsOf(l); err != nil {
					t.Fatal(err)
				}
				r.Started = NewTimestamp(r.Started.Add(shift))
				return MergeInput{Name: "s" + string(rune('0'+k)), Result: roundTrip(t, r)}
			}
			got, err := Merge([]MergeInput{shard(1, c.a, 0), shard(2, c.b, c.shift)})
			if err != nil {
				t.Fatal(err)
			}
			s := got.Subscriptions
			if !slices.Equal(s.Timeline, c.want) {
				t.Errorf("merged timeline\n got %+v\nwant %+v", s.Timeline, c.want)
			}
			var changes, rereads int64
			for _, x := range s.Timeline {
				changes += x.Changes
				rereads += x.Rereads
			}
			// The changes are one schedule, every shard's record of it the
			// same: the first shard's; the re-reads, each shard's own, add.
			if changes != sumChanges(c.a) || rereads != sumRereads(c.a)+sumRereads(c.b) {
				t.Errorf("merged columns add to %d changes and %d re-reads", changes, rereads)
			}
		})
	}
}

func sumChanges(s []stats.ListenSecond) (n int64) {
	for _, x := range s {
		n += x.Changes
	}
	return n
}

func sumRereads(s []stats.ListenSecond) (n int64) {
	for _, x := range s {
		n += x.Rereads
	}
	return n
}

// roundTrip is r written as JSON and read back.
func roundTrip(t *testing.T, r *Result) *Result {
	t.Helper()
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(r); err != nil {
		t.Fatal(err)
	}
	var out Result
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return &out
}
