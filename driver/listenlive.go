package driver

import (
	"time"

	"github.com/readbench/readbench/stats"
)

// soFar is the listeners' state at now, for the progress of a run (a
// live view, live metrics): their counters as they stand and the
// accounting so far, a change untold for longer than notificationGrace
// counted as missed, as the run's end would count it. The streams'
// endings and lifetimes are only known at the end: their counts stay 0.
func (l *listeners) soFar(now time.Time) *stats.Listening {
	out := &stats.Listening{} // no histograms of its own: the accounting's are copied once
	l.fillCounts(out)
	out.Streams.Reconnects = l.reconnects.Load()
	out.Freshness = l.fresh.SoFar(now.Add(-notificationGrace))
	return out
}
