package live

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// listening is tick n's listeners' state: 3 of 4 sessions listening with
// 6 subscriptions open, notes notifications received so far, missed and
// lost changes so far, and acks of 2 ms and notifications of 9 ms (9.01 ms in the
// histogram's buckets).
func listening(notes, missed, lost int64) *stats.Listening {
	f := stats.FreshnessSummary{Ack: stats.NewHistogram(), Notify: stats.NewHistogram(), Open: 6}
	f.Counts.Notifications, f.Counts.Missed, f.Counts.LostInGaps = notes, missed, lost
	f.Ack.Record(2 * time.Millisecond)
	for range notes {
		f.Notify.Record(9 * time.Millisecond)
	}
	return &stats.Listening{Listeners: stats.ListenerCounts{Asked: 4, Connected: 4, Listening: 3}, Freshness: f}
}

// withListening is tick with l as its listeners' state.
func withListening(tick tickMsg, l *stats.Listening) tickMsg {
	tick.tick.Listening = l
	return tick
}

// TestListenersLine: a run with listeners has a listeners line, with
// the sessions listening and subscriptions open, the last second's
// notifications, the missed and lost changes so far and the ack and
// notification p99; a run without has none.
func TestListenersLine(t *testing.T) {
	for _, c := range []struct {
		name  string
		ticks []tickMsg
		want  string // the line's end; "" for no line
	}{
		{name: "first second: notifications over it",
			ticks: []tickMsg{withListening(second(1, 10, 40, 40*time.Millisecond), listening(30, 0, 0))},
			want:  "3/4 listening · 6 open · notifications 30.0/s · missed 0 · lost 0 · ack p99 2.00ms · notify p99 9.01ms"},
		{name: "the last second's notifications, missed and lost so far",
			ticks: []tickMsg{withListening(second(1, 10, 40, 40*time.Millisecond), listening(30, 0, 0)),
				withListening(second(2, 19, 76, 90*time.Millisecond), listening(42, 2, 1))},
			want: "notifications 12.0/s · missed 2 · lost 1 · ack p99 2.00ms · notify p99 9.01ms"},
		{name: "before any notification",
			ticks: []tickMsg{withListening(second(1, 10, 40, 40*time.Millisecond), listening(0, 0, 0))},
			want:  "notifications 0/s · missed 0 · lost 0 · ack p99 2.00ms · notify p99 -"},
		{name: "no listeners", ticks: []tickMsg{second(1, 10, 40, 40*time.Millisecond), second(2, 19, 76, 90*time.Millisecond)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := plain(140)
			m = feed(m, readyMsg{at: t0})
			for _, tk := range c.ticks {
				m = feed(m, tk)
			}
			screen := m.View()
			if c.want == "" {
				if strings.Contains(screen, "  listeners") {
					t.Errorf("a listeners line in a run without listeners:\n%s", screen)
				}
				return
			}
			if got := lineOf(t, screen, "listeners"); !strings.HasSuffix(got, c.want) {
				t.Errorf("listeners line %q, want it to end %q", got, c.want)
			}
		})
	}
}
