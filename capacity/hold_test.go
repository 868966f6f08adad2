package capacity

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// timedServer models the README's knee with a per-second timeline: reads
// take 12 ms (p99) up to knee turns/s, 250 ms in every second above it;
// a run longer than a step (a hold) breaks above holdKnee instead, as a
// slowly growing queue does. spike says which runs (by rate and the how
// many-th run of that rate, 1-based) have one second of 152 ms scheduling
// lag, whose bunched turns break that second's p99 (180 ms) and the
// run's (120 ms) though the server kept up.
type timedServer struct {
	knee, holdKnee float64
	spike          func(rate float64, nth int) bool
	// busy says which runs the machine's CPU pressure took over half of
	// (the server is slowed as above the knee); address is the target's
	// (default on loopback).
	busy    func(rate float64, nth int) bool
	address string
	runs    map[float64]int
	asked   []Setting
}

func (f *timedServer) run(_ context.Context, s Setting) (StepRun, error) {
	if f.runs == nil {
		f.runs = map[float64]int{}
	}
	f.runs[s.Rate]++
	f.asked = append(f.asked, s)
	secs := 2
	knee := f.knee
	if s.Duration > 0 {
		secs, knee = int(s.Duration/time.Second), f.holdKnee
	}
	addr := f.address
	if addr == "" {
		addr = "http://127.0.0.1:1/mcp"
	}
	r := &results.Result{Target: results.Target{Address: addr, Server: results.Server{Name: "fake", Version: "1"}}}
	pressure := 0.1
	if f.busy != nil && f.busy(s.Rate, f.runs[s.Rate]) {
		pressure, knee = 0.7, 0 // every read slow: the machine starves the server
	}
	r.Host.CPUPressure = &pressure
	t := &r.Totals
	rate := s.Rate
	t.AskedRate, t.MeasuredS, t.Turns = rate, float64(secs), int64(rate*float64(secs))
	t.Scheduled, t.AchievedRate, t.ReadsPerS, t.IdentityOK = t.Turns, &rate, &rate, true
	t.Outcomes = map[string]int64{"ok": t.Scheduled}
	p99 := 12.0
	if rate > knee {
		p99 = 250
	}
	r.Read.P99Ms, r.Turn.P99Ms, r.Lag.P99Ms, r.LagBoundMs = p99, p99, 0.8, 1.1
	// The warmup's lag never counts: a pacer starting up is not a run's.
	r.Timeline = append(r.Timeline, results.Second{T: 0, Warmup: true, Asked: rate, Achieved: rate, P99Ms: 400, LagMaxMs: 300})
	for i := 1; i <= secs; i++ {
		r.Timeline = append(r.Timeline, results.Second{T: i, Asked: rate, Achieved: rate, Reads: int64(rate), P50Ms: 10, P99Ms: p99, LagMaxMs: 3})
	}
	if f.spike != nil && f.spike(rate, f.runs[rate]) {
		sec := &r.Timeline[1]
		sec.LagMaxMs, sec.P99Ms = 152, max(sec.P99Ms, 180)
		r.Read.P99Ms, r.Turn.P99Ms = max(p99, 120), max(p99, 120)
	}
	return StepRun{Result: r}, nil
}

// kneeSearch is the README's knee search: 100/s to 800/s, three
// bisections, each run again at most twice, holds of 20 s.
func kneeSearch(hold time.Duration) RateSearch {
	return RateSearch{From: 100, To: 800, Grow: 2, Refine: 3, Retries: 2, Hold: hold, Holds: 3}
}

func phases(rep *RateFinding) (out []string) {
	for _, s := range rep.Steps {
		out = append(out, s.Phase)
	}
	return out
}

// TestLagSpikeIsRunAgain: a step failing only in a second of 152 ms
// scheduling lag (the generator's, its run's lag p99 under the bound) is
// run again, not charged to the server: the search goes on to the knee.
func TestLagSpikeIsRunAgain(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 390, spike: func(rate float64, nth int) bool { return rate == 200 && nth == 1 }}
	rep, err := Search(context.Background(), kneeSearch(20*time.Second), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if got, known := answer(rep); rep.LimitedBy != LimitSLO || !known || got != 375 || rep.FirstBadRate != 400 || rep.Resolution != 25 {
		t.Fatalf("limited by %s at %v (first bad %v, resolution %v), want the SLO at 375, 400 bad, resolution 25: %v\n%s",
			rep.LimitedBy, got, rep.FirstBadRate, rep.Resolution, f.asked, rep.Conclusion)
	}
	first, again := rep.Steps[1], rep.Steps[2]
	if first.Rate != 200 || !first.Rerun || !first.GeneratorBound || !strings.Contains(first.Reason, "152 ms") || first.LagMaxMs != 152 ||
		again.Rate != 200 || again.Rerun || !again.Pass || again.Attempt != 2 || again.Retries != 1 {
		t.Errorf("the 200/s step and its run again: %+v\n%+v", first, again)
	}
	if !strings.Contains(rep.Conclusion, "held for 20 s") || !strings.Contains(rep.Conclusion, "resolution 25 turns/s") {
		t.Errorf("conclusion %q", rep.Conclusion)
	}
}

