package client

import (
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// TestJudgeOwnProbe: a late answer is judged with the round trip of the
// ping that followed its own cancel, not the slowest ping of the
// connection: one probe held up 400 ms (a busy moment on the server)
// widens the allowance of the answers it judges, and no other. Without a
// probe answer of its own, the allowance is on the connection's median
// probe round trip.
func TestJudgeOwnProbe(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	fast9slow := []time.Duration{ms(5), ms(4), ms(6), ms(5), ms(5), ms(7), ms(5), ms(4), ms(5), ms(400)}
	type probeOf struct {
		id  int64
		rtt time.Duration // -1: no answer yet
	}
	cases := []struct {
		name    string
		others  []time.Duration // round trips of other cancels' probes, answered before
		own     time.Duration   // this cancel's probe round trip; 0: no probe sent, -1: not answered
		after   time.Duration   // the late answer's first byte, after the cancel reached the server
		ignored bool
		allow   time.Duration
	}{
		{"slow probe elsewhere does not widen this one's allowance", fast9slow, ms(5), ms(300), true, ms(25)},
		{"slow own probe: answer before its answer crossed", fast9slow[:9], ms(400), ms(300), false, ms(1600)},
		{"slow own probe: answer after it, within its allowance", fast9slow[:9], ms(400), ms(900), false, ms(1600)},
		{"slow own probe: answer beyond its allowance", fast9slow[:9], ms(400), ms(1700), true, ms(1600)},
		{"within own allowance after the probe: crossed", nil, ms(20), ms(60), false, ms(80)},
		{"floor", nil, ms(1), ms(20), false, ms(25)},
		{"own probe unanswered: the server may not have read the cancel", fast9slow, -1, ms(300), false, ms(25)},
		{"no probe: the connection's median, not its slowest", fast9slow, 0, ms(300), true, ms(25)},
		{"no probe, no probes at all: the floor on the fastest answer", nil, 0, ms(300), true, ms(25)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCalls(func(stats.LateSample) {})
			t0 := time.Now()
			var probes []probeOf
			for i, d := range tc.others {
				probes = append(probes, probeOf{int64(100 + i), d})
			}
			if tc.own != 0 {
				probes = append(probes, probeOf{1, tc.own})
			}
			for i, p := range probes {
				c.tombs.Put(p.id, tomb{at: t0, onServer: t0, probed: true})
				pid := -int64(i + 1)
				c.probes.Put(pid, probe{id: p.id, sent: t0})
				if p.rtt > 0 {
					c.probeBack(pid, t0.Add(p.rtt))
				}
			}
			if tc.own == 0 {
				c.tombs.Put(1, tomb{at: t0, onServer: t0})
			}
			tb, ok := c.tombs.Take(1)
			if !ok {
				t.Fatal("no tomb")
			}
			first := t0.Add(tc.after)
			l := c.judge(tb, 100, first, first)
			if l.Ignored != tc.ignored || l.Allowance != tc.allow {
				t.Errorf("ignored %v with allowance %v, want %v with %v", l.Ignored, l.Allowance, tc.ignored, tc.allow)
			}
		})
	}
}
