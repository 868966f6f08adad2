package capacity

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// fakeServer models a target that holds the SLO up to knee turns/s (turn
// p99 10 ms, then 900 ms) and a generator that cannot drive more than
// genMax turns/s (0: no limit).
type fakeServer struct {
	knee, genMax float64
	capBytes     int64 // reads above it fail with a protocol outcome (0: none)
	lagFrom      float64
	lagSmall     float64
	dropAllFrom  float64 // from this rate readbench sends nothing: every read dropped (0: never)
	asked        []float64
}

func (f *fakeServer) run(_ context.Context, s Setting) (StepRun, error) {
	f.asked = append(f.asked, s.Rate)
	r := &results.Result{Target: results.Target{Address: "http://127.0.0.1:1/mcp", Server: results.Server{Name: "fake", Version: "1"}}}
	t := &r.Totals
	t.AskedRate, t.MeasuredS = s.Rate, 2
	t.Turns = int64(s.Rate * 2)
	rate := s.Rate
	t.Scheduled, t.AchievedRate, t.ReadsPerS, t.IdentityOK = t.Turns, &rate, &rate, true
	t.Outcomes = map[string]int64{"ok": t.Scheduled}
	r.Turn.P99Ms, r.Read.P99Ms = 10, 10
	if s.Rate > f.knee {
		r.Turn.P99Ms = 900
	}
	if f.genMax > 0 && s.Rate > f.genMax { // the pacer falls behind: fewer turns scheduled
		r.GeneratorBound, r.Lag.P99Ms, r.LagBoundMs = true, 40, 1
		t.Turns = int64(f.genMax * 2)
	}
	if f.lagFrom > 0 && s.Rate >= f.lagFrom { // the lag alone breaks the SLO
		r.GeneratorBound, r.Lag.P99Ms, r.LagBoundMs = true, 850, 1
		r.Turn.P99Ms, r.Read.P99Ms = 860, 860
	}
	if f.lagSmall > 0 && s.Rate > f.knee { // lagging, yet the server's queue is what breaks
		r.GeneratorBound, r.Lag.P99Ms, r.LagBoundMs = true, f.lagSmall, 1
	}
	if f.dropAllFrom > 0 && s.Rate >= f.dropAllFrom {
		t.Outcomes = map[string]int64{"dropped": t.Scheduled}
		one := 1.0
		t.Errors, t.ErrorRate = t.Scheduled, &one
	}
	o := StepRun{Result: r}
	if f.capBytes > 0 && s.Size > f.capBytes {
		t.Outcomes = map[string]int64{"protocol": t.Scheduled}
		one := 1.0
		t.Errors, t.ErrorRate = t.Scheduled, &one
		o.FirstFailure = "answer over the size limit"
	} else if s.Size > f.capBytes/4 && f.capBytes > 0 {
		r.Turn.P99Ms = 1200 // large answers are slow before they are refused
	}
	return o, nil
}

// answer is where a finding puts the server's limit, and whether the
// search confirmed it: the maximum sustainable rate, else the lower end
// of its interval (0 with neither), unconfirmed.
func answer(r *RateFinding) (float64, bool) {
	switch {
	case r.MaxSustainableRate != nil:
		return *r.MaxSustainableRate, true
	case r.Interval != nil:
		return r.Interval.Low, false
	}
	return 0, false
}

func sloJudge(t *testing.T, text string) Criterion {
	t.Helper()
	ts, err := bounds.ParseThresholds(text)
	if err != nil {
		t.Fatal(err)
	}
	return SLO(ts)
}

