package driver

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

func drain(p pacer, max int) []time.Duration {
	var out []time.Duration
	for len(out) < max {
		at, ok := p.next()
		if !ok {
			break
		}
		out = append(out, at)
	}
	return out
}

// stages is the stretches of stages written as init --from writes them:
// pairs of a rate's text and a length.
func stages(t *testing.T, pairs ...any) []stretch {
	t.Helper()
	var out []stretch
	for i := 0; i < len(pairs); i += 2 {
		r, err := units.ParseStageRate(pairs[i].(string))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, stretch{r.PerSecond, r.PerSecond, pairs[i+1].(time.Duration)})
	}
	return out
}

func TestConstantPacer(t *testing.T) {
	sec := time.Second
	cases := []struct {
		why       string
		stretches []stretch
		limit     uint64
		count     int
		check     map[int]time.Duration // turn index → intended offset
	}{
		{"10/s for 1s: ten turns, 100ms apart, the first at once",
			[]stretch{{10, 10, sec}}, 0, 10, map[int]time.Duration{0: 0, 1: 100 * time.Millisecond, 9: 900 * time.Millisecond}},
		{"3/s for 1s: the fraction at the end is not rounded into an extra turn",
			[]stretch{{3, 3, sec}}, 0, 3, map[int]time.Duration{2: 666666666}},
		{"a change of rate carries the fraction: 3/s then 10/s, first turn of the second stage at 1s",
			[]stretch{{3, 3, sec}, {10, 10, sec}}, 0, 13, map[int]time.Duration{3: sec, 4: sec + 100*time.Millisecond}},
		{"a ramp 0→20/s over 1s starts 10 turns, the k-th at sqrt(k/10) s",
			[]stretch{{0, 20, sec}}, 0, 10, map[int]time.Duration{1: time.Duration(math.Sqrt(0.1) * 1e9), 9: time.Duration(math.Sqrt(0.9) * 1e9)}},
		{"a turn limit stops the schedule", []stretch{{100, 100, sec}}, 0, 100, nil},
		{"a zero-rate stage is a pause", []stretch{{0, 0, sec}, {2, 2, sec}}, 0, 2, map[int]time.Duration{0: sec, 1: 1500 * time.Millisecond}},
		// n turns over L written as the rate n/L: n/(n/L) is L less a
		// rounding for these, which once started a turn more.
		{"3/1h for 1h: three turns, not four", stages(t, "3/1h", time.Hour), 0, 3, map[int]time.Duration{2: 40 * time.Minute}},
		{"13/6m for 6m: thirteen turns", stages(t, "13/6m", 6*time.Minute), 0, 13, nil},
		{"9/7s for 7s: nine turns", stages(t, "9/7s", 7*time.Second), 0, 9, nil},
		{"a recorded hour of 2 turns as init --from writes it: 1/6m, eight pauses, 1/6m: two turns",
			stages(t, "1/6m", 6*time.Minute, "0/s", 6*time.Minute, "0/s", 6*time.Minute, "0/s", 6*time.Minute, "0/s", 6*time.Minute,
				"0/s", 6*time.Minute, "0/s", 6*time.Minute, "0/s", 6*time.Minute, "0/s", 6*time.Minute, "1/6m", 6*time.Minute),
			0, 2, map[int]time.Duration{0: 0, 1: 54 * time.Minute}},
	}
	for _, c := range cases {
		got := drain(&constantPacer{stretches: c.stretches, limit: c.limit}, 10000)
		if len(got) != c.count {
			t.Errorf("%s: %d turns, want %d", c.why, len(got), c.count)
			continue
		}
		for i, want := range c.check {
			if d := got[i] - want; d < -time.Microsecond || d > time.Microsecond {
				t.Errorf("%s: turn %d at %v, want %v", c.why, i, got[i], want)
			}
		}
		for i := 1; i < len(got); i++ {
			if got[i] < got[i-1] {
				t.Errorf("%s: schedule goes back in time at %d", c.why, i)
			}
		}
	}
	if got := drain(&constantPacer{stretches: []stretch{{1000, 1000, time.Hour}}, limit: 7}, 100); len(got) != 7 {
		t.Errorf("limit 7: %d turns", len(got))
	}
}

func TestPoissonPacer(t *testing.T) {
	p := &poissonPacer{rng: rand.New(rand.NewPCG(1, 2)), stretches: []stretch{{200, 200, 50 * time.Second}}}
	got := drain(p, 1e6)
	// 10,000 expected arrivals: the count is Poisson, sd 100; 5 sd is 500.
	if n := len(got); n < 9500 || n > 10500 {
		t.Fatalf("%d arrivals in 50s at 200/s", n)
	}
	var gaps, sq float64
	for i := 1; i < len(got); i++ {
		g := (got[i] - got[i-1]).Seconds()
		gaps += g
		sq += g * g
	}
	n := float64(len(got) - 1)
	mean := gaps / n
	cv := math.Sqrt(sq/n-mean*mean) / mean
	if math.Abs(cv-1) > 0.05 { // exponential gaps: sd equals the mean
		t.Errorf("coefficient of variation %.3f, want 1", cv)
	}
	again := drain(&poissonPacer{rng: rand.New(rand.NewPCG(1, 2)), stretches: p.stretches}, 1e6)
	if len(again) != len(got) || again[100] != got[100] {
		t.Error("same seed, different schedule")
	}
}

