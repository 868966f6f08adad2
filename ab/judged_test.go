package ab

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// runSim runs one simulated experiment with plan p's rounds and the gate
// gate, the bounds failing on no answer.
func runSim(t *testing.T, m *machine, gate string, p Design) *Experiment {
	t.Helper()
	bs, err := bounds.ParseBounds(gate)
	if err != nil {
		t.Fatal(err)
	}
	p.Policy, p.Dir = DefaultPolicy(), t.TempDir()
	p.Judging = Judging{Bounds: bs, Gate: compare.Gate{FailOnInconclusive: true}}
	o, err := Run(context.Background(), p, serial(m.run))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestLagJudgedOnServiceTime: with the lag a third of read p50 in every
// run (a contended runner), a read.p50 bound is judged on service.p50 and
// says so; the change it finds is the servers' (here: none in service
// time though read latency moved), and a turn bound cannot be judged:
// inconclusive, failing the default gate, with the reason.
func TestLagJudgedOnServiceTime(t *testing.T) {
	m := &machine{own: 0.02, change: 1.3, lag: 0.5, service: 1, rng: rand.New(rand.NewPCG(3, 3))}
	o := runSim(t, m, "read.p50=+10%,turn.p50=+10%", Design{Rounds: 6, MaxRounds: 8})
	c := o.Document()
	if len(c.Bounds) != 2 {
		t.Fatalf("bounds %+v", c.Bounds)
	}
	r, turn := c.Bounds[0], c.Bounds[1]
	if r.JudgedOn != "service.p50" || r.Metric != "service.p50" || !r.Pass {
		t.Errorf("read.p50 bound: %+v; want judged on service.p50 (unchanged there), held", r)
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "read.p50=+10% judged on service.p50: the scheduling lag p50 reached 33% of read p50") {
		t.Errorf("notes %q", c.Notes)
	}
	if turn.Pass || turn.Noise != compare.Untested || !strings.Contains(turn.Reason, "cannot be judged: the scheduling lag p50 reached 33%") {
		t.Errorf("turn.p50 bound: %+v", turn)
	}
	if c.Answer.Answered {
		t.Errorf("a bound that cannot be judged answered: %+v", c.Answer)
	}

	// The same, the server 30% slower in service time too: found.
	m = &machine{own: 0.02, change: 1.3, lag: 0.5, service: 1.3, rng: rand.New(rand.NewPCG(3, 3))}
	c = runSim(t, m, "read.p50=+10%", Design{Rounds: 6, MaxRounds: 8}).Document()
	if b := c.Bounds[0]; b.Pass || b.Noise != compare.Significant || b.JudgedOn != "service.p50" || !c.Answer.Answered {
		t.Errorf("30%% slower in service time: %+v, answer %+v", b, c.Answer)
	}

	// Lag within the share: judged on its own figure.
	m = &machine{own: 0.02, change: 1.3, lag: 0.05, service: 1.3, rng: rand.New(rand.NewPCG(3, 3))}
	o = runSim(t, m, "read.p50=+10%", Design{Rounds: 6, MaxRounds: 8})
	if b := o.Document().Bounds[0]; b.JudgedOn != "" || b.Metric != "read.p50" || b.Pass {
		t.Errorf("lag 5%%: %+v", b)
	}
	// A share of 0.1% is said so, not "0%".
	tiny := Policy{MaxLagShare: 0.001}
	js := o.judgings(o.plan.Judging.Bounds, tiny)
	if len(js) != 1 || js[0].on != "service.p50" || !strings.Contains(judgedNote(js[0], o, tiny), "; over 0.1%)") {
		t.Errorf("share 0.1%%: %+v %q", js, judgedNote(js[0], o, tiny))
	}
}

// TestSequentialStops: a clear case stops at the first look; one the
// rounds cannot settle (a change right at the bound) runs to MaxRounds,
// ends not answered and fails the default gate; the budget stops an
// experiment before a round that would overrun it.
func TestSequentialStops(t *testing.T) {
	m := &machine{own: 0.02, change: 1, rng: rand.New(rand.NewPCG(5, 5))}
	o := runSim(t, m, "read.p50=+10%", Design{Rounds: 6, MaxRounds: 16})
	if a := o.Document().Answer; len(o.Rounds) != 6 || o.Stopped != compare.StopDecided || !a.Answered || a.Looks != 1 || a.MaxLooks != 3 { // looks at 6, 12 and 16
		t.Errorf("clear pass: %d rounds, stopped %s, answer %+v", len(o.Rounds), o.Stopped, a)
	}
	m = &machine{own: 0.3, change: 1.05, rng: rand.New(rand.NewPCG(5, 6))}
	o = runSim(t, m, "read.p50=+10%", Design{Rounds: 6, MaxRounds: 10})
	c := o.Document()
	if len(o.Rounds) != 10 || o.Stopped != compare.StopMaxRounds || c.Answer.Answered || !c.Failed() || c.Answer.Looks != 2 { // looks at 6 and 10
		t.Errorf("undecided: %d rounds, stopped %s, answer %+v, bounds %+v", len(o.Rounds), o.Stopped, c.Answer, c.Bounds)
	}
	if !strings.Contains(c.Answer.Line, "the most rounds (10) ran") || !strings.HasSuffix(c.Answer.Line, "it fails the gate") {
		t.Errorf("line %q", c.Answer.Line)
	}
	// The open bound says what was tested: its test's noise verdict and p,
	// the windows, and no flag the user never passed.
	if b := c.Bounds[0]; b.Noise != compare.Significant || b.P == nil || b.Units != "windows" || b.Pairs != 40 ||
		strings.Contains(b.Reason, "--fail-on-inconclusive") || !strings.Contains(b.Reason, "not answered, could not tell") {
		t.Errorf("open bound: %+v", b)
	}

	// Each round takes 10 s on the clock; a budget of 45 s starts 4 of
	// them (after 4, the mean round would end at 50 s).
	now := time.Unix(0, 0)
	m = &machine{own: 0.3, change: 1.05, rng: rand.New(rand.NewPCG(5, 7))}
	bs, err := bounds.ParseBounds("read.p50=+10%")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	p := Design{Rounds: 6, MaxRounds: 16, Budget: 45 * time.Second, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
		Policy: DefaultPolicy(), Dir: t.TempDir(), Judging: Judging{Bounds: bs, Gate: compare.Gate{FailOnInconclusive: true}}}
	o, err = Run(context.Background(), p, serial(func(ctx context.Context, sr SideRun) (*results.Result, error) {
		mu.Lock()
		now = now.Add(5 * time.Second)
		mu.Unlock()
		return m.run(ctx, sr)
	}))
	if err != nil {
		t.Fatal(err)
	}
	c = o.Document()
	if len(o.Rounds) != 4 || o.Stopped != compare.StopBudget || c.Answer.Answered || !strings.Contains(c.Answer.Line, "the budget (45s) ran out") || c.Answer.Looks != 1 {
		t.Errorf("budget: %d rounds, stopped %s, answer %+v", len(o.Rounds), o.Stopped, c.Answer)
	}
}
