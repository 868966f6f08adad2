package capacity

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// fakeListened models a server with listeners: it refuses listeners past
// limit (0: none), acknowledges each in ackPer × K ms, slows the reads by
// readPer ms for each listener open, and the machine is busy (CPU
// pressure 0.9) from busyFrom listeners (0: never).
type fakeListened struct {
	limit           int
	ackPer, readPer float64
	busyFrom        int
	noSubscribe     bool
	baselineReadP99 float64
	// baselines are the read p99 of successive runs with no listener
	// (after them, baselineReadP99 or 10): a first baseline taken in a
	// quiet moment of a noisy machine.
	baselines []float64
	asked     []int
}

func (f *fakeListened) run(_ context.Context, s Setting) (StepRun, error) {
	f.asked = append(f.asked, s.Listeners)
	k := s.Listeners
	r := &results.Result{Target: results.Target{Address: "http://127.0.0.1:1/mcp", Server: results.Server{Name: "fake", Version: "1"}}}
	t := &r.Totals
	t.AskedRate, t.MeasuredS, t.Turns = s.Rate, 2, int64(s.Rate*2)
	rate := s.Rate
	t.Scheduled, t.AchievedRate, t.ReadsPerS, t.IdentityOK = t.Turns, &rate, &rate, true
	t.Outcomes = map[string]int64{"ok": t.Scheduled}
	base := 10.0
	if f.baselineReadP99 > 0 {
		base = f.baselineReadP99
	}
	if s.NoListeners && len(f.baselines) > 0 {
		base, f.baselines = f.baselines[0], f.baselines[1:]
	}
	r.Read.P99Ms, r.Turn.P99Ms, r.Read.Count = base+f.readPer*float64(k), base+f.readPer*float64(k), t.Scheduled
	quiet := 0.05
	r.Host.CPUPressure = &quiet
	if f.busyFrom > 0 && k >= f.busyFrom {
		busy := 0.9
		r.Host.CPUPressure = &busy
	}
	if s.NoListeners {
		return StepRun{Result: r}, nil
	}
	sub := &results.Subscriptions{Mode: "listen"}
	sub.Listeners = stats.ListenerCounts{Asked: int64(k), Connected: int64(k), Listening: int64(k)}
	sub.Streams.Asked, sub.Streams.Opened = int64(k), int64(k)
	switch {
	case f.noSubscribe:
		sub.Streams.Opened, sub.Streams.NotApplicable, sub.Listeners.Listening = 0, int64(k), 0
	case f.limit > 0 && k > f.limit:
		sub.Streams.Opened, sub.Streams.Refused.LimitReached, sub.Listeners.Listening = int64(f.limit), int64(k-f.limit), int64(f.limit)
	}
	sub.Ack = stats.Latency{Count: sub.Streams.Opened, P99Ms: f.ackPer * float64(k)}
	r.Subscriptions = sub
	return StepRun{Result: r}, nil
}

