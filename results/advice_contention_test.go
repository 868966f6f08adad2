package results

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// contendedRun builds a 10-second run of 500 turns of four ok reads
// against the fixture's workload (800ms deadline): every read served in
// service, sent lag after its intended start (so its latency is
// service+lag), the first cut turns cut at the deadline; pressure is the
// machine's CPU pressure over the run (nil: unknown). The host is fixed
// but for the pressure, so that the documents pinned of it
// (contended.json, withheld.json) are the same on every machine.
func contendedRun(t testing.TB, service, lag time.Duration, cut int, pressure *float64) *Result {
	t.Helper()
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}, {Name: "screenshot", MIME: "image/png"}, {Name: "renamed-policy"}})
	ok := stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: service + lag, Service: service, Lag: lag,
		ByteCounts: stats.ByteCounts{WireBytes: 1400, DiskBytes: 1000}}
	for i := range 500 {
		rec.Schedule(4)
		if i < cut {
			for range 3 {
				rec.Read(ok)
			}
			rec.Read(stats.ReadSample{Outcome: stats.Cancelled, Sent: true, Latency: 800 * time.Millisecond, LowerBound: true, Lag: lag})
			rec.Turn(stats.TurnSample{End: stats.TurnCut, Latency: 800 * time.Millisecond, Reads: 4, LowerBound: true})
			continue
		}
		for range 4 {
			rec.Read(ok)
		}
		rec.Turn(stats.TurnSample{End: stats.TurnComplete, Latency: service + lag, Reads: 4})
	}
	r, err := Build(Meta{ToolName: "readbench", ToolVersion: "test", Started: fixtureStart(), Ended: fixtureStart().Add(10 * time.Second),
		AskedRate: 50, Measured: 10 * time.Second, CPUPressure: pressure}, fixtureWorkload(t), rec.Phase(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Host = Host{Hostname: "bench-host", OS: "linux", Arch: "amd64", CPUs: 2, GoVersion: "go1.26.8", CPUPressure: pressure}
	return r
}

func pressureOf(p float64) *float64 { return &p }

// TestAdviceUnderContention: a pair recommended from a contended run
// carries a caveat (CPU pressure from AdviceCaveatPressure, or readbench's
// lag a tenth of the read p99), and is withheld from
// AdviceWithholdPressure: the stalled run (CPU pressure 0.93,
// read p99 571 ms) was advised a 2 s deadline and a 100 s timeout with no
// caveat. A quiet run's advice is the same as with no pressure known (no
// caveat cried), and a run whose health already recommends nothing keeps
// its own reason.
func TestAdviceUnderContention(t *testing.T) {
	const ms = time.Millisecond
	for _, c := range []struct {
		name             string
		service, lag     time.Duration
		cut              int
		pressure         *float64
		caveat           []string // what the caveat says; none: no caveat
		withheld         bool
		deadline, timeut float64 // the pair recommended (ms)
	}{
		{"quiet: pressure 0.13, lag 0.3ms", 200 * ms, 300 * time.Microsecond, 0, pressureOf(0.13), nil, false, 500, 20000},
		{"just under the caveat: pressure 0.49", 200 * ms, 0, 0, pressureOf(0.49), nil, false, 500, 20000},
		{"lag under a tenth of the p99: 15ms of 215ms", 200 * ms, 15 * ms, 0, nil, nil, false, 500, 50000},
		{"fast server, lag under the 1ms floor: 0.8ms of 5.8ms", 5 * ms, 800 * time.Microsecond, 0, nil, nil, false, 20, 1000},
		{"contended: pressure 0.62", 200 * ms, 0, 0, pressureOf(0.62),
			[]string{"Caveat: the run was contended: some task on the machine waited for a CPU during 62.0% of the measured phase (CPU pressure; a caveat from 50.0%)", "rerun on a quieter machine"},
			false, 500, 20000},
		{"lagging: 30ms of a 230ms read p99", 200 * ms, 30 * ms, 0, pressureOf(0.2),
			[]string{"readbench's own scheduling lag is 30.0ms of the 230ms read p99 (13.0%; a caveat from 10.0%)"}, false, 500, 50000},
		{"both", 200 * ms, 30 * ms, 0, pressureOf(0.7),
			[]string{"during 70.0% of the measured phase (CPU pressure; a caveat from 50.0%), and readbench's own scheduling lag is 30.0ms"}, false, 500, 50000},
		{"the issue's stalled run: pressure 0.93, read p99 571ms, 120ms of it lag", 451 * ms, 120 * ms, 0, pressureOf(0.93),
			[]string{"Withheld: the run was too contended to advise from: some task on the machine waited for a CPU during 93.0% of the measured phase (CPU pressure; from 90.0% no pair is recommended), and readbench's own scheduling lag is 120ms of the 571ms read p99 (21.0%",
				"read tail (p99 571ms)"},
			true, 0, 0},
		{"stalled in service time: pressure 0.98, lag immaterial", 2000 * ms, 0, 0, pressureOf(0.98),
			[]string{"during 98.0% of the measured phase (CPU pressure; from 90.0% no pair is recommended), so the read tail (p99 2.00s)"}, true, 0, 0},
		{"overloaded and contended: the health's reason stands", 200 * ms, 0, 270, pressureOf(0.95), nil, false, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := contendedRun(t, c.service, c.lag, c.cut, c.pressure)
			a := r.Advice
			if d, to := a.Recommended(); d != c.deadline || to != c.timeut || a.Withheld != c.withheld {
				t.Errorf("deadline %v, timeout %v, withheld %v; want %v, %v, %v\n%s", d, to,
					a.Withheld, c.deadline, c.timeut, c.withheld, strings.Join(a.Reasoning, "\n"))
			}
			if (a.Caveat != "") != (len(c.caveat) > 0) {
				t.Errorf("caveat %q, want one: %v", a.Caveat, len(c.caveat) > 0)
			}
			for _, s := range c.caveat {
				if !strings.Contains(a.Caveat, s) {
					t.Errorf("caveat %q does not say %q", a.Caveat, s)
				}
			}
			all := strings.Join(a.Reasoning, "\n")
			if strings.Contains(all, withheldText) != c.withheld {
				t.Errorf("reasoning says it withheld: %v, want %v:\n%s", !c.withheld, c.withheld, all)
			}
			if c.cut > 0 && !strings.Contains(all, "the run was overloaded") {
				t.Errorf("the health's reason is lost:\n%s", all)
			}
			if len(a.Deadlines) == 0 || len(a.Timeouts) == 0 {
				t.Errorf("the candidates are not priced: %+v", a)
			}
			if c.caveat == nil && c.cut == 0 {
				// No caveat: exactly the advice of the same run with no
				// pressure known, and the lag alone making none.
				quiet := contendedRun(t, c.service, c.lag, 0, nil).Advice
				if !reflect.DeepEqual(a, quiet) {
					t.Errorf("advice changed by a pressure below the caveat:\n%+v\nwant\n%+v", a, quiet)
				}
			}
		})
	}
}

