package ab

import (
	"slices"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
)

// The sequential rule (docs/compare.md, "ab: until it can decide"). An
// experiment looks at its kept rounds after Design.Rounds of them, then
// each time they double, and at Design.MaxRounds: at most Looks() looks, each bound
// tested at two-sided level LookAlpha() = 2·5%/(Looks()·bounds). A bound
// is broken at a look only by a significant change for the worse beyond
// it, so the chance that an unchanged server fails the gate at any look
// by any bound is at most 5% (Bonferroni: whatever the looks' and bounds'
// dependence, and whenever the budget stops the experiment). It stops
// once every bound is decided: one broken (a regression found), or each
// held with its whole interval on the right side of its limit. Otherwise
// it runs on until MaxRounds or the budget, and what is still open then
// is inconclusive. The end, when rounds were kept after the last look,
// takes the place of the next look, which never comes: no more than
// Looks() tests are ever made.

// The defaults of a Design.
const (
	// DefaultRounds are the rounds of the first look: a clear change
	// (30% on a quiet or a busy machine) is decided there, in 24 windows
	// of 250 ms of runs of 1 s.
	DefaultRounds = 6
	// DefaultMaxRounds are the most rounds an experiment runs: the looks
	// at 6, 12, 24 and 48 rounds. A saturated runner (several busy loops
	// per core, a test suite beside them) can leave an unchanged server's
	// interval past a +10% bound after 16 rounds of 2 s (4 of 16 A/A
	// experiments, docs/compare.md); 48 rounds give it three times the
	// windows, and most experiments stop long before.
	DefaultMaxRounds = 48
	// DefaultBudget is the longest an experiment starts rounds for: a CI
	// step of a few minutes.
	DefaultBudget = 5 * time.Minute
)

// Judging is how the kept rounds are judged: the bounds, how a change
// with no verdict counts (Gate), and whether content must be unchanged.
type Judging struct {
	Bounds  []bounds.Bound
	Gate    compare.Gate
	Content bool
}

// looksAt are the kept rounds the plan looks at: Rounds, then twice as
// many each time, and MaxRounds. Most of what an experiment learns comes
// late, when most windows are in: looks that double spend the gate's 5%
// on few tests (4 by default, where a look every 2 rounds would be 22),
// each at a level its share leaves usable.
func (p Design) looksAt() []int {
	var at []int
	for k := p.Rounds; k < p.MaxRounds; k *= 2 {
		at = append(at, k)
	}
	return append(at, p.MaxRounds)
}

// Looks is the most looks the plan makes.
func (p Design) Looks() int { return len(p.looksAt()) }

// LookAlpha is each bound's two-sided level at each look: a one-sided 5%
// shared out among the gate's bounds and the looks (compare.GateLevel), so
// that an unchanged server fails the gate as a whole — any bound, any look
// — at most 5% of the time.
func (p Design) LookAlpha() float64 {
	return compare.GateLevel(len(p.Judging.Bounds), p.Looks())
}

// HoldAlpha is the two-sided level of the intervals a bound is held by at
// each look: a one-sided 5% against holding a bound the new version broke,
// shared out among the looks (to pass a regression the gate must hold that
// very bound at some look, so no share among the bounds is needed).
func (p Design) HoldAlpha() float64 { return compare.GateLevel(1, p.Looks()) }

// due reports whether kept rounds are a look.
func (p Design) due(kept int) bool { return slices.Contains(p.looksAt(), kept) }

func (p Design) clock() func() time.Time {
	if p.Now != nil {
		return p.Now
	}
	return time.Now
}

// lookIfDue looks when a round was just kept and the kept rounds are a
// look; done is true when the experiment can stop.
func (o *Experiment) lookIfDue(kept bool) (done bool, err error) {
	if !kept || !o.plan.due(len(o.Base)) {
		return false, nil
	}
	decided, err := o.look()
	if decided {
		o.Stopped = compare.StopDecided
		if len(o.plan.Judging.Bounds) == 0 {
			o.Stopped = compare.StopNoBounds
		}
	}
	return decided, err
}

// look judges the kept rounds and keeps the comparison as the verdict.
func (o *Experiment) look() (decided bool, err error) {
	c, err := o.Decide(o.plan.LookAlpha())
	if err != nil || c == nil {
		return false, err
	}
	o.Looks++
	o.Verdict = c
	decided = Decided(c, o.judgings(o.plan.Judging.Bounds, o.plan.Policy))
	if o.plan.Looked != nil {
		o.plan.Looked(len(o.Base), c, decided)
	}
	return decided, nil
}

// finish makes the end's look when rounds were kept after the last one,
// then sets the verdict's answer.
func (o *Experiment) finish() error {
	var err error
	if len(o.Base) > 0 && (o.Verdict == nil || len(o.Verdict.Base.Runs) < len(o.Base)) {
		_, err = o.look()
	}
	if o.Verdict != nil {
		o.Verdict.Answer = o.answer()
	}
	return err
}

// Decided reports whether the bounds of c are decided: one broken (the
// experiment found a regression), or none left open — each held with its
// whole interval within its limit, or one no figure can judge (more
// rounds would not help).
func Decided(c *compare.Comparison, js []judging) bool {
	broken, _, _ := compare.Settled(c.Bounds)
	if len(broken) > 0 {
		return true
	}
	for i, bc := range c.Bounds {
		if bc.Verdict == compare.VerdictInconclusive && (i >= len(js) || js[i].skip == "") {
			return false
		}
	}
	return true
}
