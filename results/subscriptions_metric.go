package results

import (
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/stats"
)

// subscriptionValue is a metric of the freshness loop (bounds.Metric's
// Subscriptions): ack/notify/spread latency, the share of expected
// notifications missed, the counts of violations and duplicates, the
// share of subscriptions refused. A result without listeners has none:
// the error wraps bounds.ErrUnknown (bad input, like a class the run did
// not have), so such a threshold never passes on nothing.
func (r *Result) subscriptionValue(m bounds.Metric) (float64, error) {
	s := r.Subscriptions
	if s == nil {
		return 0, bounds.ErrNoListeners(m.Name)
	}
	switch m.Key {
	case "notify.missed":
		return valueOf(m.Name, PctOf(s.Notifications.Missed, s.Notifications.Expected), "no notification was expected: no change was made while a subscription was open")
	case "notify.violations":
		return float64(s.Violations.Total()), nil
	case "notify.duplicates":
		return float64(s.Notifications.Duplicates), nil
	case "streams.refused":
		rf := s.Streams.Refused
		return valueOf(m.Name, PctOf(rf.LimitReached+rf.HTTP+rf.RPC, s.Streams.Asked), "no subscription was asked for")
	}
	block, stat, _ := strings.Cut(m.Key, ".")
	b := subscriptionBlocks[block]
	if l := b.of(s); l.Count > 0 {
		return l.StatMs(stat), nil
	}
	return valueOf(m.Name, nil, "no "+b.none)
}

// subscriptionBlocks are the freshness loop's latency blocks by metric
// name, with what an empty one means.
var subscriptionBlocks = map[string]struct {
	of   func(*Subscriptions) stats.Latency
	none string
}{
	"ack":    {func(s *Subscriptions) stats.Latency { return s.Ack }, "subscription was acknowledged"},
	"notify": {func(s *Subscriptions) stats.Latency { return s.Notify }, "notification matched a change"},
	"spread": {func(s *Subscriptions) stats.Latency { return s.Spread }, "change was told to two listeners or more"},
}
