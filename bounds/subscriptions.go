package bounds

import "strings"

// subscriptionBlocks are the latency blocks of a run with listeners
// (the result's subscriptions key), as BLOCK.STAT metrics: ack.p99 (a
// subscription's acknowledgement), notify.p99 (a change's send to each
// listener's notification), spread.p99 (first to last notification of one
// change).
var subscriptionBlocks = []string{"ack", "notify", "spread"}

// subscriptionPlain are the metrics of the freshness loop outside its
// latency blocks; their units are in plainMetrics. notify.missed is a
// share of the expected notifications (so one bound fits any number of
// listeners and changes), the counts are of events that a healthy server
// never causes (any one is a defect), streams.refused a share of the
// subscriptions asked.
var subscriptionPlain = []string{"notify.missed", "notify.violations", "notify.duplicates", "streams.refused"}

// Subscriptions reports whether m is measured on the listeners of a run
// (ack.*, notify.*, spread.*, streams.*): a run without a listen section
// cannot measure it, so holding one to it is a usage error, said before
// the run (the workload's place, or the command line's flag), never a
// silent pass.
func (m Metric) Subscriptions() bool {
	if m.Class != "" || m.Attachments > 0 {
		return false
	}
	for _, k := range subscriptionPlain {
		if m.Key == k {
			return true
		}
	}
	block, _, _ := strings.Cut(m.Key, ".")
	for _, b := range subscriptionBlocks {
		if block == b {
			return true
		}
	}
	return false
}

// CheckThresholdListeners answers the first threshold measured on
// listeners when the run has none (listeners false) with an error
// wrapping ErrUnknown: checked before a run, so a bound on notifications
// of a run that makes none fails as bad input instead of passing or
// failing on nothing.
func CheckThresholdListeners(ts []Threshold, listeners bool) error {
	if listeners {
		return nil
	}
	for _, t := range ts {
		if t.Metric.Subscriptions() {
			return ErrNoListeners(t.Metric.Name)
		}
	}
	return nil
}

// ErrNoListeners is the error for metric, measured on listeners, held to
// a run or result without them; it wraps ErrUnknown.
func ErrNoListeners(metric string) error {
	return &noListeners{metric: metric}
}

type noListeners struct{ metric string }

func (e *noListeners) Error() string {
	return e.metric + ": " + ErrUnknown.Error() + " for this run: it is measured on listeners, and the run has none (no listen section in its workload)"
}

func (e *noListeners) Unwrap() error { return ErrUnknown }
