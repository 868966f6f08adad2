package results

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// lagDoc is a result of 500 turns asked and scheduled (4 reads each) with
// reads at p50 p50 / p99 p99 ms, service time svc50 / svc99 and a lag of
// lag50 / lag99, over ten measured seconds whose largest lag is secLag.
func lagDoc(p50, p99, svc50, svc99, lag50, lag99 float64, secLag ...float64) *Result {
	r := &Result{
		Workload: workload.Workload{Load: workload.Load{MaxInFlight: 1000}},
		Totals: Totals{Scheduled: 2000, Turns: 500, AskedRate: 50, MeasuredS: 10,
			Outcomes: map[string]int64{"ok": 2000, "dropped": 0}},
		Read:    stats.Latency{Count: 2000, P50Ms: p50, P99Ms: p99},
		Service: stats.Latency{Count: 2000, P50Ms: svc50, P99Ms: svc99},
		Lag:     stats.Latency{Count: 2000, P50Ms: lag50, P99Ms: lag99},
	}
	if len(secLag) == 0 {
		secLag = []float64{lag99, lag99, lag99, lag99, lag99, lag99, lag99, lag99, lag99, lag99}
	}
	r.Timeline = append(r.Timeline, Second{T: 0, Warmup: true, LagMaxMs: 900}) // warmup: never judged
	for i, l := range secLag {
		r.Timeline = append(r.Timeline, Second{T: i + 1, LagMaxMs: l})
	}
	return r
}

