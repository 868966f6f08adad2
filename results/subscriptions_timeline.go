package results

import (
	"math"
	"time"

	"github.com/readbench/readbench/stats"
)

// SubscriptionSecond is one second of the freshness loop, on the seconds
// of the result's timeline (t_s counted from the run's start, warmup
// included), so a storm of re-reads lines up with the reads it slowed:
// the changes made, the notifications received and the re-reads sent in
// it, and of the changes made in it the subscriptions never told of them
// (missed) or down when they were made and never told (lost in gaps; a
// change missed by three listeners counts three). Each column adds up to
// its total: changes.made, notifications.received, notifications.missed,
// notifications.lost_in_gaps, rereads.made. Added in v1: absent from
// results written before.
type SubscriptionSecond struct {
	T             int   `json:"t_s"`
	Changes       int64 `json:"changes"`
	Notifications int64 `json:"notifications"`
	Missed        int64 `json:"missed"`
	LostInGaps    int64 `json:"lost_in_gaps"`
	Rereads       int64 `json:"rereads"`
}

// subscriptionTimeline is the result's form of the loop's seconds.
func subscriptionTimeline(secs []stats.ListenSecond) []SubscriptionSecond {
	out := make([]SubscriptionSecond, 0, len(secs))
	for _, s := range secs {
		out = append(out, SubscriptionSecond{T: s.Second, Changes: s.Changes, Notifications: s.Notifications,
			Missed: s.Missed, LostInGaps: s.LostInGaps, Rereads: s.Rereads})
	}
	return out
}

// listenSecondsOf reads a result's loop seconds back, placed on the clock
// that starts at origin (the earliest shard's start) as timelineRun
// places the reads' seconds: shifted by the result's own start, rounded
// to the nearest second.
func listenSecondsOf(r *Result, origin time.Time) []stats.ListenSecond {
	s := r.Subscriptions
	if s == nil || len(s.Timeline) == 0 {
		return nil
	}
	shift := max(int(math.Round(r.Started.Sub(origin).Seconds())), 0)
	out := make([]stats.ListenSecond, 0, shift+len(s.Timeline))
	for i := range shift {
		out = append(out, stats.ListenSecond{Second: i})
	}
	for _, x := range s.Timeline {
		out = append(out, stats.ListenSecond{Second: len(out), Changes: x.Changes, Notifications: x.Notifications,
			Missed: x.Missed, LostInGaps: x.LostInGaps, Rereads: x.Rereads})
	}
	return out
}
