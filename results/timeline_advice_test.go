package results

import (
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// timedRuns records a 12-second run (2 s warmup, 10 s measured) second by
// second as the driver does: 20 turns asked per second, each of 4 reads at
// 10-19 ms, except second 7 where the reads stall at 900 ms and 5 turns
// are dropped. Nothing sleeps: the times are synthetic.
func timedRuns(start time.Time) (warmup, measured *stats.Phase) {
	classes := []stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}}
	warm, meas := stats.NewRecorder(classes), stats.NewRecorder(classes)
	warm.StartTimeline(start)
	meas.StartTimeline(start)
	for s := range 12 {
		rec := meas
		if s < 2 {
			rec = warm
		}
		for k := range 20 {
			intended := start.Add(time.Duration(s)*time.Second + time.Duration(k)*50*time.Millisecond)
			if s == 7 && k >= 15 {
				rec.Schedule(4)
				rec.Turn(stats.TurnSample{End: stats.TurnDropped, Latency: 800 * time.Millisecond, LowerBound: true, Intended: intended, Reads: 4})
				for range 4 {
					rec.Read(stats.ReadSample{Outcome: stats.Dropped, End: intended})
				}
				continue
			}
			lat := time.Duration(10+k%10) * time.Millisecond
			if s == 7 {
				lat = 900 * time.Millisecond
			}
			rec.Schedule(4)
			end := intended.Add(lat)
			for range 4 {
				rec.Read(stats.ReadSample{Outcome: stats.OK, Answered: true, Latency: lat, Service: lat, End: end})
			}
			rec.Turn(stats.TurnSample{Latency: lat, End: stats.TurnComplete, Intended: intended, Started: intended, Ended: end})
		}
	}
	return warm.Phase(), meas.Phase()
}

// timelineFixture builds the result of timedRuns with a fixed host, so
// that its document is the same on every machine (testdata/timeline.json).
func timelineFixture(t testing.TB) *Result {
	t.Helper()
	warmup, measured := timedRuns(fixtureStart())
	m := fixtureMeta(false)
	m.AskedRate = 20 // the 20 turns a second timedRuns schedules: the schedule was kept
	r, err := Build(m, fixtureWorkload(t), measured, warmup)
	if err != nil {
		t.Fatal(err)
	}
	r.Host = Host{Hostname: "bench-host", OS: "linux", Arch: "amd64", CPUs: 8, GoVersion: "go1.26.8"}
	return r
}

// TestBuildTimelineAndAdvice checks the figures; report's tests check how
// the table shows them, from testdata/timeline.json.
func TestBuildTimelineAndAdvice(t *testing.T) {
	r := timelineFixture(t)
	// 12 s of run: the stalled second's reads end in second 7 or 8, so the
	// timeline covers 12 or 13 seconds; never fewer than the run.
	if n := len(r.Timeline); n < 12 || n > 13 {
		t.Fatalf("timeline has %d seconds, want about 12", n)
	}
	for _, s := range r.Timeline {
		if s.Warmup != (s.T < 2) {
			t.Errorf("second %d warmup %v (warmup is 2 s)", s.T, s.Warmup)
		}
	}
	st := r.Timeline[7]
	if st.Asked != 20 || st.Achieved != 15 || st.Errors != 20 {
		t.Errorf("second 7 asked %v achieved %v errors %d: want 20, 15, 20 (5 dropped turns)", st.Asked, st.Achieved, st.Errors)
	}
	if r.Timeline[8].P99Ms < 800 || r.Timeline[3].P99Ms > 25 {
		t.Errorf("stall: second 8 p99 %v (want >= 800 ms), second 3 p99 %v (want < 25 ms)",
			r.Timeline[8].P99Ms, r.Timeline[3].P99Ms)
	}
	a := r.Advice
	if len(a.Deadlines) == 0 || len(a.Timeouts) == 0 || len(a.Reasoning) == 0 {
		t.Fatalf("advice not filled: %+v", a)
	}
	for _, c := range a.Deadlines {
		if c.Ms > 800 {
			t.Errorf("deadline %v ms priced above the configured 800 ms", c.Ms)
		}
	}
	// 15 of 200 measured turns at 900 ms: the turn p99 is 900 ms, the
	// recommended deadline 2 x that rounded up to 2 s; the read p99 900 ms
	// gives a 100 s timeout.
	if d, to := a.Recommended(); d != 2000 || to != 100000 {
		t.Errorf("recommended deadline %v ms timeout %v ms, want 2000 and 100000",
			d, to)
	}
	// The 5 dropped turns were dropped by readbench, not cut by the
	// deadline: 15 slow of the 195 turns that started exceed 100 ms.
	if d := a.Deadlines[0]; d.Ms != 100 || d.Share == nil || !near(*d.Share, 15.0/195) {
		t.Errorf("first deadline candidate %+v, want 100 ms cutting 15/195 (dropped turns apart)", d)
	}

	// The saved file carries the timeline and advice back.
	m, _ := decodeMap(t, r)
	sec := m["timeline"].([]any)[0].(map[string]any)
	for _, k := range []string{"t_s", "warmup", "asked_turns_per_s", "achieved_turns_per_s", "reads",
		"errors", "in_flight", "p50_ms", "p99_ms"} {
		if _, ok := sec[k]; !ok {
			t.Errorf("timeline entry lacks %s", k)
		}
	}
}
