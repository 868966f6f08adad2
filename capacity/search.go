package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
)

// RateSearch is a rate search: the grid from From to To, each step Grow times
// the one before (the last one To itself), then Refine bisection steps
// between the last good and the first bad rate; then the candidate is
// held for Hold (0: not held), stepping down by the bisection's final gap
// (or to the next good step, when higher) when the hold breaks the SLO,
// at most Holds holds. A step or hold
// the generator could not drive cleanly is run again, at most Retries
// times.
type RateSearch struct {
	From, To float64 // turns per second
	Grow     float64 // > 1
	Refine   int
	Retries  int
	Hold     time.Duration
	Holds    int
	SLO      string // the SLO as the user wrote it: the finding records it
}

// Grid is the rates the plan steps through before refining.
func (p RateSearch) Grid() []float64 {
	var out []float64
	for r := p.From; r < p.To*(1-1e-9); r *= p.Grow {
		out = append(out, r)
	}
	return append(out, p.To)
}

// Check refuses a plan that cannot search.
func (p RateSearch) Check() error {
	switch {
	case !(p.From > 0) || math.IsInf(p.From, 0):
		return errors.New("--from must be a rate above 0, such as 10/s")
	case !(p.To >= p.From) || math.IsInf(p.To, 0):
		return fmt.Errorf("--to (%s/s) must be at least --from (%s/s)", numfmt.Sig3(p.To), numfmt.Sig3(p.From))
	case !(p.Grow > 1) || p.Grow > 100:
		return errors.New("--grow must be above 1 (each grid step that many times the one before), at most 100")
	case p.Refine < 0 || p.Refine > 20:
		return errors.New("--refine must be 0 to 20 bisection steps")
	case p.Retries < 0 || p.Retries > 5:
		return errors.New("--retries must be 0 to 5 runs again of a step the generator could not drive cleanly")
	case p.Hold < 0:
		return errors.New("--hold must not be negative (0: report the best step without holding it)")
	case p.Hold > 0 && (p.Holds < 1 || p.Holds > 10):
		return errors.New("--holds must be 1 to 10 holds of a candidate rate and the good rates below it")
	case len(p.Grid()) > maxGrid:
		return fmt.Errorf("the grid from %s/s to %s/s growing ×%s has more than %d steps: raise --grow", numfmt.Sig3(p.From), numfmt.Sig3(p.To), numfmt.Sig3(p.Grow), maxGrid)
	}
	return nil
}

const maxGrid = 50

// Limit says what ended a search.
const (
	LimitSLO       = "slo"        // a step broke the SLO: the server's limit at this generator's reach
	LimitGenerator = "generator"  // a failing step was generator-bound: the server's limit is not known
	LimitRange     = "range"      // every step passed: the limit is above --to
	LimitFirstStep = "first_step" // the first step already broke the SLO
	LimitHold      = "hold"       // every hold broke the SLO: no rate is known to be sustained
	LimitMachine   = "machine"    // a failing step stayed machine busy: the server's limit is not known
	// LimitNoAnswer: the first step was silent (the server answered none
	// of its reads, or nearly every one ended at the read timeout): the
	// server does not answer, which no busy machine explains.
	LimitNoAnswer = "no_answer"
)

// notServers is what ended a search at a step that is not the server's:
// the machine (CPU contended) or the generator.
func notServers(st *Step) string {
	if st.NotServers == CauseMachine {
		return LimitMachine
	}
	return LimitGenerator
}

// Search runs the plan: the grid until a step fails, then the bisection,
// then the holds. A generator-bound step (one whose load was not
// scheduled as asked, or a failing one whose scheduling lag could account
// for the failure: Criterion.LagExplains, Criterion.Unsteady) is run again, at
// most Plan.Retries times; one that stays generator-bound ends the search
// (LimitGenerator): never reported as the server's limit. A step that
// held the SLO with its lag counted in (latency runs from the intended
// start) is a good step. When ctx is cancelled the steps so far are
// returned with the error.
func Search(ctx context.Context, p RateSearch, run Runner, j Criterion) (*RateFinding, error) {
	s := &search{ctx: ctx, plan: p, run: run, j: j, rep: &RateFinding{Unit: "turns/s", SLO: p.SLO, Steps: []Step{}}}
	limit, err := s.search()
	if err != nil {
		return s.rep, err
	}
	if p.Hold > 0 && s.good != nil {
		if limit, err = s.confirm(limit); err != nil {
			return s.rep, err
		}
	}
	return s.finish(limit), nil
}

// search is one rate search under way.
type search struct {
	ctx  context.Context
	plan RateSearch
	run  Runner
	j    Criterion
	rep  *RateFinding
	n    int // runs so far, for the step files
	// good is the candidate (the highest rate that passed); bad the
	// lowest that failed, or the generator-bound step that ended the
	// search; passed every step whose verdict held the SLO.
	good, bad *Step
	passed    []Step
	// unmeasured is the lowest step the busy machine spoiled (nil when
	// none); spoiled every such rate, in the order run.
	unmeasured *Step
	spoiled    []float64
}