// TestRampFromZeroAndPauses: a schedule that ramps from 0 or pauses at
// rate 0 runs as scheduled with either arrival process; it used to end at
// the first instant its rate was 0 for Poisson arrivals (a ramp from 0,
// the default first stage, gave an almost empty run).
func TestRampFromZeroAndPauses(t *testing.T) {
	sec := time.Second
	cases := []struct {
		why       string
		stretches []stretch
		want      float64 // expected turns
	}{
		{"a ramp 0 → 100/s over 30 s", []stretch{{0, 100, 30 * sec}}, 1500},
		{"a pause between two stages", []stretch{{50, 50, 10 * sec}, {0, 0, 10 * sec}, {50, 50, 10 * sec}}, 1000},
		{"a pause first", []stretch{{0, 0, 5 * sec}, {100, 100, 10 * sec}}, 1000},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 5; seed++ {
			got := drain(&poissonPacer{rng: rand.New(rand.NewPCG(seed, 7)), stretches: c.stretches}, 1e6)
			// the count is Poisson: 5 sd of sqrt(want)
			if n := float64(len(got)); math.Abs(n-c.want) > 5*math.Sqrt(c.want) {
				t.Errorf("poisson, %s (seed %d): %d turns, want about %.0f", c.why, seed, len(got), c.want)
			}
			for _, at := range got {
				if r, _ := rateAt(c.stretches, at.Seconds()); r <= 0 {
					t.Errorf("poisson, %s: a turn at %v, where the rate is 0", c.why, at)
					break
				}
			}
		}
		if got := drain(&constantPacer{stretches: c.stretches}, 1e6); math.Abs(float64(len(got))-c.want) > 1 {
			t.Errorf("constant, %s: %d turns, want %.0f", c.why, len(got), c.want)
		}
	}
}

// TestAskedRate: asked is what the schedule asks for over the measured
// phase: the rate, or the mean of the stages after the warmup (it was the
// load's rate, often 0, for stage runs).
func TestAskedRate(t *testing.T) {
	sec := time.Second
	rate := func(r float64) units.Rate { return units.Rate{PerSecond: r} }
	cases := []struct {
		why  string
		load workload.Load
		want float64
	}{
		{"one rate", workload.Load{Model: workload.ModelOpen, Rate: rate(50), Warmup: 2 * sec, Duration: 10 * sec}, 50},
		{"stages: 10/s for 10 s then a ramp to 30/s over 10 s: (100 + 200) / 20", workload.Load{Model: workload.ModelOpen, Warmup: sec,
			Stages: []workload.Stage{{Rate: rate(10), For: 10 * sec}, {Rate: rate(30), For: 10 * sec, Ramp: true}}}, 15},
		{"a ramp from 0 (no load rate)", workload.Load{Model: workload.ModelOpen, Stages: []workload.Stage{{Rate: rate(100), For: 30 * sec, Ramp: true}}}, 50},
		{"closed asks for no rate", workload.Load{Model: workload.ModelClosed, Concurrency: 4, Duration: sec}, 0},
	}
	for _, c := range cases {
		if got := askedRate(c.load); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: asked %v, want %v", c.why, got, c.want)
		}
	}
}

// TestScheduleSegments: stages come after the warmup, which runs at the
// rate the stages start from; a first ramp starts from the load's rate.
func TestScheduleSegments(t *testing.T) {
	r := func(perS float64) units.Rate { return units.Rate{PerSecond: perS} }
	cases := []struct {
		why  string
		load workload.Load
		want []stretch
	}{
		{"one rate: warmup and duration are one stretch",
			workload.Load{Rate: r(10), Warmup: time.Second, Duration: 5 * time.Second},
			[]stretch{{10, 10, 6 * time.Second}}},
		{"stages follow a warmup at the first stage's rate",
			workload.Load{Warmup: 2 * time.Second, Stages: []workload.Stage{{Rate: r(10), For: time.Second}, {Rate: r(50), For: time.Second, Ramp: true}}},
			[]stretch{{10, 10, 2 * time.Second}, {10, 10, time.Second}, {10, 50, time.Second}}},
		{"a first ramp starts from the load's rate, and so does the warmup",
			workload.Load{Rate: r(5), Warmup: time.Second, Stages: []workload.Stage{{Rate: r(20), For: time.Second, Ramp: true}}},
			[]stretch{{5, 5, time.Second}, {5, 20, time.Second}}},
		{"no warmup, no warmup stretch",
			workload.Load{Stages: []workload.Stage{{Rate: r(20), For: time.Second, Ramp: true}}},
			[]stretch{{0, 20, time.Second}}},
	}
	for _, c := range cases {
		if got := scheduleStretches(c.load); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.why, got, c.want)
		}
	}
}
