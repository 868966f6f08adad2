package live

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// listenText is the listeners' line (stats.Progress.Listening): the
// sessions listening of those asked, the subscriptions open now, the
// notifications of the last second, the changes missed and lost in gaps
// so far (marked when any: a missed change is a stale document), and the
// ack and notification p99 so far. "missed" is as the run's end would
// count it now: a change untold to an open subscription for longer than
// the grace the end gives late notifications.
func (m model) listenText() string {
	l := m.tick.Listening
	f := l.Freshness
	parts := []string{fmt.Sprintf("%s/%s listening · %s open", numfmt.Count(l.Listeners.Listening), numfmt.Count(l.Listeners.Asked), numfmt.Count(f.Open))}
	notes := "-"
	if v, ok := m.perSecond(notificationsOf, false); ok {
		notes = numfmt.Sig3(v) + "/s"
	}
	parts = append(parts, "notifications "+notes)
	for _, c := range []struct {
		name string
		n    int64
	}{{"missed", f.Counts.Missed}, {"lost", f.Counts.LostInGaps}} {
		s := c.name + " " + numfmt.Count(c.n)
		if c.n > 0 {
			s = m.st.bad.Render(s)
		}
		parts = append(parts, s)
	}
	parts = append(parts, "ack p99 "+p99Of(f.Ack), "notify p99 "+p99Of(f.Notify))
	return strings.Join(parts, " · ")
}

// notificationsOf is a progress's notifications received so far (0
// without listeners).
func notificationsOf(p stats.Progress) int64 {
	if p.Listening == nil {
		return 0
	}
	return p.Listening.Freshness.Counts.Notifications
}

// p99Of is h's p99, "-" when it has no value.
func p99Of(h *stats.Histogram) string {
	if h == nil || h.Count() == 0 {
		return numfmt.None
	}
	return numfmt.Ms(ms(h.Quantile(99)))
}
