package results

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestListenersNotAppliedFails: a run whose listener sessions did not all
// open, or whose subscriptions were neither acknowledged nor refused,
// measured fewer listeners than it asked for, and fails (exit 1, every
// view's first and last line saying so) even when its thresholds on
// notifications hold; the server's refusals are a finding, not this, and
// a part of a command (a capacity step) is judged by its command.
func TestListenersNotAppliedFails(t *testing.T) {
	for _, c := range []struct {
		name      string
		listeners stats.ListenerCounts
		streams   Streams
		part      bool
		exit      Exit
		line      string
	}{
		{"all opened", stats.ListenerCounts{Asked: 10, Connected: 10, Listening: 10}, Streams{StreamCounts: stats.StreamCounts{Asked: 10, Opened: 10}}, false, Passed, ""},
		{"sessions that did not open", stats.ListenerCounts{Asked: 10, Connected: 7, Failed: 3, Listening: 7}, Streams{StreamCounts: stats.StreamCounts{Asked: 7, Opened: 7}}, false, Failed, "✗ listeners: 3 of 10 listener sessions did not open"},
		{"subscriptions never acknowledged", stats.ListenerCounts{Asked: 10, Connected: 10, Listening: 8}, Streams{StreamCounts: stats.StreamCounts{Asked: 10, Opened: 8, Failed: 2}}, false, Failed, "✗ listeners: 2 of 10 subscriptions were never acknowledged"},
		{"refused by the server: a finding", stats.ListenerCounts{Asked: 10, Connected: 10, Listening: 8}, Streams{StreamCounts: stats.StreamCounts{Asked: 10, Opened: 8, Refused: stats.StreamRefusals{LimitReached: 2}}}, false, Passed, ""},
		{"a capacity step: its command judges", stats.ListenerCounts{Asked: 10, Connected: 7, Failed: 3, Listening: 7}, Streams{StreamCounts: stats.StreamCounts{Asked: 7, Opened: 7}}, true, Passed, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := fixture(t, false)
			r.Thresholds = nil
			r.Health = Health{}
			r.Subscriptions = &Subscriptions{Mode: stats.ModeListen, Listeners: c.listeners, Streams: c.streams,
				Notifications: Notifications{IdentityOK: true}}
			j := Judge(r, Facts{Part: c.part})
			if j.Exit != c.exit || !strings.HasPrefix(j.Line, c.line) {
				t.Errorf("exit %v, line %q; want %v, %q…", j.Exit, j.Line, c.exit, c.line)
			}
		})
	}
}
