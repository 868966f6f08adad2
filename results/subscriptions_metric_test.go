package results

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/stats"
)

// TestEvaluateSubscriptions: thresholds on the freshness loop measure the
// subscriptions block (missed as a share of expected, violations as a
// count, latency from its blocks) and pass or fail on it; on a result
// without listeners they are bad input, never a pass.
func TestEvaluateSubscriptions(t *testing.T) {
	build := func(miss bool, violations int64) *Result {
		m := fixtureMeta(false)
		m.Listening = listening(miss, violations)
		r, err := Build(m, fixtureWorkload(t), fixtureRun(false), fixtureWarmup())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	told, missed := build(false, 0), build(true, 2)
	cases := []struct {
		name     string
		r        *Result
		bound    string
		measured float64
		pass     bool
	}{
		{"none missed", told, "notify.missed<=0%", 0, true},
		{"one of eight missed", missed, "notify.missed<=0%", 12.5, false},
		{"violations counted", missed, "notify.violations<1", 2, false},
		{"no violations", told, "notify.violations<1", 0, true},
		{"notify p99 from its block", told, "notify.p99<1s", told.Subscriptions.Notify.P99Ms, true},
		{"ack p50 broken", told, "ack.p50<1us", told.Subscriptions.Ack.P50Ms, false},
		{"nothing refused", told, "streams.refused<1%", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th, err := bounds.ParseThreshold(c.bound)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Evaluate(th, c.r)
			if err != nil || v.Pass != c.pass || math.Abs(v.Measured-c.measured) > 1e-9 || v.Reason != "" {
				t.Errorf("%s: verdict %+v, error %v; want measured %v pass %v", c.bound, v, err, c.measured, c.pass)
			}
		})
	}
	plain := fixture(t, false)
	for _, b := range []string{"notify.p99<1s", "notify.missed<1%", "streams.refused<1%", "ack.p99<1s"} {
		th, _ := bounds.ParseThreshold(b)
		if _, err := Evaluate(th, plain); !errors.Is(err, bounds.ErrUnknown) || !strings.Contains(err.Error(), "no listen section") {
			t.Errorf("%s on a run without listeners: %v, want an unknown-metric error", b, err)
		}
	}
}

// TestEmptySubscriptionBlock: a latency bound on a block that measured
// nothing (no change was told to two listeners) fails with the reason.
func TestEmptySubscriptionBlock(t *testing.T) {
	m := fixtureMeta(false)
	m.Listening = listening(false, 0)
	r, err := Build(m, fixtureWorkload(t), fixtureRun(false), fixtureWarmup())
	if err != nil {
		t.Fatal(err)
	}
	r.Subscriptions.Spread = stats.Latency{}
	th, _ := bounds.ParseThreshold("spread.p99<1s")
	v, err := Evaluate(th, r)
	if err != nil || v.Pass || !strings.Contains(v.Reason, "told to two listeners") {
		t.Errorf("spread.p99 on an empty block: %+v %v", v, err)
	}
}
