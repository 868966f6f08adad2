package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestSubscriptionsStreamLife: the brief report's streams line and the
// full report's rows say the streams' lifetime p50 and p99, the
// reconnects, the keep-alives and the changes lost in gaps, and the
// notification latency by listener count and by class.
func TestSubscriptionsStreamLife(t *testing.T) {
	lat := func(p50, p99 float64) stats.Latency {
		return stats.Latency{Count: 3, P50Ms: p50, P90Ms: p99, P99Ms: p99, P999Ms: p99, MaxMs: p99, MeanMs: p50}
	}
	s := &results.Subscriptions{
		Mode:              stats.ModeListen,
		Streams:           results.Streams{StreamCounts: stats.StreamCounts{Asked: 9, Opened: 9, Reconnects: 7, KeepAlives: 42}, Lifetime: lat(400, 1234)},
		Notify:            lat(2, 9),
		Ack:               lat(1, 3),
		Notifications:     results.Notifications{Expected: 10, Notified: 10, LostInGaps: 5, IdentityOK: true},
		NotifyByClass:     []results.ClassNotify{{Class: "md", Latency: lat(2, 8)}, {Class: "", Latency: lat(3, 9)}},
		NotifyByListeners: []results.ListenersNotify{{Listeners: "11-100", Min: 11, Max: 100, Latency: lat(2, 9)}},
	}
	r := &results.Result{Subscriptions: s}
	var brief string
	for _, f := range subscriptionsBrief(r) {
		if f[0] == "streams" {
			brief = f[1]
		}
	}
	var full bytes.Buffer
	if err := subscriptionsTable(&full, r); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ where, text, want string }{
		{"brief", brief, "lifetime p50 400"},
		{"brief", brief, "p99 1.23s"},
		{"brief", brief, "7 reconnects"},
		{"brief", brief, "42 keep-alives"},
		{"brief", brief, "5 changes lost in gaps"},
		{"full", full.String(), "lifetime"},
		{"full", full.String(), "notify [11-100 open]"},
		{"full", full.String(), "notify [md]"},
		{"full", full.String(), "notify [no class]"},
		{"full", full.String(), "5 changes lost in gaps"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("%s report lacks %q:\n%s", c.where, c.want, c.text)
		}
	}
}