func TestSearch(t *testing.T) {
	for _, c := range []struct {
		name         string
		f            fakeServer
		plan         RateSearch
		limit        string
		lo, hi       float64 // the answer found (confirmed for the SLO and the range only)
		generatorHit bool
	}{
		{"knee", fakeServer{knee: 400}, RateSearch{From: 50, To: 1600, Grow: 2, Refine: 4}, LimitSLO, 375, 400, false},
		{"no refine", fakeServer{knee: 400}, RateSearch{From: 50, To: 1600, Grow: 2}, LimitSLO, 400, 400, false},
		{"range", fakeServer{knee: 5000}, RateSearch{From: 50, To: 1000, Grow: 3, Refine: 4}, LimitRange, 1000, 1000, false},
		{"first step", fakeServer{knee: 10}, RateSearch{From: 50, To: 1000, Grow: 2, Refine: 4}, LimitFirstStep, 0, 0, false},
		// The generator gives out before the server: never the server's limit.
		{"generator", fakeServer{knee: 400, genMax: 150}, RateSearch{From: 50, To: 1600, Grow: 2, Refine: 4}, LimitGenerator, 100, 100, true},
		{"lag explains", fakeServer{knee: 400, lagFrom: 200}, RateSearch{From: 50, To: 1600, Grow: 2, Refine: 4}, LimitGenerator, 100, 100, true},
		// A step that sent nothing says nothing of the server.
		{"nothing sent", fakeServer{knee: 400, dropAllFrom: 200}, RateSearch{From: 50, To: 1600, Grow: 2, Refine: 4}, LimitGenerator, 100, 100, true},
		// A lag over its bound that cannot account for the break: the server's limit.
		{"lag small", fakeServer{knee: 400, lagSmall: 7}, RateSearch{From: 50, To: 1600, Grow: 2, Refine: 4}, LimitSLO, 375, 400, false},
	} {
		f := c.f
		rep, err := Search(context.Background(), c.plan, f.run, sloJudge(t, "turn.p99<800ms,errors<1%"))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, known := answer(rep)
		if rep.LimitedBy != c.limit || got < c.lo || got > c.hi || known != (c.limit == LimitSLO || c.limit == LimitRange) {
			t.Errorf("%s: limited by %s at %v turns/s (confirmed %v; asked %v), want %s in [%v, %v]", c.name, rep.LimitedBy, got, known, f.asked, c.limit, c.lo, c.hi)
		}
		last := rep.Steps[len(rep.Steps)-1]
		if c.generatorHit && (!last.GeneratorBound || !strings.Contains(last.Reason, "generator-bound") || !strings.Contains(rep.Conclusion, "not the server's")) {
			t.Errorf("%s: last step %+v, conclusion %q", c.name, last, rep.Conclusion)
		}
		if strings.Contains(rep.Conclusion, "theoretical") {
			t.Errorf("%s: the conclusion states a figure readbench did not measure: %q", c.name, rep.Conclusion)
		}
		if c.limit == LimitSLO && !strings.Contains(rep.Conclusion, "turn.p99<800ms") {
			t.Errorf("%s: conclusion %q does not say which bound broke", c.name, rep.Conclusion)
		}
	}
}

func TestSweepSize(t *testing.T) {
	f := &fakeServer{knee: 1e9, capBytes: 1 << 20}
	rep, err := SweepSize(context.Background(), SizeSweep{Rate: 5, From: 1 << 10, To: 256 << 20}, f.run, sloJudge(t, "turn.p99<800ms"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.MaxSizeWithinSLO != 256<<10 || rep.SLOBreakSize != 512<<10 || rep.FailSize != 2<<20 || rep.FailOutcome != "protocol" ||
		!strings.Contains(rep.Conclusion, "answer over the size limit") {
		t.Errorf("sweep: %+v", rep)
	}
	if n := len(rep.Steps); n != 12 { // 1 KiB … 2 MiB, then stop
		t.Errorf("%d steps, want 12", n)
	}
}

func TestPlanCheck(t *testing.T) {
	for _, p := range []RateSearch{{From: 0, To: 10, Grow: 2}, {From: 10, To: 5, Grow: 2}, {From: 1, To: 10, Grow: 1}, {From: 1, To: 1e30, Grow: 1.01}, {From: 1, To: 2, Grow: 2, Refine: -1}} {
		if p.Check() == nil {
			t.Errorf("%+v accepted", p)
		}
	}
	if g := (RateSearch{From: 50, To: 1000, Grow: 2}).Grid(); len(g) != 6 || g[5] != 1000 || g[4] != 800 {
		t.Errorf("grid %v", g)
	}
}

func TestRunnerErrorStops(t *testing.T) {
	boom := errors.New("unreachable")
	_, err := Search(context.Background(), RateSearch{From: 1, To: 4, Grow: 2}, func(context.Context, Setting) (StepRun, error) { return StepRun{}, boom }, sloJudge(t, "errors<1%"))
	if !errors.Is(err, boom) {
		t.Errorf("%v", err)
	}
}