// TestLagSpikeEveryTime: a step that cannot be driven cleanly in 1 +
// Retries runs is generator-bound: the generator could not tell, never
// the server's limit.
func TestLagSpikeEveryTime(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 390, spike: func(rate float64, _ int) bool { return rate == 200 }}
	rep, err := Search(context.Background(), kneeSearch(0), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if got, known := answer(rep); rep.LimitedBy != LimitGenerator || known || got != 100 || f.runs[200] != 3 || !strings.Contains(rep.Conclusion, "not the server's") {
		t.Errorf("limited by %s at %v (confirmed %v) after %d runs of 200/s: %s", rep.LimitedBy, got, known, f.runs[200], rep.Conclusion)
	}
}

// TestLagSpikeAtTheKnee: a lag spike in a step whose other seconds break
// the SLO too is the server's: the breach shows where the generator kept
// its schedule, so the step is not run again.
func TestLagSpikeAtTheKnee(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 390, spike: func(rate float64, _ int) bool { return rate == 400 }}
	rep, err := Search(context.Background(), kneeSearch(0), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if got, known := answer(rep); rep.LimitedBy != LimitSLO || !known || got != 375 || f.runs[400] != 1 {
		t.Errorf("limited by %s at %v, 400/s run %d times", rep.LimitedBy, got, f.runs[400])
	}
}

// TestHoldStepsDown: 375/s passes its 2 s step but breaks the SLO when
// held for 20 s; the search steps down to the next good rate, 350/s,
// which holds: that is the rate reported, 375/s the first bad one.
func TestHoldStepsDown(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 360}
	rep, err := Search(context.Background(), kneeSearch(20*time.Second), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	h := rep.Hold
	got, known := answer(rep)
	if rep.LimitedBy != LimitSLO || !known || got != 350 || rep.FirstBadRate != 375 || rep.Resolution != 25 ||
		h == nil || h.Rate != 350 || !h.Pass || h.DurationS != 20 {
		t.Fatalf("limited by %s at %v (first bad %v, resolution %v), hold %+v; phases %v", rep.LimitedBy, got, rep.FirstBadRate, rep.Resolution, h, phases(rep))
	}
	if got := strings.Join(phases(rep), ","); got != "step,step,step,refine,refine,refine,hold,hold" {
		t.Errorf("phases %s", got)
	}
	if last := f.asked[len(f.asked)-1]; last.Duration != 20*time.Second || last.Rate != 350 {
		t.Errorf("the last run asked %+v", last)
	}
	if !strings.Contains(rep.Conclusion, "375 turns/s held for 20 s") || !strings.Contains(rep.Conclusion, "350 turns/s") {
		t.Errorf("conclusion %q", rep.Conclusion)
	}
}

// TestHoldOff: --hold 0 holds nothing; the best step is reported, and the
// conclusion says it was not held.
func TestHoldOff(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 360}
	rep, err := Search(context.Background(), kneeSearch(0), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if got, known := answer(rep); !known || got != 375 || rep.Hold != nil || len(rep.Steps) != 6 || !strings.Contains(rep.Conclusion, "not held") {
		t.Errorf("at %v, hold %+v, phases %v: %s", got, rep.Hold, phases(rep), rep.Conclusion)
	}
	for _, s := range f.asked {
		if s.Duration != 0 {
			t.Errorf("asked %+v", s)
		}
	}
}

// TestHoldsAllBreak: when every hold allowed breaks, no rate is reported.
func TestHoldsAllBreak(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 50}
	p := kneeSearch(20 * time.Second)
	p.Holds = 2
	rep, err := Search(context.Background(), p, f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.LimitedBy != LimitHold || rep.MaxSustainableRate != nil || rep.Interval != nil || rep.Hold == nil || rep.Hold.Pass || rep.Hold.Rate != 350 {
		got, known := answer(rep)
		t.Errorf("limited by %s at %v (confirmed %v), hold %+v: %s", rep.LimitedBy, got, known, rep.Hold, rep.Conclusion)
	}
}