// TestJudgeGenerator: saturation (nothing sent, too few turns scheduled,
// sends dropped, lag growing) and jitter (material only when it is at
// least half a reported figure) are told apart, and a busy machine's
// bounded lag at a low rate is neither.
func TestJudgeGenerator(t *testing.T) {
	for _, c := range []struct {
		name                  string
		r                     *Result
		bound, saturated, mat bool
		noisy                 bool
		want                  string // in the why or the note
	}{
		{name: "quiet: 3.3 ms of a 40 ms p99 is jitter, stated, not a limit",
			r:    lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3),
			want: "up to 3.30ms of the 40.0ms read p99"},
		{name: "busy machine at 5 turns/s: lag p99 67 ms beside a 154 ms p99 moved the p99 11 ms: not a limit",
			r: lagDoc(22.2, 154, 13.9, 142.7, 1.6, 67.5, 57.7, 15.6, 67.5, 3, 40, 9, 60, 12, 20, 8)},
		{name: "busy and lagging: 540 ms of lag in a 727 ms p99 over 190 ms of service is material",
			r: lagDoc(300, 727, 60, 190, 230, 540), bound: true, mat: true, want: "of the 727ms read p99"},
		{name: "nothing sent: always flagged, and too noisy to advise from",
			r: func() *Result {
				r := lagDoc(0, 0, 0, 0, 0, 0)
				r.Read.Count, r.Service.Count, r.Lag.Count = 0, 0, 0
				r.Totals.Outcomes = map[string]int64{"ok": 0, "dropped": 2000}
				r.Totals.TurnEnds.Dropped = 500
				return r
			}(), bound: true, saturated: true, noisy: true, want: "sent no read (all 2,000 scheduled reads were dropped)"},
		{name: "nothing scheduled of what was asked",
			r: func() *Result {
				r := lagDoc(0, 0, 0, 0, 0, 0)
				r.Totals.Scheduled, r.Totals.Turns, r.Lag.Count = 0, 0, 0
				return r
			}(), bound: true, saturated: true, noisy: true, want: "scheduled none of the 500 turns asked"},
		{name: "the pacer fell behind: 300 of 500 turns scheduled",
			r:     func() *Result { r := lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3); r.Totals.Turns = 300; return r }(),
			bound: true, saturated: true, noisy: true, want: "scheduled only 300 of the 500 turns asked"},
		{name: "a run of 500 turns, its span stretched to 11 s by slow last reads, asked 550: all 500 scheduled, no shortfall",
			r: func() *Result {
				r := lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3)
				r.Workload.Load.Turns, r.Totals.MeasuredS = 500, 11
				return r
			}()},
		{name: "a shard of a run of 1,000 turns owns 500 of them: all scheduled, no shortfall",
			r: func() *Result {
				r := lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3)
				r.Workload.Load.Turns, r.Segment, r.Totals.MeasuredS = 1000, Segment{K: 2, N: 2}, 11
				return r
			}()},
		{name: "a run of 500 turns that scheduled 300 still falls short",
			r: func() *Result {
				r := lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3)
				r.Workload.Load.Turns, r.Totals.Turns = 500, 300
				return r
			}(), bound: true, saturated: true, noisy: true, want: "scheduled only 300 of the 500 turns asked"},
		{name: "sends dropped by readbench itself: saturated, yet the turns that ran are sound",
			r: func() *Result {
				r := lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3)
				r.Workload.Load.MaxInFlight = 2
				r.Totals.Outcomes = map[string]int64{"ok": 1344, "dropped": 656}
				r.Totals.TurnEnds.Dropped = 164
				r.Lag.Count = 1344 // dropped on time, at the cap: no lateness
				return r
			}(), bound: true, saturated: true, want: "dropped 656 of 2,000 scheduled reads itself (164 turns dropped at max_in_flight 2"},
		{name: "1 turn in 30 reached past its 5 ms deadline: under the drop share, yet the turn tail is readbench's",
			r: func() *Result {
				r := lagDoc(1.2, 4, 1.1, 3.8, 0.2, 5.4)
				r.Totals.Outcomes = map[string]int64{"ok": 1934, "dropped": 66}
				r.Totals.TurnEnds.Dropped = 16
				r.Lag.MaxMs = 41 // the dropped turns' lateness is in the lag block
				return r
			}(), bound: true, saturated: true, want: "reached 66 of 2,000 scheduled reads only past their turn's deadline and dropped them (lag p99 5.40ms, max 41.0ms)"},
		{name: "a late drop or two in a long run: stated in the lag, not a limit",
			r: func() *Result {
				r := lagDoc(12, 40, 11.8, 36.7, 0.3, 3.3)
				r.Totals.Outcomes = map[string]int64{"ok": 1996, "dropped": 4}
				r.Totals.TurnEnds.Dropped = 1
				return r
			}()},
		{name: "lag growing second after second",
			r:     lagDoc(20, 60, 19, 55, 1, 9, 1, 2, 3, 8, 20, 40, 90, 150, 300, 600),
			bound: true, saturated: true, noisy: true, want: "fell further behind over the run (largest scheduling lag per second 3.00ms at the start, 150ms at the end)"},
		{name: "a slow second at the end is not a trend",
			r: lagDoc(20, 60, 19, 55, 1, 9, 1, 2, 3, 2, 1, 2, 1, 2, 3, 600)},
		{name: "three seconds cannot show a trend",
			r: lagDoc(20, 60, 19, 55, 1, 9, 1, 100, 400)},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := JudgeGenerator(c.r)
			if f.Bound() != c.bound || f.Saturated != c.saturated || f.Material != c.mat || f.Noisy() != c.noisy {
				t.Errorf("bound %v saturated %v material %v noisy %v (share %.3f, why %q), want %v %v %v %v",
					f.Bound(), f.Saturated, f.Material, f.Noisy(), f.LagShare, f.Why, c.bound, c.saturated, c.mat, c.noisy)
			}
			setGenerator(c.r)
			if c.r.GeneratorBound != c.bound || c.r.Generator.Saturated != c.saturated || c.r.Generator.JitterMaterial != c.mat {
				t.Errorf("document: generator_bound %v generator %+v", c.r.GeneratorBound, c.r.Generator)
			}
			if all := c.r.Generator.Saturation + "\n" + c.r.Generator.Note; !strings.Contains(all, c.want) {
				t.Errorf("the finding lacks %q:\n%s", c.want, all)
			}
		})
	}
}
