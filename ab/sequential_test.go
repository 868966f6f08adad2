package ab

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// machine is a simulated machine and pair of servers for the sequential
// rule: each round the machine is slowed by a factor both runs of the
// round share (a busy runner: lognormal, spread shared), each run adds
// its own noise (spread own), and a run stalls (×stallBy) with
// probability stall; the new server is slower by the factor change.
type machine struct {
	shared, own   float64
	stall         float64
	stallBy       float64
	change        float64
	lag           float64 // the scheduling lag p50, as a share of read p50 (both sides)
	service       float64 // with lag: service time's change of the new side (1: none)
	rng           *rand.Rand
	round         int
	roundSlowdown float64
}

// run is a Runner of results with only the figures ab reads: read and
// service p50 (the server's 10 ms times the slowdowns), no lag.
func (m *machine) run(_ context.Context, side Side, round, _ int, _ string) (*results.Result, error) {
	if round != m.round {
		m.round, m.roundSlowdown = round, math.Exp(m.shared*m.rng.NormFloat64())
	}
	v := 10 * m.roundSlowdown * math.Exp(m.own*m.rng.NormFloat64())
	if m.rng.Float64() < m.stall {
		v *= m.stallBy
	}
	read, service := v, v*0.98
	if side == New {
		read, service = v*m.change, v*m.change*0.98
	}
	if m.lag > 0 { // the lag is in read latency, not in service time
		service = v
		if side == New {
			service *= m.service
		}
		read = service * (1 + m.lag)
	}
	rate := 100.0
	r := &results.Result{Workload: results.Workload{Name: "sim"}}
	r.Totals.Scheduled, r.Totals.AskedRate, r.Totals.AchievedRate = 100, rate, &rate
	r.Lag.Count = 100
	r.Read.Count, r.Read.P50Ms, r.Service.Count, r.Service.P50Ms = 100, read, 100, service
	if m.lag > 0 {
		r.Lag.P50Ms = read - service
	}
	r.Started.Time = time.Unix(int64(round*10), 0)
	if side == New {
		r.Started.Time = r.Started.Add(time.Second)
	}
	return r, nil
}

// experimentOf runs one simulated experiment at the defaults, gated on
// read.p50=+10%: exit is "fail", "pass" or "open" (not answered).
func experimentOf(t *testing.T, m *machine, dir string) (exit string, rounds int) {
	t.Helper()
	bs, err := bounds.ParseBounds("read.p50=+10%")
	if err != nil {
		t.Fatal(err)
	}
	p := Plan{Rounds: DefaultRounds, MaxRounds: DefaultMaxRounds, Policy: DefaultPolicy(), Dir: dir,
		Judging: Judging{Bounds: bs, Gate: compare.Gate{FailOnInconclusive: true}}}
	o, err := Run(context.Background(), p, m.run)
	if err != nil {
		t.Fatal(err)
	}
	c := o.Document()
	switch {
	case !c.Answer.Answered:
		return "open", len(o.Rounds)
	case c.Failed():
		return "fail", len(o.Rounds)
	}
	return "pass", len(o.Rounds)
}

// TestSequentialRuleRates: the sequential rule, through Run, on
// simulated machines — quiet, a busy runner whose slowdown both runs of a
// round share (±30% from round to round), runs with ±8% noise of their
// own, and one run in ten stalled to 2.5× — keeps false alarms (an
// unchanged server failing) at or below 5% and finds a 30% slower server
// at least 95% of the time, within DefaultMaxRounds; the quiet machine's
// clear cases stop at the first look. 300 experiments a condition, seeded.
func TestSequentialRuleRates(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 2,400 simulated experiments")
	}
	const n = 300
	for _, c := range []struct {
		name              string
		m                 machine
		maxFail, minFound float64 // of an unchanged server; of a 30% slower one
	}{
		{"quiet", machine{own: 0.03}, 0.05, 0.99},
		{"busy runner, shared", machine{shared: 0.3, own: 0.05}, 0.05, 0.95},
		{"own noise 8%", machine{own: 0.08}, 0.05, 0.95},
		{"stalls", machine{shared: 0.2, own: 0.05, stall: 0.1, stallBy: 2.5}, 0.05, 0.95},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			count := func(change float64, seed uint64) (fails, opens int, rounds []int) {
				m := c.m
				m.change, m.rng = change, rand.New(rand.NewPCG(seed, 7))
				for range n {
					m.round = 0
					exit, r := experimentOf(t, &m, dir)
					switch exit {
					case "fail":
						fails++
					case "open":
						opens++
					}
					rounds = append(rounds, r)
				}
				return fails, opens, rounds
			}
			fa, faOpen, _ := count(1, 1)
			found, _, rounds := count(1.3, 2)
			t.Logf("unchanged: %d of %d failed (%d not answered); 30%% slower: %d of %d found", fa, n, faOpen, found, n)
			if float64(fa) > c.maxFail*n {
				t.Errorf("false alarms %d of %d, over %.0f%%", fa, n, 100*c.maxFail)
			}
			if float64(found) < c.minFound*n {
				t.Errorf("30%% slower found %d of %d, under %.0f%%", found, n, 100*c.minFound)
			}
			if c.name == "quiet" && median(rounds) != DefaultRounds {
				t.Errorf("quiet: median %d rounds, want the first look's %d", median(rounds), DefaultRounds)
			}
		})
	}
}

func median(xs []int) int {
	s := append([]int{}, xs...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
