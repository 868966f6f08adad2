//go:build !race

package ab

import (
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// TestSequentialRuleRates: the whole rule — windows of both sides at the
// same instants, one estimate per bound, the looks — through Run, on
// simulated machines from quiet to saturated, gated as the README gates
// (two latency bounds and an error bound; each bound shares the gate's
// 5%). The saturated machine slows both sides of a window by a spread of
// ±60% and, one window in ten, by a heavy-tailed stall both meet, and one
// side's window in four meets a heavy-tailed stall of its own (Pareto
// tails: the one-side-at-a-time stalls of a runner with several busy loops
// per core). Per gate, in every condition: an unchanged server exits 1
// (broken or not answered) in at most 5% of experiments, a 30% slower one
// never passes; on the quiet and busy machines the 30% slower server is
// found (significant) in 95% or more and a 10% slower one (at a +5% bound)
// in 80% or more on the quiet one; the saturated machine answers at least
// half of the 30% experiments; and a server exactly at the bound (10%
// slower, +10%) passes at most 7.5% of the time (5% nominal). 200
// experiments a condition, seeded.
//
// Built only without -race (make test-norace runs it): 2,600 experiments
// of one goroutine took 73 s under the detector, 13 s without, and
// TestSequentialRuleUnderRace runs the same path under it.
func TestSequentialRuleRates(t *testing.T) {
	if testing.Short() && !needs.InCI() {
		t.Skip("-short: 2,600 simulated experiments")
	}
	const n = 200
	for _, c := range ruleMachines {
		t.Run(c.name, func(t *testing.T) {
			count := func(change float64, gate string, seed uint64) map[string]int {
				return experiments(t, c.m, n, change, gate, seed)
			}
			same, slow := count(1, ruleGate, 1), count(1.3, ruleGate, 2)
			t.Logf("unchanged: %v; 30%% slower: %v (of %d)", same, slow, n)
			if fa := same["fail"] + same["open"]; float64(fa) > 0.05*n {
				t.Errorf("unchanged: %d of %d exit 1 (%d broken, %d not answered), over 5%%", fa, n, same["fail"], same["open"])
			}
			if slow["pass"] > 0 {
				t.Errorf("30%% slower passed %d of %d times", slow["pass"], n)
			}
			if float64(slow["fail"]) < c.minFound*n || float64(slow["fail"]) < c.minAnswered*n {
				t.Errorf("30%% slower found %d of %d, under %.0f%%", slow["fail"], n, 100*max(c.minFound, c.minAnswered))
			}
			// A server exactly at the bound (10% slower, +10%): the hold
			// intervals' level lets the gate pass it 5% of the time (a
			// one-sided 5%, shared among the looks); the trimmed t is an
			// approximation under heavy-tailed stalls, and 7.5% is the bar
			// (measured: 2 to 14 of 200).
			if at := count(1.1, ruleGate, 4); float64(at["pass"]) > 0.075*n {
				t.Errorf("10%% slower at a +10%% gate passed %d of %d: %v", at["pass"], n, at)
			} else {
				t.Logf("10%% slower at +10%%: %v", at)
			}
			if c.minFound10 > 0 {
				slow10 := count(1.1, "read.p50=+5%,service.p50=+5%,errors=+0.5pp", 3)
				t.Logf("10%% slower at +5%%: %v", slow10)
				if float64(slow10["fail"]) < c.minFound10*n || slow10["pass"] > 0 {
					t.Errorf("10%% slower found %d of %d (passed %d), under %.0f%%", slow10["fail"], n, slow10["pass"], 100*c.minFound10)
				}
			}
		})
	}
}
