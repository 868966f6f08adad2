package metrics

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/readbench/readbench/stats"
)

// The freshness loop of a run with listeners (docs/metrics.md,
// subscriptions), published live from the run's progress each second
// (stats.Progress.Listening: the listeners' state so far) and once more
// when the run ends, with what the result's subscriptions key says.
// Counters are totals of the run so far (increase() over the run's end is
// the whole run); the latencies are summaries of the run's histograms so
// far (quantiles 0.5, 0.9, 0.99, 0.999), in seconds as every latency
// series here. The notification identity (expected, coalesced, missed)
// is only whole at the end, after the grace given to late notifications:
// a late notification turns a change counted missed into notified, which
// a counter that went down would make a reset; so those three kinds of
// readbench_notifications_total are published at the end only, and
// while the run goes on readbench_notifications_untold (a gauge) says
// the changes untold to an open subscription for longer than that grace.

// summaryQuantiles are the quantiles of the latency summaries.
var summaryQuantiles = []float64{0.5, 0.9, 0.99, 0.999}

// Subscriptions publishes l, the listeners' accounting of side's run as
// it ended ("" outside ab), on that run's series, with its labels. A run
// without listeners (l nil), or a side not started, publishes nothing; a
// later call replaces an earlier one's values (the live ones, or a
// second end's).
func (r *Registry) Subscriptions(side string, l *stats.Listening) {
	r.publishListening(side, l, true)
}

// publishListening sets the listeners' series of side's run to l: the
// end's accounting when final, else the state so far (its progress).
// The collector is registered once per run; each call swaps what it
// reads.
func (r *Registry) publishListening(side string, l *stats.Listening, final bool) {
	if l == nil {
		return
	}
	r.mu.Lock()
	live := r.live[side]
	var c *subscriptionsCollector
	register := false
	if live != nil {
		if live.subs == nil {
			live.subs, register = &subscriptionsCollector{}, true
		}
		c = live.subs
	}
	r.mu.Unlock()
	if c == nil {
		return
	}
	c.state.Store(&listened{l: l, final: final})
	if register { // after the first Store: the collector never reads nothing
		live.f.reg.MustRegister(c)
	}
}

// subscriptionsCollector makes the series of one run's listeners from
// what they recorded so far, or at the end, as constant metrics.
type subscriptionsCollector struct{ state atomic.Pointer[listened] }

// listened is what a subscriptionsCollector publishes: the listeners'
// record, and whether it is the run's end's.
type listened struct {
	l     *stats.Listening
	final bool
}

var (
	descListeners     = prometheus.NewDesc("readbench_listeners", "Listening sessions at the run's end, by state: asked, connected, listening (a subscription acknowledged), failed.", []string{"state"}, nil)
	descSubscriptions = prometheus.NewDesc("readbench_subscriptions", "Subscriptions (listen streams; legacy: subscribes) asked, by how each ended up: opened, refused_limit, refused_http, refused_rpc, not_applicable, failed.", []string{"state"}, nil)
	descChanges       = prometheus.NewDesc("readbench_changes_total", "Changes readbench made, by result: made (sent), failed.", []string{"result"}, nil)
	descNotifications = prometheus.NewDesc("readbench_notifications_total", "The notification accounting: received, expected, notified, coalesced, missed (expected = notified + coalesced + missed), duplicates.", []string{"kind"}, nil)
	descViolations    = prometheus.NewDesc("readbench_notification_violations_total", "Protocol violations in notifications, by violation.", []string{"violation"}, nil)
	descAck           = prometheus.NewDesc("readbench_subscription_ack_seconds", "Subscribe or listen request to its acknowledgement.", nil, nil)
	descNotify        = prometheus.NewDesc("readbench_notification_latency_seconds", "A change's send to each subscription's notification.", nil, nil)
	descUntold        = prometheus.NewDesc("readbench_notifications_untold", "Changes untold to a subscription open for them for longer than the grace the run's end gives late notifications: missed so far, while the run goes on; missed, at its end.", nil, nil)
)

// Describe sends the series' descriptions.
func (c *subscriptionsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descListeners, descSubscriptions, descChanges, descNotifications, descViolations, descAck, descNotify, descUntold} {
		ch <- d
	}
}

// labelled is one value of a series with one label.
type labelled struct {
	label string
	v     int64
}

// Collect sends the series' values.
func (c *subscriptionsCollector) Collect(ch chan<- prometheus.Metric) {
	state := c.state.Load()
	if state == nil {
		return
	}
	l := state.l
	n, st, v := l.Freshness.Counts, l.Streams, l.Violations
	notes := []labelled{{"received", n.Notifications}, {"notified", n.Notified}, {"duplicates", n.Duplicates}}
	if state.final {
		notes = append(notes, labelled{"expected", n.Expected}, labelled{"coalesced", n.Coalesced}, labelled{"missed", n.Missed})
	}
	for _, s := range []struct {
		desc *prometheus.Desc
		kind prometheus.ValueType
		vs   []labelled
	}{
		{descListeners, prometheus.GaugeValue, []labelled{{"asked", l.Listeners.Asked}, {"connected", l.Listeners.Connected},
			{"listening", l.Listeners.Listening}, {"failed", l.Listeners.Failed}}},
		{descSubscriptions, prometheus.GaugeValue, []labelled{{"opened", st.Opened}, {"refused_limit", st.Refused.LimitReached},
			{"refused_http", st.Refused.HTTP}, {"refused_rpc", st.Refused.RPC}, {"not_applicable", st.NotApplicable}, {"failed", st.Failed}}},
		{descChanges, prometheus.CounterValue, []labelled{{"made", n.Changes}, {"failed", n.Failed}}},
		{descNotifications, prometheus.CounterValue, notes},
		{descViolations, prometheus.CounterValue, []labelled{{"before_ack", v.BeforeAck}, {"no_subscription_id", v.NoSubscriptionID},
			{"wrong_subscription_id", v.WrongSubscriptionID}, {"unasked_type", v.UnaskedType}, {"unsubscribed_uri", v.UnsubscribedURI},
			{"unreadable", v.Unreadable}}},
	} {
		for _, x := range s.vs {
			ch <- prometheus.MustNewConstMetric(s.desc, s.kind, float64(x.v), x.label)
		}
	}
	ch <- summaryOf(descAck, l.Freshness.Ack)
	ch <- summaryOf(descNotify, l.Freshness.Notify)
	ch <- prometheus.MustNewConstMetric(descUntold, prometheus.GaugeValue, float64(n.Missed))
}

// summaryOf is h as a summary in seconds; an empty or absent histogram is
// a summary of no value (count 0, every quantile 0).
func summaryOf(d *prometheus.Desc, h *stats.Histogram) prometheus.Metric {
	if h == nil {
		h = stats.NewHistogram()
	}
	qs := make(map[float64]float64, len(summaryQuantiles))
	for _, q := range summaryQuantiles {
		qs[q] = h.Quantile(100 * q).Seconds()
	}
	n := h.Count()
	return prometheus.MustNewConstSummary(d, uint64(n), h.Mean().Seconds()*float64(n), qs)
}