// TestAdviceOfTheStalledRunWithoutPressure: the stalled run's figures,
// with no pressure known, size the pair the issue saw (2 s, 100 s), with
// the lag's caveat only: the withholding above is the pressure's doing.
func TestAdviceOfTheStalledRunWithoutPressure(t *testing.T) {
	a := contendedRun(t, 451*time.Millisecond, 120*time.Millisecond, 0, nil).Advice
	if d, to := a.Recommended(); d != 2000 || to != 100000 || a.Withheld ||
		!strings.HasPrefix(a.Caveat, "Caveat: the run was contended: readbench's own scheduling lag is 120ms") {
		t.Errorf("deadline %v, timeout %v, withheld %v, caveat %q", d, to, a.Withheld, a.Caveat)
	}
}

// TestMergedAdviceUnderContention: the advice of merged shards is judged
// on the most contended shard's CPU pressure (the merged host has none):
// one shard at 0.7 gives the merged pair a caveat, one at 0.95 withholds
// it, and quiet shards leave it as one run's.
func TestMergedAdviceUnderContention(t *testing.T) {
	w := fixtureWorkload(t)
	whole, shards := shardedRuns(2)
	one := buildShard(t, w, Segment{}, whole, 50).Advice
	for _, c := range []struct {
		pressure [2]float64
		caveat   string
		withheld bool
	}{
		{[2]float64{0.1, 0.2}, "", false},
		{[2]float64{0.1, 0.7}, "during 70.0% of the measured phase", false},
		{[2]float64{0.95, 0.7}, "during 95.0% of the measured phase", true},
	} {
		var in []MergeInput
		for k := 1; k <= 2; k++ {
			r := buildShard(t, w, Segment{K: k, N: 2}, shards[k-1], 25)
			r.Host.CPUPressure = pressureOf(c.pressure[k-1])
			in = append(in, MergeInput{Name: fmt.Sprint("shard", k), Result: r})
		}
		got, err := Merge(in)
		if err != nil {
			t.Fatal(err)
		}
		a := got.Advice
		if a.Withheld != c.withheld || (c.caveat == "") != (a.Caveat == "") || !strings.Contains(a.Caveat, c.caveat) || got.Host.CPUPressure != nil {
			t.Errorf("pressures %v: withheld %v, caveat %q, host pressure %v; want %v, %q, none", c.pressure, a.Withheld, a.Caveat, got.Host.CPUPressure, c.withheld, c.caveat)
		}
		if c.caveat == "" && !reflect.DeepEqual(a, one) {
			t.Errorf("quiet shards: merged advice %+v, want one run's %+v", a, one)
		}
		d, to := a.Recommended()
		d1, to1 := one.Recommended()
		if !c.withheld && (d != d1 || to != to1) {
			t.Errorf("pressures %v: pair %v, %v; want one run's %v, %v", c.pressure, d, to, d1, to1)
		}
	}
}