// TestHoldNotDrivenCleanly: a hold the generator cannot drive cleanly
// says the generator could not tell; it is not the server's limit.
func TestHoldNotDrivenCleanly(t *testing.T) {
	f := &timedServer{knee: 390, holdKnee: 390}
	f.spike = func(float64, int) bool { return len(f.asked) > 6 } // every hold
	rep, err := Search(context.Background(), kneeSearch(20*time.Second), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.LimitedBy != LimitGenerator || rep.Hold == nil || rep.Hold.Pass || rep.Hold.Rate != 375 || len(rep.Steps) != 9 ||
		!strings.Contains(rep.Conclusion, "could not tell") || !strings.Contains(rep.Conclusion, "not the server's") {
		t.Errorf("limited by %s, hold %+v, phases %v: %s", rep.LimitedBy, rep.Hold, phases(rep), rep.Conclusion)
	}
}

// TestUnsteadyTakesTheKeptSecondsTogether: over a 20 s hold, one second
// the generator kept whose own p99 is over the bound (ten slow reads of
// 300) does not make the breach the server's: the kept seconds together
// meet the bound, and the breach is the lag spike's. When the kept
// seconds together break it too, it is the server's.
func TestUnsteadyTakesTheKeptSecondsTogether(t *testing.T) {
	second := func(t *testing.T, i int, slow int, slowMs, lagMax float64) results.Second {
		h := stats.NewHistogram()
		for n := range 300 {
			d := 10 * time.Millisecond
			if n < slow {
				d = time.Duration(slowMs * float64(time.Millisecond))
			}
			h.Record(d)
		}
		enc, err := h.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return results.Second{T: i, Reads: 300, P50Ms: 10, P99Ms: ms(h.Quantile(99)), LagMaxMs: lagMax, HDR: enc}
	}
	for _, c := range []struct {
		name    string
		slowAll int // slow reads in every kept second
		want    bool
	}{{"one slow second", 0, true}, {"every second slow", 15, false}} {
		r := &results.Result{}
		r.Read.P99Ms = 120
		for i := 1; i <= 20; i++ {
			switch i {
			case 5:
				r.Timeline = append(r.Timeline, second(t, i, 300, 180, 152)) // the spike
			case 9:
				r.Timeline = append(r.Timeline, second(t, i, 10, 80, 3))
			default:
				r.Timeline = append(r.Timeline, second(t, i, c.slowAll, 80, 3))
			}
		}
		why := sloJudge(t, "read.p99<50ms").Unsteady(r)
		if (why != "") != c.want || c.want && !strings.Contains(why, "1 of 20 measured seconds") {
			t.Errorf("%s: %q", c.name, why)
		}
	}
}

// TestHoldStepsDownOneResolution: the knee example's 400/s passes its
// step, 450/s does not (the bisection ends 50/s apart), and 400/s breaks
// when held: the next hold is one resolution below, 350/s, which holds —
// not the grid's 200/s, half the knee, charged to the server.
func TestHoldStepsDownOneResolution(t *testing.T) {
	f := &timedServer{knee: 440, holdKnee: 360}
	rep, err := Search(context.Background(), kneeSearch(20*time.Second), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if got, known := answer(rep); !known || got != 350 || rep.Hold == nil || !rep.Hold.Pass || rep.Hold.Rate != 350 || rep.FirstBadRate != 400 || rep.Resolution != 50 {
		t.Errorf("reported %v (hold %+v, first bad %v, resolution %v), want 350 held, 400 bad, 50 apart: %s",
			got, rep.Hold, rep.FirstBadRate, rep.Resolution, rep.Conclusion)
	}
}

// TestBusyMachineIsNotTheServers: a step failing while some task on the
// machine waited for a CPU most of the time, against a server on this
// machine, is run again, not charged to the server; against a server
// elsewhere the machine's load is not the server's either way, so the
// failure is the server's.
func TestBusyMachineIsNotTheServers(t *testing.T) {
	busyOnce := func(rate float64, nth int) bool { return rate == 200 && nth == 1 }
	f := &timedServer{knee: 390, holdKnee: 390, busy: busyOnce}
	rep, err := Search(context.Background(), kneeSearch(0), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if got, known := answer(rep); !known || got != 375 || f.runs[200] != 2 || !strings.HasPrefix(rep.Steps[1].Reason, "read.p99<50ms") ||
		!strings.Contains(rep.Steps[1].Reason, "; machine busy: some task waited for a CPU") || strings.Contains(rep.Steps[1].Reason, "generator") ||
		rep.Steps[1].NotServers != CauseMachine || !rep.Steps[1].Rerun {
		t.Errorf("local server: reported %v after %d runs of 200/s (%q, %q), want 375 and 200/s run again, put down to the machine",
			got, f.runs[200], rep.Steps[1].Reason, rep.Steps[1].NotServers)
	}
	// A machine busy at every attempt ends the search at the machine,
	// never the generator's, never the server's.
	f = &timedServer{knee: 390, holdKnee: 390, busy: func(rate float64, _ int) bool { return rate == 200 }}
	rep, err = Search(context.Background(), kneeSearch(0), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	// The search refines below the busy step (150, 175, 187.5 pass): the
	// answer is at least 187.5, the rates above it not measured, so the
	// maximum sustainable rate is not known.
	if got, known := answer(rep); rep.LimitedBy != LimitMachine || known || got != 187.5 || !strings.Contains(rep.Conclusion, "while the machine was busy") ||
		strings.Contains(rep.Conclusion, "could not drive") || rep.Interval == nil || rep.Interval.Low != 187.5 || rep.Interval.High != 0 {
		t.Errorf("busy throughout: limited by %s at %v: %s", rep.LimitedBy, got, rep.Conclusion)
	}
	f = &timedServer{knee: 390, holdKnee: 390, busy: busyOnce, address: "https://mcp.example.com/mcp"}
	rep, err = Search(context.Background(), kneeSearch(0), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.FirstBadRate != 200 || rep.LimitedBy != LimitSLO || f.runs[200] != 1 {
		t.Errorf("remote server: first bad %v (%s) after %d runs of 200/s, want 200, the SLO's", rep.FirstBadRate, rep.LimitedBy, f.runs[200])
	}
}
