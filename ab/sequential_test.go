package ab

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// machine is a simulated machine and pair of servers, both sides of a
// round run at once as ab runs them: a round is windowsPerRound windows of
// readsPerWindow reads a side. Each window the machine slows both sides
// alike by a lognormal factor (spread shared) and, with probability
// sharedStall, by a heavy-tailed stall both meet (×sharedBy×Pareto); each
// side's window meets a stall of its own with probability stall, which
// slows a random share of its reads by stallBy×Pareto(1.2) — the
// one-side-at-a-time, heavy-tailed stalls of a saturated runner (a server
// descheduled for a while); each read has noise of its own (spread own).
// The new server is slower by the factor change. With lag, read latency is
// service time plus a lag of that share, and the new side's service time
// changes by service (read latency then carries only the lag's share).
type machine struct {
	shared, own           float64
	sharedStall, sharedBy float64
	stall, stallBy        float64
	change                float64
	lag                   float64 // the scheduling lag p50, as a share of read p50 (both sides)
	service               float64 // with lag: service time's change of the new side (1: none)
	rng                   *rand.Rand
	round                 int
	made                  map[Side][]simRead // the round's reads, made for both sides at once
}

// simRead is one simulated read: its place in the schedule and its times (ms).
type simRead struct {
	at            time.Duration
	read, service float64
}

const (
	windowsPerRound = 4
	readsPerWindow  = 25
)

// pareto is a Pareto(alpha) draw, at least 1: a heavy tail.
func (m *machine) pareto(alpha float64) float64 { return math.Pow(1-m.rng.Float64(), -1/alpha) }

// make makes round's reads of both sides.
func (m *machine) make() {
	m.made = map[Side][]simRead{}
	for w := range windowsPerRound {
		shared := math.Exp(m.shared * m.rng.NormFloat64())
		if m.rng.Float64() < m.sharedStall {
			shared *= m.sharedBy * m.pareto(1.2)
		}
		for _, side := range []Side{Base, New} {
			stalled, by := 0.0, 1.0
			if m.rng.Float64() < m.stall {
				stalled, by = m.rng.Float64(), m.stallBy*m.pareto(1.2)
			}
			for i := range readsPerWindow {
				v := 10 * shared * math.Exp(m.own*m.rng.NormFloat64())
				if float64(i) < stalled*readsPerWindow {
					v *= by
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
				at := time.Duration(w)*MinWindow + time.Duration(i)*MinWindow/readsPerWindow
				m.made[side] = append(m.made[side], simRead{at: at, read: read, service: service})
			}
		}
	}
}

// run is a Runner of results with only the figures ab reads (read and
// service p50, the lag) and of the reads its windows test. The sides of a
// round call it at once: serial makes them take turns.
func (m *machine) run(_ context.Context, sr SideRun) (*results.Result, error) {
	if sr.Round != m.round || m.made == nil {
		m.round = sr.Round
		m.make()
	}
	reads := m.made[sr.Side]
	t0 := time.Unix(int64(sr.Round*10), 0)
	var rs, ss []float64
	if sr.Samples != nil {
		sr.Samples.Start(t0)
		sr.Samples.SetClasses([]string{"doc"})
	}
	for _, x := range reads {
		rs, ss = append(rs, x.read), append(ss, x.service)
		if sr.Samples != nil {
			lat := time.Duration(x.read * float64(time.Millisecond))
			sr.Samples.ObserveRead(stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: lat,
				Service: time.Duration(x.service * float64(time.Millisecond)), End: t0.Add(x.at + lat)})
		}
	}
	rate := 100.0
	r := &results.Result{Workload: workload.Workload{Name: "sim"}}
	r.Totals.Scheduled, r.Totals.AskedRate, r.Totals.AchievedRate = int64(len(reads)), rate, &rate
	r.Lag.Count = int64(len(reads))
	read, service := medianOf(rs), medianOf(ss)
	r.Read.Count, r.Read.P50Ms, r.Service.Count, r.Service.P50Ms = int64(len(rs)), read, int64(len(ss)), service
	if m.lag > 0 {
		r.Lag.P50Ms = read - service
	}
	r.Started.Time = t0
	return r, nil
}

// serial is run called one side at a time.
func serial(run Runner) Runner {
	var mu sync.Mutex
	return func(ctx context.Context, sr SideRun) (*results.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		return run(ctx, sr)
	}
}

// medianOf is the median of vs.
func medianOf(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	return s[len(s)/2]
}

// experimentOf runs one simulated experiment at the defaults, gated on
// gate: exit is "fail" (a bound broken), "pass" or "open" (not answered,
// which fails the default gate too).
func experimentOf(t *testing.T, m *machine, gate, dir string) (exit string, rounds int) {
	t.Helper()
	bs, err := bounds.ParseBounds(gate)
	if err != nil {
		t.Fatal(err)
	}
	p := Design{Rounds: DefaultRounds, MaxRounds: DefaultMaxRounds, Policy: DefaultPolicy(), Dir: dir,
		Judging: Judging{Bounds: bs, Gate: compare.Gate{FailOnInconclusive: true}}}
	m.made = nil
	o, err := Run(context.Background(), p, serial(m.run))
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

// ruleMachines are the simulated machines of TestSequentialRuleRates,
// quiet to saturated, with what each must find of a slower server.
var ruleMachines = []struct {
	name        string
	m           machine
	minFound    float64 // of a 30% slower server: found (significant)
	minAnswered float64 // of a 30% slower server: answered
	minFound10  float64 // of a 10% slower server at a +5% bound (-1: not measured)
}{
	{"quiet", machine{own: 0.05}, 0.95, 0.95, 0.80},
	{"busy runner, shared", machine{shared: 0.3, own: 0.1}, 0.95, 0.95, -1},
	{"one-sided stalls", machine{shared: 0.3, own: 0.1, stall: 0.1, stallBy: 3}, 0.95, 0.95, -1},
	{"saturated", machine{shared: 0.6, sharedStall: 0.1, sharedBy: 5, own: 0.2, stall: 0.25, stallBy: 5}, 0.5, 0.5, -1},
}

// ruleGate is the gate of the rule's experiments, as the README gates:
// two latency bounds and an error bound.
const ruleGate = "read.p50=+10%,service.p50=+10%,errors=+0.5pp"

// experiments runs n simulated experiments on c (its server slower by
// change), seeded, and counts their exits.
func experiments(t *testing.T, c machine, n int, change float64, gate string, seed uint64) map[string]int {
	t.Helper()
	dir := t.TempDir()
	c.change, c.rng = change, rand.New(rand.NewPCG(seed, 7))
	exits := map[string]int{}
	for range n {
		c.round = 0
		exit, _ := experimentOf(t, &c, gate, dir)
		exits[exit]++
	}
	return exits
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
