package results

import (
	"fmt"
	"slices"

	"github.com/readbench/readbench/stats"
)

// ClassNotify is the notification latency of the changes of one class's
// URIs (subscriptions.notify_by_class): the mix class whose reads name
// the URI, "" for a URI no class names (a listed one the reads never
// draw).
type ClassNotify struct {
	Class   string        `json:"class"`
	Latency stats.Latency `json:"latency"`
}

// notifyBreakdowns are the rows of f's notification latency by class
// (sorted by name) and by listener count (in bucket order), rows without
// a value left out.
func notifyBreakdowns(f stats.FreshnessSummary) ([]ClassNotify, []ListenersNotify, error) {
	byClass := []ClassNotify{}
	names := make([]string, 0, len(f.NotifyByClass))
	for name, h := range f.NotifyByClass {
		if h != nil && h.Count() > 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		l, err := LatencyOf(f.NotifyByClass[name])
		if err != nil {
			return nil, nil, err
		}
		byClass = append(byClass, ClassNotify{Class: name, Latency: l})
	}
	byListeners := []ListenersNotify{}
	for i, h := range f.NotifyByListeners {
		if h == nil || h.Count() == 0 || i >= stats.NumListenerBuckets {
			continue
		}
		l, err := LatencyOf(h)
		if err != nil {
			return nil, nil, err
		}
		b := stats.ListenerBuckets()[i]
		byListeners = append(byListeners, ListenersNotify{Listeners: b.Name, Min: b.Min, Max: b.Max, Latency: l})
	}
	return byClass, byListeners, nil
}

// breakdownsOf reads s's rows back into f's histograms, for merging
// shards; a row naming no bucket of stats.ListenerBuckets() is refused.
func breakdownsOf(s *Subscriptions, f *stats.FreshnessSummary) error {
	f.NotifyByClass = map[string]*stats.Histogram{}
	for _, c := range s.NotifyByClass {
		h, err := c.Latency.Histogram()
		if err != nil {
			return fmt.Errorf("subscriptions.notify_by_class %q: %w", c.Class, err)
		}
		f.NotifyByClass[c.Class] = h
	}
	f.NotifyByListeners = make([]*stats.Histogram, stats.NumListenerBuckets)
	for i := range f.NotifyByListeners {
		f.NotifyByListeners[i] = stats.NewHistogram()
	}
	for _, r := range s.NotifyByListeners {
		buckets := stats.ListenerBuckets()
		i := slices.IndexFunc(buckets[:], func(b stats.ListenerRange) bool { return b.Name == r.Listeners })
		if i < 0 {
			return fmt.Errorf("subscriptions.notify_by_listeners: %q is no bucket readbench keeps", r.Listeners)
		}
		h, err := r.Latency.Histogram()
		if err != nil {
			return fmt.Errorf("subscriptions.notify_by_listeners %q: %w", r.Listeners, err)
		}
		f.NotifyByListeners[i] = h
	}
	return nil
}
