package stats

import (
	"testing"
	"time"
)

// t0 is a run start with sub-second digits, so bucketing cannot rely on
// whole-second wall clocks.
var t0 = time.Date(2026, 11, 30, 3, 0, 0, 250_000_000, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func TestTimelineBucketing(t *testing.T) {
	ms := time.Millisecond
	turn := func(rec *Recorder, intended, started, ended float64) {
		rec.Turn(TurnSample{Latency: 10 * ms, Intended: at(intended), Started: at(started), Ended: at(ended)})
	}
	read := func(rec *Recorder, end float64, o Outcome, answered bool, lat time.Duration) {
		rec.Read(ReadSample{Outcome: o, Answered: answered, Latency: lat, End: at(end)})
	}
	for _, c := range []struct {
		name   string // what the case proves
		record func(warm, meas *Recorder)
		check  func(t *testing.T, tl []SecondStats)
	}{
		{"a turn is asked at its intended second and achieved at its actual one", func(_, m *Recorder) {
			turn(m, 0.9, 1.2, 1.5)
		}, func(t *testing.T, tl []SecondStats) {
			if tl[0].Asked != 1 || tl[0].Achieved != 0 || tl[1].Asked != 0 || tl[1].Achieved != 1 {
				t.Errorf("asked/achieved %+v", tl[:2])
			}
		}},
		{"dropped turns are asked and never achieved", func(_, m *Recorder) {
			m.Turn(TurnSample{End: TurnDropped, Intended: at(0.1), LowerBound: true})
			m.Turn(TurnSample{End: TurnDropped, Intended: at(0.2), LowerBound: true})
			read(m, 0.1, Dropped, false, 0)
		}, func(t *testing.T, tl []SecondStats) {
			if s := tl[0]; s.Asked != 2 || s.Achieved != 0 || s.Reads != 1 || s.Errors != 1 {
				t.Errorf("second 0 %+v", s)
			}
		}},
		{"in flight is turns started minus ended at each second's end", func(_, m *Recorder) {
			turn(m, 0.1, 0.1, 2.5) // in flight at the end of 0 and 1
			turn(m, 0.5, 0.5, 0.7) // starts and ends within 0
			turn(m, 1.1, 1.1, 3.2) // in flight at the end of 1 and 2
		}, func(t *testing.T, tl []SecondStats) {
			want := []int64{1, 2, 1, 0}
			for i, w := range want {
				if tl[i].InFlight != w {
					t.Errorf("second %d in flight %d, want %d", i, tl[i].InFlight, w)
				}
			}
		}},
		{"phases add second by second and the warmup mark follows the warmup length", func(w, m *Recorder) {
			turn(w, 0.5, 0.5, 1.1) // a warmup turn ending in the first measured second
			read(w, 1.1, OK, true, 600*ms)
			turn(m, 1.2, 1.2, 1.4)
			read(m, 1.4, OK, true, 200*ms)
			read(m, 1.4, Timeout, false, 0)
		}, func(t *testing.T, tl []SecondStats) {
			if !tl[0].Warmup || tl[1].Warmup {
				t.Errorf("warmup marks %v %v, want true false (warmup 1s)", tl[0].Warmup, tl[1].Warmup)
			}
			s := tl[1]
			if s.Reads != 3 || s.Errors != 1 || s.Achieved != 1 || s.InFlight != 0 {
				t.Errorf("second 1 %+v", s)
			}
			if s.P99 < 590*ms || s.P50 < 190*ms || s.P50 > 210*ms {
				t.Errorf("second 1 p50 %v p99 %v: want both phases' reads merged", s.P50, s.P99)
			}
		}},
		{"samples past the cap stay off the timeline", func(_, m *Recorder) {
			read(m, TimelineCap+5, OK, true, ms)
		}, func(t *testing.T, tl []SecondStats) {
			if len(tl) != 0 {
				t.Errorf("%d seconds, want none", len(tl))
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			warm, meas := NewRecorder([]ClassInfo{{}}), NewRecorder([]ClassInfo{{}})
			warm.StartTimeline(t0)
			meas.StartTimeline(t0)
			c.record(warm, meas)
			tl, err := MergeTimelines(time.Second, warm.Phase(), meas.Phase())
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, tl)
		})
	}
}

// A stall shows: reads are fast except during second 7, where they take
// 900 ms; only that second's p99 is high. Samples are synthetic and
// recorded in time order, so seconds close (encode) and reopen as in a run.
func TestTimelineShowsAStall(t *testing.T) {
	rec := NewRecorder([]ClassInfo{{}})
	rec.StartTimeline(t0)
	for s := range 20 {
		for k := range 100 {
			lat := time.Duration(10+k%10) * time.Millisecond
			if s == 7 && k%2 == 0 {
				lat = 900 * time.Millisecond
			}
			rec.Read(ReadSample{Outcome: OK, Answered: true, Latency: lat, End: at(float64(s) + float64(k)/100)})
		}
	}
	// A straggler for a closed second reopens it.
	rec.Read(ReadSample{Outcome: OK, Answered: true, Latency: 12 * time.Millisecond, End: at(3.5)})
	run := rec.Phase()
	tl, err := MergeTimelines(0, run)
	if err != nil {
		t.Fatal(err)
	}
	if len(tl) != 20 {
		t.Fatalf("%d seconds, want 20", len(tl))
	}
	for _, s := range tl {
		high := s.P99 > 800*time.Millisecond
		if high != (s.Second == 7) {
			t.Errorf("second %d p99 %v: only second 7 should be high", s.Second, s.P99)
		}
		if s.Warmup {
			t.Errorf("second %d marked warmup without a warmup", s.Second)
		}
	}
	if tl[3].Reads != 101 {
		t.Errorf("second 3 has %d reads, want the straggler too", tl[3].Reads)
	}
	for _, s := range run.Timeline {
		if s.Latency != nil {
			t.Errorf("second %d still holds a decoded histogram after Run", s.Second)
		}
	}
}

func TestTimelineNotStarted(t *testing.T) {
	rec := NewRecorder([]ClassInfo{{}})
	rec.Read(ReadSample{Outcome: OK, Answered: true, Latency: time.Millisecond, End: t0})
	if tl := rec.Phase().Timeline; len(tl) != 0 {
		t.Errorf("a recorder without a start recorded %d seconds", len(tl))
	}
}
