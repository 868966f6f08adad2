package results

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// laggedRun records 500 turns of 4 reads, 50 a second for 10 s as the
// driver does: the first `dropped` turns dropped by readbench (recorded at
// the 800 ms deadline, their reads never sent), the others sent lag(s)
// after their intended start (s the second) and answered after service
// 10-19 ms plus extra. Nothing sleeps: the times are synthetic.
func laggedRun(dropped int, lag func(s int) time.Duration, extra time.Duration) *stats.Phase {
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}})
	start := fixtureStart()
	rec.StartTimeline(start)
	for i := range 500 {
		s := i / 50
		intended := start.Add(time.Duration(i) * 20 * time.Millisecond)
		rec.Schedule(4)
		if i < dropped {
			for range 4 {
				rec.Read(stats.ReadSample{Outcome: stats.Dropped, End: intended})
			}
			rec.Turn(stats.TurnSample{End: stats.TurnDropped, Latency: 800 * time.Millisecond, LowerBound: true, Intended: intended, Reads: 4})
			continue
		}
		l := lag(s)
		svc := time.Duration(10+i%10)*time.Millisecond + extra
		end := intended.Add(l + svc)
		for range 4 {
			rec.Read(stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: l + svc, Service: svc, Lag: l, End: end})
		}
		rec.Turn(stats.TurnSample{Latency: l + svc, End: stats.TurnComplete, Intended: intended, Started: intended.Add(l), Ended: end, Reads: 4})
	}
	return rec.Phase()
}

func buildLagged(t *testing.T, maxInFlight int, run *stats.Phase) *Result {
	t.Helper()
	w := fixtureWorkload(t)
	w.Load.MaxInFlight = maxInFlight
	r, err := Build(fixtureMeta(false), w, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func reasoning(r *Result) string { return strings.Join(r.Advice.Reasoning, "\n") }

// TestAdviceDroppedTurnsApart: turns readbench dropped at max_in_flight
// are reported apart with the cap, never charged to the deadline: a run
// capped at 2 in flight that dropped a third of its turns recommends the
// deadline the uncapped run does (it recommended 2 s, a floor, when the
// drops counted as cut turns).
func TestAdviceDroppedTurnsApart(t *testing.T) {
	none := func(int) time.Duration { return 200 * time.Microsecond }
	uncapped := buildLagged(t, 1000, laggedRun(0, none, 0))
	capped := buildLagged(t, 2, laggedRun(164, none, 0))
	got, _ := capped.Advice.Recommended()
	want, _ := uncapped.Advice.Recommended()
	if got != want || want <= 0 {
		t.Errorf("capped run recommends deadline %v ms, the uncapped %v ms: the drops were charged to the deadline\n%s",
			got, want, reasoning(capped))
	}
	for _, c := range capped.Advice.Deadlines {
		if c.Ms == 800 && (c.Share == nil || *c.Share != 0) {
			t.Errorf("the 800 ms deadline cut %v of the turns that started, want 0 (none was cut)", c.Share)
		}
	}
	all := reasoning(capped)
	for _, s := range []string{"dropped 164 of 500 turns", "max_in_flight 2", "of the 336 turns that started"} {
		if !strings.Contains(all, s) {
			t.Errorf("reasoning lacks %q:\n%s", s, all)
		}
	}
	if strings.Contains(all, "is a floor") {
		t.Errorf("the dropped turns made the deadline a floor:\n%s", all)
	}
}

// TestAdviceOnServiceWhenLagMaterial: when readbench's own lag is most of
// the read latency, the timeout (which runs from the send) is sized on
// service time, and the reasoning says so: 500 ms of lag on 160-190 ms of
// service recommended a 100 s timeout from the 700 ms read p99.
func TestAdviceOnServiceWhenLagMaterial(t *testing.T) {
	r := buildLagged(t, 1000, laggedRun(0, func(int) time.Duration { return 500 * time.Millisecond }, 170*time.Millisecond))
	if !r.GeneratorBound || !r.Generator.JitterMaterial || r.Generator.Saturated {
		t.Errorf("generator_bound %v, generator %+v: want material jitter, not saturation", r.GeneratorBound, r.Generator)
	}
	if _, got := r.Advice.Recommended(); got != 20000 {
		t.Errorf("timeout %v ms, want 20 s (100 x the 190 ms service p99), not 100 s from the read p99\n%s", got, reasoning(r))
	}
	if all := reasoning(r); !strings.Contains(all, "sized and priced on service time") || !strings.Contains(all, "x service p99") {
		t.Errorf("the reasoning does not say the timeout is sized on service time:\n%s", all)
	}
}

// TestAdviceNoisyRun: a run whose lag grew second after second (the
// generator fell behind) says it is too noisy to advise from instead of
// recommending limits sized on its own lag.
func TestAdviceNoisyRun(t *testing.T) {
	growing := func(s int) time.Duration { return time.Duration(1<<s) * time.Millisecond } // 1 ms ... 512 ms
	r := buildLagged(t, 1000, laggedRun(0, growing, 0))
	if !r.GeneratorBound || !r.Generator.Saturated {
		t.Errorf("generator_bound %v, generator %+v: want saturation (lag growing)", r.GeneratorBound, r.Generator)
	}
	if r.Advice.RecommendedDeadlineMs != nil || r.Advice.RecommendedTimeoutMs != nil {
		d, to := r.Advice.Recommended()
		t.Errorf("recommended deadline %v ms, timeout %v ms from a run too noisy to advise from: want null", d, to)
	}
	if all := reasoning(r); !strings.Contains(all, "too noisy to advise from") || !strings.Contains(all, "fell further behind") {
		t.Errorf("the reasoning does not say the run is too noisy, and why:\n%s", all)
	}
}
