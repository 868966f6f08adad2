package compare

import (
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// subscriptionDeltas are the changes of the freshness loop between two
// runs with listeners (the result's subscriptions key): acknowledgement
// and notification p50 and p99, tested as the reads' percentiles are
// (their histograms; no lag slack, as they are timed from the send),
// the share of expected notifications missed and of subscriptions
// refused, tested as shares, and the protocol violations, a count of
// events that no sampling produced: untested, any rise is the server's.
// None unless both runs had listeners (listenersNote says so when one
// had).
func subscriptionDeltas(a, b *results.Result, floor float64) []Delta {
	ds := []Delta{}
	sa, sb := a.Subscriptions, b.Subscriptions
	if sa == nil || sb == nil {
		return ds
	}
	n := noise{floor: floor}
	for _, blk := range []struct {
		name string
		a, b stats.Latency
	}{{"ack", sa.Ack, sb.Ack}, {"notify", sa.Notify, sb.Notify}} {
		for _, stat := range []string{"p50", "p99"} {
			d := newDelta(blk.name+"."+stat, blk.name+" "+stat, "ms", blk.a.StatMs(stat), blk.b.StatMs(stat))
			testLatency(&d, blk.a, blk.b, stat, n)
			ds = append(ds, d)
		}
	}
	na, nb := sa.Notifications, sb.Notifications
	if na.Expected > 0 && nb.Expected > 0 {
		d := newDelta("notify.missed", "missed (% of expected)", "%", pct(na.Missed, na.Expected), pct(nb.Missed, nb.Expected))
		testShare(&d, na.Missed, na.Expected, nb.Missed, nb.Expected)
		ds = append(ds, d)
	}
	v := newDelta("notify.violations", "protocol violations", "count", float64(sa.Violations.Total()), float64(sb.Violations.Total()))
	untested(&v, "a count of the server's protocol violations: no test, any one is a defect")
	ds = append(ds, v)
	ra, rb := refused(sa), refused(sb)
	if sa.Streams.Asked > 0 && sb.Streams.Asked > 0 {
		d := newDelta("streams.refused", "refused (% of asked)", "%", pct(ra, sa.Streams.Asked), pct(rb, sb.Streams.Asked))
		testShare(&d, ra, sa.Streams.Asked, rb, sb.Streams.Asked)
		ds = append(ds, d)
	}
	return ds
}

// listenersNote is the comparison's note when only one run had
// listeners: the freshness loop of one run has nothing to be compared
// with, which a reader must not take for "unchanged".
func listenersNote(a, b *results.Result) string {
	if (a.Subscriptions == nil) == (b.Subscriptions == nil) {
		return ""
	}
	which := "base"
	if b.Subscriptions != nil {
		which = "new"
	}
	return "only the " + which + " run had listeners: its subscriptions are not compared"
}

// refused are the subscriptions a server refused: limit reached, an HTTP
// or a JSON-RPC error (streams.refused).
func refused(s *results.Subscriptions) int64 {
	r := s.Streams.Refused
	return r.LimitReached + r.HTTP + r.RPC
}