// search runs the grid and the bisection and says what ended them. A
// step the busy machine spoiled (CauseMachine, after its runs again) does
// not end the search: it is an upper end the bisection refines below, as
// a failure is, so the search still closes in on the limit between the
// last good step and the first that was not; what it ends with is said
// by limitOf.
func (s *search) search() (string, error) {
	for _, rate := range s.plan.Grid() {
		st, err := s.attempt("step", rate, 0)
		if err != nil {
			return "", err
		}
		if !st.Pass || st.GeneratorBound {
			s.fail(st)
			break
		}
		s.pass(st)
	}
	switch {
	case s.bad == nil && s.unmeasured == nil:
		return LimitRange, nil
	case s.bad != nil && s.bad.GeneratorBound:
		return LimitGenerator, nil
	case s.good == nil && s.bad != nil && s.bad.silent:
		return LimitNoAnswer, nil
	case s.good == nil && s.bad != nil:
		return LimitFirstStep, nil
	case s.good == nil:
		return LimitMachine, nil
	}
	for range s.plan.Refine {
		st, err := s.attempt("refine", (s.good.Rate+s.upper().Rate)/2, 0)
		if err != nil {
			return "", err
		}
		switch {
		case st.GeneratorBound && st.NotServers != CauseMachine:
			s.bad = st
			return LimitGenerator, nil
		case st.Pass && !st.GeneratorBound:
			s.pass(st)
		default:
			s.fail(st)
		}
	}
	return s.limitOf(), nil
}

// fail records a step that did not pass: the lowest the busy machine
// spoiled (unmeasured) apart from the lowest failure (bad).
func (s *search) fail(st *Step) {
	if st.NotServers == CauseMachine {
		s.unmeasured = st
		s.spoiled = append(s.spoiled, st.Rate)
		return
	}
	s.bad = st
}

// upper is the lowest rate above the candidate not known to pass: the
// lowest failure or the lowest step the machine spoiled.
func (s *search) upper() *Step {
	if s.unmeasured != nil && (s.bad == nil || s.unmeasured.Rate < s.bad.Rate) {
		return s.unmeasured
	}
	return s.bad
}

// limitOf is what ended a bisection: the SLO when the lowest rate above
// the candidate broke it as the server's, the machine when that rate
// could not be measured on it (the limit is then an interval: Interval).
func (s *search) limitOf() string {
	if s.upper() == s.unmeasured {
		return LimitMachine
	}
	return LimitSLO
}

func (s *search) pass(st *Step) { s.good = st; s.passed = append(s.passed, *st) }

// attempt runs one rate (for d, 0: the runner's step length) until the
// generator drives it cleanly, at most 1 + Plan.Retries times; every run
// is a step of the report, those run again marked Rerun. It returns the
// attempt whose verdict counts: the first clean one, or the last.
func (s *search) attempt(phase string, rate float64, d time.Duration) (*Step, error) {
	machine := false // an attempt at this rate was the busy machine's: the band's lower edge holds
	for a := 1; ; a++ {
		s.n++
		set := Setting{Index: s.n, Rate: rate, Duration: d}
		o, err := s.run(s.ctx, set)
		if err != nil {
			return nil, err
		}
		if s.rep.Target == "" {
			s.rep.Target = o.Result.Target.Address
			s.rep.Server = o.Result.Target.Server.Name + " " + o.Result.Target.Server.Version
		}
		st, err := judge(phase, set, o, s.j, busyFrom(machine))
		if err != nil {
			return nil, err
		}
		machine = machine || st.NotServers == CauseMachine
		st.Attempt, st.Retries, st.Rerun = a, a-1, st.GeneratorBound && a <= s.plan.Retries
		s.rep.Steps = append(s.rep.Steps, st)
		if s.ctx.Err() != nil {
			return nil, context.Cause(s.ctx)
		}
		if !st.Rerun {
			return &st, nil
		}
	}
}

// confirm holds the candidate for Plan.Hold; when the hold breaks the SLO
// it steps down and holds the next rate, at most Plan.Holds holds. The
// next rate is one resolution of the search below (the gap the bisection
// ended with), or the next good step when that is higher: a knee found to
// 25 turns/s that does not hold is not halved to the grid step below it.
// The rate reported is the one that held; what ended the search changes
// when a hold broke (the SLO, now at a lower rate), when the generator
// could not drive a hold (it cannot tell), or when every hold broke
// (LimitHold).
func (s *search) confirm(limit string) (string, error) {
	var gap float64
	if limit == LimitSLO && s.bad != nil {
		gap = s.bad.Rate - s.good.Rate
	}
	broke := false
	for rate, i := s.good.Rate, 0; rate > 0 && i < s.plan.Holds; i++ {
		st, err := s.attempt("hold", rate, s.plan.Hold)
		if err != nil {
			return "", err
		}
		s.rep.Hold = &Hold{Rate: rate, DurationS: s.plan.Hold.Seconds(), Pass: st.Pass && !st.GeneratorBound, Reason: st.Reason}
		switch {
		case s.rep.Hold.Pass:
			s.good = st
			if broke {
				return LimitSLO, nil
			}
			return limit, nil
		case st.GeneratorBound:
			s.good = s.passedAtMost(rate) // what a step measured, unconfirmed
			return notServers(st), nil
		}
		broke, s.bad = true, st
		next := s.passedBelow(rate)
		if gap > 0 && rate-gap > next {
			next = rate - gap
		}
		rate = next
	}
	s.good = nil
	return LimitHold, nil
}

// passedBelow is the highest rate a step passed below rate, 0 when none.
func (s *search) passedBelow(rate float64) float64 {
	var best float64
	for _, p := range s.passed {
		if p.Rate < rate && p.Rate > best {
			best = p.Rate
		}
	}
	return best
}

// passedAtMost is the passed step of the highest rate at most rate (nil
// when none): a hold the generator could not drive reports what a step at
// or below its rate measured.
func (s *search) passedAtMost(rate float64) *Step {
	var best *Step
	for i := range s.passed {
		if p := &s.passed[i]; p.Rate <= rate && (best == nil || p.Rate > best.Rate) {
			best = p
		}
	}
	return best
}
