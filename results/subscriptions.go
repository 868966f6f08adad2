package results

import (
	"time"

	"github.com/readbench/readbench/stats"
)

// Subscriptions is the freshness loop of a run with listeners
// (docs/results.md, subscriptions): how the listeners subscribed, the
// changes readbench made, how the notifications matched them
// (stats.Freshness's accounting, whose identity is expected = notified +
// coalesced + missed), what the notifications broke, and the re-reads
// they started (recorded as reads of their own class, in classes and the
// totals). The result's subscriptions key is null for a run without a
// listen section. Added in v1.
type Subscriptions struct {
	// Mode is how the listeners subscribed: "listen" (2026-07-28
	// subscriptions/listen) or "subscribe" (legacy resources/subscribe);
	// "" when no listener's session opened.
	Mode          string               `json:"mode"`
	Listeners     stats.ListenerCounts `json:"listeners"`
	Streams       Streams              `json:"streams"`
	Changes       Changes              `json:"changes"`
	Notifications Notifications        `json:"notifications"`
	Violations    stats.Violations     `json:"violations"`
	// Ack is each subscription's acknowledgement latency (its request's
	// send to the acknowledgement); Notify each change told to each
	// subscription (the change's send to the notification's arrival);
	// Spread the first to the last arrival of one change's notifications
	// (changes told to two or more subscriptions).
	Ack     stats.Latency      `json:"ack"`
	Notify  stats.Latency      `json:"notify"`
	Spread  stats.Latency      `json:"spread"`
	Rereads stats.RereadCounts `json:"rereads"`
	// NotifyByClass is Notify by the class of the notified URI, and
	// NotifyByListeners by the subscriptions open for the URI when it
	// changed (subscriptions_life.go); each adds up to Notify.
	NotifyByClass     []ClassNotify     `json:"notify_by_class"`
	NotifyByListeners []ListenersNotify `json:"notify_by_listeners"`
	// Timeline is the loop's seconds (stats.ListenSecond): the changes,
	// notifications, missed and lost changes and re-reads of each second
	// of the result's timeline, from t_s 0 (absent from results written
	// before v1).
	Timeline []stats.ListenSecond `json:"timeline"`
}

// Streams are the subscriptions' streams: how they opened, were refused,
// ended and came back (stats.StreamCounts), and how long each
// acknowledged one lived (its acknowledgement to its end; those readbench
// closed end at the run's end).
type Streams struct {
	stats.StreamCounts
	Lifetime stats.Latency `json:"lifetime"`
}

// Changes are the changes readbench made: how (via), at what rate, how
// many were sent and how many of those failed, and the scheduling lag of
// their sends.
type Changes struct {
	stats.ChangeCounts
	Made   int64         `json:"made"`
	Failed int64         `json:"failed"`
	Lag    stats.Latency `json:"lag"`
}

// Notifications are the notifications received and the accounting of the
// changes they tell of (stats.FreshnessCounts).
type Notifications struct {
	Received     int64 `json:"received"` // notifications/resources/updated on acknowledged subscriptions
	Expected     int64 `json:"expected"` // each change × each subscription open for it (failed changes untold excepted)
	Notified     int64 `json:"notified"`
	Coalesced    int64 `json:"coalesced"`
	Missed       int64 `json:"missed"`
	Duplicates   int64 `json:"duplicates"`
	Spontaneous  int64 `json:"spontaneous"`
	Unsubscribed int64 `json:"unsubscribed"`
	Unrouted     int64 `json:"unrouted"`
	// LostInGaps are changes made while a listener's stream for their URI
	// was down (after a drop, before its reconnect; legacy: between a
	// standalone stream's end and its reopening) that no notification
	// told of: not in expected, so not missed.
	LostInGaps int64 `json:"lost_in_gaps"`
	// IdentityOK is expected = notified + coalesced + missed.
	IdentityOK bool `json:"identity_ok"`
}