func listenSLO(t *testing.T, text string) ListenerSLO {
	t.Helper()
	s, err := ParseListenerSLO(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSearchListeners: the search finds the count the server holds and
// names what refused first; a failure on a busy machine is never the
// server's count (could not tell), but a refusal is the server's word
// whatever the machine does.
func TestSearchListeners(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       fakeListened
		slo     string
		hold    time.Duration
		limit   string
		refused string
		max     int // 0: not known (nil)
		low     float64
	}{
		{"limit reached", fakeListened{limit: 37, ackPer: 0.1}, "ack.p99<1s", 0, LimitListeners, RefusedLimit, 37, 0},
		{"limit reached, held", fakeListened{limit: 37, ackPer: 0.1}, "ack.p99<1s", time.Second, LimitListeners, RefusedLimit, 37, 0},
		{"ack slo", fakeListened{ackPer: 2}, "ack.p99<100ms", 0, LimitListeners, RefusedAck, 50, 0},
		{"interference", fakeListened{readPer: 0.1}, "interference<1.5x,read.p99<1s", 0, LimitListeners, RefusedInterference, 50, 0},
		{"interference added", fakeListened{readPer: 0.1}, "interference<3ms", 0, LimitListeners, RefusedInterference, 30, 0},
		{"range", fakeListened{ackPer: 0.01}, "ack.p99<100ms", 0, LimitRange, "", 200, 0},
		// A first baseline of 5 ms in a quiet moment: every step's 10 ms
		// would be 2× it. Measured again, the baseline is 10 ms: no
		// interference is claimed.
		{"quiet first baseline", fakeListened{baselines: []float64{5, 10}}, "interference<1.5x", 0, LimitRange, "", 200, 0},
		// The same on a busy machine, which slows the reads with
		// listeners and without alike: the baseline measured again
		// tells, where "could not tell" would be all it could say.
		{"busy machine, quiet first baseline", fakeListened{busyFrom: 1, baselines: []float64{5, 10}}, "interference<1.5x", 0, LimitRange, "", 200, 0},
		// Real interference shows against the baseline measured again too.
		{"interference, baseline again", fakeListened{readPer: 0.1, baselines: []float64{8, 10}}, "interference<1.5x", 0, LimitListeners, RefusedInterference, 50, 0},
		{"first step", fakeListened{limit: 1}, "ack.p99<1s", 0, LimitFirstStep, RefusedLimit, 0, 0},
		// The ack SLO breaks from 51 but the machine is busy from 20:
		// the steps that held count, the failures do not; the count is
		// not known, at least 50 as far as steps show.
		{"busy machine", fakeListened{ackPer: 2, busyFrom: 20}, "ack.p99<100ms", 0, LimitMachine, "", 0, 50},
		// The limit at 37 on a machine busy from 20: still the server's.
		{"limit on a busy machine", fakeListened{limit: 37, busyFrom: 20}, "ack.p99<1s", 0, LimitListeners, RefusedLimit, 37, 0},
		{"no subscriptions", fakeListened{noSubscribe: true}, "ack.p99<1s", 0, LimitNotApplicable, "", 0, 0},
		{"baseline breaks", fakeListened{baselineReadP99: 900}, "read.p99<100ms", 0, LimitBaseline, "", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.f
			p := ListenerSearch{Rate: 20, From: 4, To: 200, Grow: 2, Refine: 8, Retries: 1, Hold: c.hold, Holds: 2, SLO: c.slo}
			if err := p.Check(); err != nil {
				t.Fatal(err)
			}
			rep, err := SearchListeners(context.Background(), p, f.run, listenSLO(t, c.slo))
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			if rep.MaxListeners != nil {
				got = *rep.MaxListeners
			}
			if rep.LimitedBy != c.limit || rep.RefusedFirst != c.refused || got != c.max {
				t.Fatalf("limited by %s, refused first %q, max %d (asked %v): %s; want %s, %q, %d", rep.LimitedBy, rep.RefusedFirst, got, f.asked, rep.Conclusion, c.limit, c.refused, c.max)
			}
			if c.limit == LimitListeners && rep.FirstBadListeners != c.max+1 {
				t.Errorf("first bad %d listeners, want %d (refined to 1 apart): %s", rep.FirstBadListeners, c.max+1, rep.Conclusion)
			}
			failed := false // the grid stops at its first failure
			for _, st := range rep.Steps {
				if st.Phase != "baseline" && st.Listeners == 0 {
					t.Errorf("a %s step with no listener: %+v", st.Phase, st)
				}
				if st.Phase == "step" && failed {
					t.Errorf("the grid went on to %d listeners after a failure (asked %v)", st.Listeners, f.asked)
				}
				failed = failed || st.Phase == "step" && !st.Pass && !st.Rerun
			}
			if c.low > 0 && (rep.Interval == nil || rep.Interval.Low != c.low || !strings.Contains(rep.Conclusion, "Could not tell")) {
				t.Errorf("interval %+v, conclusion %q", rep.Interval, rep.Conclusion)
			}
			if c.hold > 0 && (rep.Hold == nil || !rep.Hold.Pass || rep.Hold.Rate != float64(c.max)) {
				t.Errorf("hold %+v", rep.Hold)
			}
			if f.asked[0] != 0 || rep.Interference[0].Listeners != 0 || (c.limit != LimitBaseline && rep.ReadP99AtZeroMs <= 0) {
				t.Errorf("no baseline first: asked %v, interference %+v", f.asked, rep.Interference)
			}
			if c.limit != LimitBaseline && len(rep.Interference) < 2 {
				t.Errorf("interference at too few counts: %+v", rep.Interference)
			}
		})
	}
}

func TestParseListenerSLO(t *testing.T) {
	s := listenSLO(t, "ack.p99<200ms, notify.p99<1s,interference<1.5x,errors<1%")
	if s.Ack != 200*time.Millisecond || s.Notify != time.Second || s.InterferenceRatio != 1.5 || len(s.Reads) != 1 {
		t.Errorf("%+v", s)
	}
	for _, bad := range []string{"", "ack.p99<fast", "interference<0.5x", "ack.p99<-1s", "nonsense<1"} {
		if _, err := ParseListenerSLO(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if g := (ListenerSearch{From: 1, To: 10, Grow: 1.5}).Grid(); g[0] != 1 || g[1] != 2 || g[len(g)-1] != 10 {
		t.Errorf("grid %v", g)
	}
}
