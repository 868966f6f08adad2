//go:build race

package ab

import "testing"

// TestSequentialRuleUnderRace runs the simulated experiments of
// TestSequentialRuleRates, a few a machine, under the race detector, which
// that test's 2,600 are built without: on every machine a server 30%
// slower is never passed, and every experiment ends in one of the three
// exits.
func TestSequentialRuleUnderRace(t *testing.T) {
	for _, c := range ruleMachines {
		t.Run(c.name, func(t *testing.T) {
			same, slow := experiments(t, c.m, 4, 1, ruleGate, 1), experiments(t, c.m, 4, 1.3, ruleGate, 2)
			if slow["pass"] > 0 {
				t.Errorf("30%% slower passed %d of 4 times: %v", slow["pass"], slow)
			}
			for _, exits := range []map[string]int{same, slow} {
				if n := exits["pass"] + exits["fail"] + exits["open"]; n != 4 {
					t.Errorf("exits %v: %d of 4 pass, fail or open", exits, n)
				}
			}
		})
	}
}