// subscriptionsOf is the subscriptions block of what the listeners
// recorded; nil without listeners.
func subscriptionsOf(l *stats.Listening) (*Subscriptions, error) {
	if l == nil {
		return nil, nil
	}
	c := l.Freshness.Counts
	out := &Subscriptions{
		Mode: l.Mode, Listeners: l.Listeners, Streams: Streams{StreamCounts: l.Streams}, Violations: l.Violations, Rereads: l.Rereads,
		Changes: Changes{ChangeCounts: l.Changes, Made: c.Changes, Failed: c.Failed},
		Notifications: Notifications{
			Received: c.Notifications, Expected: c.Expected, Notified: c.Notified, Coalesced: c.Coalesced, Missed: c.Missed,
			Duplicates: c.Duplicates, Spontaneous: c.Spontaneous, Unsubscribed: c.Unsubscribed, Unrouted: l.Unrouted,
			LostInGaps: c.LostInGaps, IdentityOK: c.IdentityOK(),
		},
	}
	var err error
	for _, b := range []struct {
		dst *stats.Latency
		h   *stats.Histogram
	}{
		{&out.Changes.Lag, l.ChangeLag}, {&out.Ack, l.Freshness.Ack}, {&out.Notify, l.Freshness.Notify}, {&out.Spread, l.Freshness.Spread},
		{&out.Streams.Lifetime, l.Lifetime},
	} {
		if *b.dst, err = LatencyOf(b.h); err != nil {
			return nil, err
		}
	}
	if out.NotifyByClass, out.NotifyByListeners, err = notifyBreakdowns(l.Freshness); err != nil {
		return nil, err
	}
	out.Timeline = append([]stats.ListenSecond{}, l.Freshness.Timeline...) // [] when empty, as before
	return out, nil
}

// listeningOf reads a subscriptions block back into what the listeners
// recorded (nil for a result without one), for merging shards.
func listeningOf(s *Subscriptions) (*stats.Listening, error) {
	if s == nil {
		return nil, nil
	}
	n := s.Notifications
	out := &stats.Listening{
		Mode: s.Mode, Listeners: s.Listeners, Streams: s.Streams.StreamCounts, Violations: s.Violations, Unrouted: n.Unrouted,
		Changes: s.Changes.ChangeCounts, Rereads: s.Rereads,
	}
	out.Freshness.Counts = stats.FreshnessCounts{
		Changes: s.Changes.Made, Failed: s.Changes.Failed, Subscriptions: s.Streams.Opened, Notifications: n.Received,
		Expected: n.Expected, Notified: n.Notified, Coalesced: n.Coalesced, Missed: n.Missed,
		Duplicates: n.Duplicates, Spontaneous: n.Spontaneous, Unsubscribed: n.Unsubscribed, LostInGaps: n.LostInGaps,
	}
	var err error
	for _, b := range []struct {
		dst **stats.Histogram
		l   stats.Latency
	}{
		{&out.ChangeLag, s.Changes.Lag}, {&out.Freshness.Ack, s.Ack}, {&out.Freshness.Notify, s.Notify}, {&out.Freshness.Spread, s.Spread},
		{&out.Lifetime, s.Streams.Lifetime},
	} {
		if *b.dst, err = b.l.Histogram(); err != nil {
			return nil, err
		}
	}
	if err := breakdownsOf(s, &out.Freshness); err != nil {
		return nil, err
	}
	return out, nil
}

// mergedListening adds the shards' subscriptions blocks (nil when none
// has one), their timelines placed on the clock that starts at origin.
func mergedListening(in []MergeInput, origin time.Time) (*stats.Listening, error) {
	var out *stats.Listening
	for _, s := range in {
		l, err := listeningOf(s.Result.Subscriptions)
		if err != nil || l == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		l.Freshness.Timeline = listenSecondsOf(s.Result, origin)
		if out == nil {
			out = stats.NewListening()
		}
		out.Merge(l)
	}
	return out, nil
}
