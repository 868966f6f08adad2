package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// ListenerSearch is a listener search (--sweep listeners): the reads held at
// Rate (turns per second; the workload's), first with no listener open
// (the baseline: the read p99 interference is measured against), then
// with K listeners for K on the grid from From to To (each Grow times the
// one before, the last To itself), then Refine bisection steps between
// the last good and the first bad K, then the candidate held for Hold
// (0: not held), stepping down when a hold breaks, at most Holds holds.
// A step the generator or the machine spoiled is run again, at most
// Retries times, as in the rate search.
type ListenerSearch struct {
	Rate     float64
	From, To int
	Grow     float64
	Refine   int
	Retries  int
	Hold     time.Duration
	Holds    int
	SLO      string // as the user wrote it
}

// Grid is the listener counts the plan steps through before refining.
func (p ListenerSearch) Grid() []int {
	var out []int
	for k := float64(p.From); int(math.Round(k)) < p.To; k *= p.Grow {
		if n := int(math.Round(k)); len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	return append(out, p.To)
}

// Check refuses a plan that cannot search.
func (p ListenerSearch) Check() error {
	switch {
	case !(p.Rate > 0):
		return errors.New("--sweep listeners holds the reads' rate (interference is measured on them): give --rate or a workload with load.rate")
	case p.From < 1:
		return errors.New("--from must be at least 1 listener")
	case p.To < p.From:
		return fmt.Errorf("--to (%d listeners) must be at least --from (%d)", p.To, p.From)
	case !(p.Grow > 1) || p.Grow > 100:
		return errors.New("--grow must be above 1, at most 100")
	case p.Refine < 0 || p.Refine > 20:
		return errors.New("--refine must be 0 to 20 bisection steps")
	case p.Retries < 0 || p.Retries > 5:
		return errors.New("--retries must be 0 to 5")
	case p.Hold < 0 || p.Hold > 0 && (p.Holds < 1 || p.Holds > 10):
		return errors.New("--hold must not be negative, and --holds must be 1 to 10")
	case len(p.Grid()) > maxGrid:
		return fmt.Errorf("the grid from %d to %d listeners has more than %d steps: raise --grow", p.From, p.To, maxGrid)
	}
	return nil
}

// What ended a listener search, besides the rate search's LimitRange,
// LimitFirstStep, LimitHold, LimitMachine and LimitGenerator: the server
// refused a listener or broke a listener bound (the first failing step's
// Refused names which), or it offers no subscriptions at all.
const (
	LimitListeners     = "listeners"      // a step broke the listener SLO: ListenerFinding.RefusedFirst says how
	LimitNotApplicable = "not_applicable" // the server does not offer resources.subscribe
	LimitBaseline      = "baseline"       // the reads alone, with no listener, broke the SLO or could not be measured
)

// ListenerFinding is what a listener search found: the JSON of
// `readbench capacity --sweep listeners --format json`.
type ListenerFinding struct {
	Target string  `json:"target"`
	Server string  `json:"server"`
	SLO    string  `json:"slo"`
	Rate   float64 `json:"rate"` // the reads' turns per second, held
	// MaxListeners is the most listeners the search confirmed the server
	// holds within the SLO; nil (JSON null) when it knows none, as a rate
	// search's max_sustainable_rate. Interval then says where it lies.
	MaxListeners *int   `json:"max_listeners"`
	LimitedBy    string `json:"limited_by"`
	// RefusedFirst is what refused at FirstBadListeners, the lowest count
	// that failed as the server's (a Refused* constant; "" when none did),
	// and RefusedWhy its words.
	RefusedFirst      string `json:"refused_first"`
	RefusedWhy        string `json:"refused_why"`
	FirstBadListeners int    `json:"first_bad_listeners"`
	// ReadP99AtZeroMs is the baseline: the reads' p99 with no listener.
	ReadP99AtZeroMs float64 `json:"read_p99_at_zero_ms"`
	// Interference is the reads' p99 at 0 listeners and at each count
	// tried, in the order run (reruns left out).
	Interference []InterferencePoint `json:"interference"`
	Hold         *Hold               `json:"hold"` // Hold.Rate is the listener count held
	// Interval: the counts not measured (the machine's or the
	// generator's) between the highest good one and the lowest bad one.
	Interval   *Interval `json:"interval"`
	Conclusion string    `json:"conclusion"`
	Steps      []Step    `json:"steps"`
}

// InterferencePoint is the reads' p99 with Listeners open, and its ratio
// to that with none (1 at 0).
type InterferencePoint struct {
	Listeners int     `json:"listeners"`
	ReadP99Ms float64 `json:"read_p99_ms"`
	Ratio     float64 `json:"ratio"`
}

// SearchListeners runs the plan: the baseline, the grid until a step
// fails, the bisection, the holds. Each step is judged by the reads'
// bounds and the listeners' (ListenerSLO); a step whose failure was the
// machine's or the generator's is run again and, staying so, ends the
// search without a figure (LimitMachine, LimitGenerator); a refusal
// (Subscription limit reached) is the server's word whatever the machine
// was doing. When ctx is cancelled the steps so far are returned with
// the error.
func SearchListeners(ctx context.Context, p ListenerSearch, run Runner, slo ListenerSLO) (*ListenerFinding, error) {
	ls := &listenSearch{ctx: ctx, plan: p, run: run, crit: &listenCriterion{slo: slo, reads: slo.Reads},
		rep: &ListenerFinding{SLO: p.SLO, Rate: p.Rate, Steps: []Step{}, Interference: []InterferencePoint{}}}
	limit, err := ls.search()
	if err != nil {
		return ls.rep, err
	}
	if p.Hold > 0 && ls.good != nil && (limit == LimitListeners || limit == LimitRange) {
		if limit, err = ls.confirm(limit); err != nil {
			return ls.rep, err
		}
	}
	ls.finish(limit)
	return ls.rep, nil
}

// listenSearch is one listener search under way: good the highest count
// that passed, bad the lowest the server failed, spoiled the lowest the
// machine or the generator did.
type listenSearch struct {
	ctx                  context.Context
	plan                 ListenerSearch
	run                  Runner
	crit                 *listenCriterion
	rep                  *ListenerFinding
	n                    int
	good, bad, unmeasure *Step
	passed               []int
	rebased              int // baselines measured again (rebaseline)
}

// search runs the baseline, the grid and the bisection and says what
// ended them.
func (s *listenSearch) search() (string, error) {
	base, err := s.attempt("baseline", 0, 0)
	if err != nil {
		return "", err
	}
	if !base.Pass || base.GeneratorBound {
		s.bad = base
		return LimitBaseline, nil
	}
	s.crit.baseline = base.Read.P99Ms
	s.rep.ReadP99AtZeroMs = base.Read.P99Ms
	for _, k := range s.plan.Grid() {
		st, err := s.attempt("step", k, 0)
		if err != nil {
			return "", err
		}
		if limit, end := s.take(st); end {
			return limit, nil
		}
		if !st.Pass || st.GeneratorBound {
			break
		}
	}
	if s.bad == nil && s.unmeasure == nil {
		return LimitRange, nil
	}
	if s.good == nil {
		if s.bad != nil {
			return LimitFirstStep, nil
		}
		return s.unmeasure.NotServers, nil
	}
	for range s.plan.Refine {
		up := s.upper()
		if up.Listeners-s.good.Listeners <= 1 {
			break
		}
		st, err := s.attempt("refine", (s.good.Listeners+up.Listeners)/2, 0)
		if err != nil {
			return "", err
		}
		if limit, end := s.take(st); end {
			return limit, nil
		}
	}
	if s.upper() == s.unmeasure {
		return s.unmeasure.NotServers, nil
	}
	return LimitListeners, nil
}

// take files a step: good, bad or spoiled; end when the server offers
// no subscriptions at all.
func (s *listenSearch) take(st *Step) (string, bool) {
	switch {
	case st.Listen != nil && st.Listen.NotApplicable > 0 && st.Listen.StreamsOpened == 0:
		s.bad = st
		return LimitNotApplicable, true
	case st.GeneratorBound:
		if s.unmeasure == nil || st.Listeners < s.unmeasure.Listeners {
			s.unmeasure = st
		}
	case st.Pass:
		s.good, s.passed = st, append(s.passed, st.Listeners)
	case s.bad == nil || st.Listeners < s.bad.Listeners:
		s.bad = st
	}
	return "", false
}

// upper is the lowest count above the candidate not known to pass.
func (s *listenSearch) upper() *Step {
	if s.unmeasure != nil && (s.bad == nil || s.unmeasure.Listeners < s.bad.Listeners) {
		return s.unmeasure
	}
	return s.bad
}

// attempt runs k listeners (0: the baseline, none) until the generator
// and the machine let it be measured, at most 1 + Plan.Retries times.
func (s *listenSearch) attempt(phase string, k int, d time.Duration) (*Step, error) {
	machine := false
	for a := 1; ; a++ {
		s.n++
		set := Setting{Index: s.n, Rate: s.plan.Rate, Listeners: k, NoListeners: k == 0, Duration: d}
		o, err := s.run(s.ctx, set)
		if err != nil {
			return nil, err
		}
		if s.rep.Target == "" {
			s.rep.Target = o.Result.Target.Address
			s.rep.Server = o.Result.Target.Server.Name + " " + o.Result.Target.Server.Version
		}
		var st Step
		var again *Step // a baseline measured again to judge this step's interference
		if k == 0 {
			st, err = judge(phase, set, o, slo(s.crit.slo.Reads), busyFrom(machine))
		} else {
			st, err = s.judgeListeners(phase, set, o, busyFrom(machine))
			if err == nil && s.interferenceOnly(&st) {
				if again, err = s.rebaseline(); err == nil && again != nil {
					st, err = s.judgeListeners(phase, set, o, busyFrom(machine))
				}
			}
		}
		if err != nil {
			return nil, err
		}
		st.Listeners = k
		machine = machine || st.NotServers == CauseMachine
		st.Attempt, st.Retries, st.Rerun = a, a-1, st.GeneratorBound && a <= s.plan.Retries
		s.rep.Steps = append(s.rep.Steps, st)
		if !st.Rerun {
			s.point(st)
		}
		if again != nil {
			again.Attempt = 1
			s.rep.Steps = append(s.rep.Steps, *again)
			if !again.Rerun {
				s.point(*again)
			}
		}
		if s.ctx.Err() != nil {
			return nil, context.Cause(s.ctx)
		}
		if !st.Rerun {
			return &st, nil // st itself: a baseline measured again may follow it in the report
		}
	}
}

// judgeListeners judges a step with listeners: the reads' bounds and
// the listeners' against the current baseline. A refusal (limit reached)
// is the server's word, whatever the machine did.
func (s *listenSearch) judgeListeners(phase string, set Setting, o StepRun, busy float64) (Step, error) {
	st, err := judge(phase, set, o, s.crit, busy)
	st.Listen = s.crit.last
	if err == nil && len(st.Listen.Refused) > 0 && st.Listen.Refused[0] == RefusedLimit {
		st.GeneratorBound, st.NotServers, st.Reason = false, "", s.crit.lastWhy
	}
	return st, err
}

// interferenceOnly says whether st failed by interference alone (the
// server's, or on a busy machine, which slows the reads with listeners
// and without alike), while a baseline may still be measured again (at
// most 1 + Plan.Retries times a search).
func (s *listenSearch) interferenceOnly(st *Step) bool {
	r := st.Listen.Refused
	return !st.Pass && len(r) == 1 && r[0] == RefusedInterference && s.rebased <= s.plan.Retries
}

// rebaseline measures the reads with no listener again, for a step that
// failed by interference alone: the baseline of one short step is a
// sample of a machine whose load comes and goes, and a quiet moment in it
// would make every later step look slowed. The baseline becomes the
// higher of the two, so that interference is claimed only against both
// (nil: this baseline could not be measured, and the first stands).
func (s *listenSearch) rebaseline() (*Step, error) {
	s.rebased++
	s.n++
	set := Setting{Index: s.n, Rate: s.plan.Rate, NoListeners: true}
	o, err := s.run(s.ctx, set)
	if err != nil {
		return nil, err
	}
	st, err := judge("baseline", set, o, slo(s.crit.slo.Reads), busyPressure)
	if err != nil || !st.Pass || st.GeneratorBound && st.NotServers != CauseMachine {
		st.Rerun = true // not used: the first baseline stands
		return &st, err
	}
	if st.Read.P99Ms > s.crit.baseline {
		s.crit.baseline, s.rep.ReadP99AtZeroMs = st.Read.P99Ms, st.Read.P99Ms
	}
	return &st, nil
}

// point adds a counted step's reads to the interference list.
func (s *listenSearch) point(st Step) {
	p := InterferencePoint{Listeners: st.Listeners, ReadP99Ms: st.Read.P99Ms}
	if b := s.rep.ReadP99AtZeroMs; b > 0 {
		p.Ratio = st.Read.P99Ms / b
	} else if st.Listeners == 0 {
		p.Ratio = 1
	}
	s.rep.Interference = append(s.rep.Interference, p)
}

// confirm holds the candidate for Plan.Hold; a hold that breaks steps
// down to the next count that passed, at most Plan.Holds holds.
func (s *listenSearch) confirm(limit string) (string, error) {
	k := s.good.Listeners
	for i := 0; k > 0 && i < s.plan.Holds; i++ {
		st, err := s.attempt("hold", k, s.plan.Hold)
		if err != nil {
			return "", err
		}
		s.rep.Hold = &Hold{Rate: float64(k), DurationS: s.plan.Hold.Seconds(), Pass: st.Pass && !st.GeneratorBound, Reason: st.Reason}
		switch {
		case s.rep.Hold.Pass:
			s.good = st
			return limit, nil
		case st.GeneratorBound:
			return st.NotServers, nil
		}
		s.bad, limit = st, LimitListeners
		next := 0
		for _, p := range s.passed {
			if p < k && p > next {
				next = p
			}
		}
		k = next
	}
	s.good = nil
	return LimitHold, nil
}
