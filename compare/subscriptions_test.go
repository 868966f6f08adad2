package compare

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// listenedRun is the golden run with listeners whose notifications take
// notify (1,000 of them, spread ±20% around it), missed of 1,000
// expected never told, and violations.
func listenedRun(t *testing.T, notify time.Duration, missed, violations int64) *results.Result {
	t.Helper()
	r := fixture(t, false)
	block := func(n int, d time.Duration) stats.Latency {
		h := stats.NewHistogram()
		for i := range n {
			h.Record(d*8/10 + d*4/10*time.Duration(i)/time.Duration(n))
		}
		l, err := h.Export()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	r.Subscriptions = &results.Subscriptions{
		Mode:          stats.ModeListen,
		Streams:       results.Streams{StreamCounts: stats.StreamCounts{Asked: 20, Opened: 20}},
		Notifications: results.Notifications{Expected: 1000, Notified: 1000 - missed, Missed: missed, Received: 1000 - missed, IdentityOK: true},
		Violations:    stats.Violations{BeforeAck: violations},
		Ack:           block(20, 5*time.Millisecond),
		Notify:        block(int(1000-missed), notify),
	}
	return r
}

// TestCompareSubscriptions: two runs with listeners compare their ack
// and notify percentiles (tested, a doubled notify p99 significant, an
// equal one unchanged), their missed share and their violations (untested,
// with why); a run without listeners compares none and the comparison
// says so; a --fail-on bound on a notify figure is held to the delta.
func TestCompareSubscriptions(t *testing.T) {
	base := listenedRun(t, 10*time.Millisecond, 0, 0)
	cases := []struct {
		name    string
		nw      *results.Result
		metric  string
		noise   Noise
		newV    float64
		nDeltas int
	}{
		{"notify doubled", listenedRun(t, 20*time.Millisecond, 0, 0), "notify.p99", Significant, 0, 7},
		{"notify the same", listenedRun(t, 10*time.Millisecond, 0, 0), "notify.p50", Unchanged, 0, 7},
		{"missed rose", listenedRun(t, 10*time.Millisecond, 100, 0), "notify.missed", Significant, 10, 7},
		{"violations", listenedRun(t, 10*time.Millisecond, 0, 3), "notify.violations", Untested, 3, 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmp, err := Pair(base, c.nw, PairOptions{NoiseFloor: -1})
			if err != nil {
				t.Fatal(err)
			}
			if len(cmp.Subscriptions) != c.nDeltas {
				t.Fatalf("%d subscription deltas %+v, want %d", len(cmp.Subscriptions), cmp.Subscriptions, c.nDeltas)
			}
			d, ok := cmp.Find(c.metric)
			if !ok || d.Noise != c.noise || (c.newV != 0 && d.New != c.newV) {
				t.Errorf("%s: %+v, want noise %s new %v", c.metric, d, c.noise, c.newV)
			}
		})
	}
	plain := fixture(t, false)
	cmp, err := Pair(plain, base, PairOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Subscriptions) != 0 || !strings.Contains(strings.Join(cmp.Notes, "\n"), "only the new run had listeners") {
		t.Errorf("one side with listeners: deltas %+v notes %q", cmp.Subscriptions, cmp.Notes)
	}
	b, _ := bounds.ParseBounds("notify.p99=+10%")
	if _, err := CheckBounds(cmp, b, plain, base); err == nil {
		t.Errorf("a bound on notify.p99 with a base without listeners held: want a usage error")
	}
	doubled := listenedRun(t, 20*time.Millisecond, 0, 0)
	cmp, _ = Pair(base, doubled, PairOptions{NoiseFloor: -1})
	cmp.Gate.SingleRun = true
	bcs, err := CheckBounds(cmp, b, base, doubled)
	if err != nil || len(bcs) != 1 || bcs[0].Pass {
		t.Errorf("notify.p99=+10%% on a doubled p99: %+v %v", bcs, err)
	}
}
