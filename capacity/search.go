package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/readbench/readbench/internal/numfmt"
)

// Plan is a rate search: the grid from From to To, each step Grow times
// the one before (the last one To itself), then Refine bisection steps
// between the last good and the first bad rate.
type Plan struct {
	From, To float64 // turns per second
	Grow     float64 // > 1
	Refine   int
}

// Grid is the rates the plan steps through before refining.
func (p Plan) Grid() []float64 {
	var out []float64
	for r := p.From; r < p.To*(1-1e-9); r *= p.Grow {
		out = append(out, r)
	}
	return append(out, p.To)
}

// Check refuses a plan that cannot search.
func (p Plan) Check() error {
	switch {
	case !(p.From > 0) || math.IsInf(p.From, 0):
		return errors.New("--from must be a rate above 0, such as 10/s")
	case !(p.To >= p.From) || math.IsInf(p.To, 0):
		return fmt.Errorf("--to (%s/s) must be at least --from (%s/s)", numfmt.Sig3(p.To), numfmt.Sig3(p.From))
	case !(p.Grow > 1) || p.Grow > 100:
		return errors.New("--grow must be above 1 (each grid step that many times the one before), at most 100")
	case p.Refine < 0 || p.Refine > 20:
		return errors.New("--refine must be 0 to 20 bisection steps")
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
)

// RateFinding is what a rate search found: the JSON of `readbench capacity
// --format json`, and what the table prints.
type RateFinding struct {
	Target string `json:"target"`
	Server string `json:"server"` // name and version the target announced
	// MaxSustainableRate is the highest rate (turns per second) a step held
	// the SLO at; 0 when none did. ReadsPerS and WireMBPerS are what that
	// step achieved.
	MaxSustainableRate float64 `json:"max_sustainable_rate"`
	Unit               string  `json:"unit"` // "turns/s"
	ReadsPerS          float64 `json:"reads_per_s"`
	WireMBPerS         float64 `json:"wire_mb_per_s"`
	SLO                string  `json:"slo"`
	// LimitedBy is what ended the search (LimitSLO, ...); FirstBadRate the
	// lowest rate that failed (0 when none did).
	LimitedBy    string  `json:"limited_by"`
	FirstBadRate float64 `json:"first_bad_rate"`
	Conclusion   string  `json:"conclusion"` // one sentence, printed under the table
	Steps        []Step  `json:"steps"`
}

// Search runs the plan: the grid until a step fails, then the bisection.
// A generator-bound step ends the search (LimitGenerator): one whose load
// was not scheduled as asked (evidence of nothing, pass or fail), or a
// failing one whose scheduling lag could account for the failure (see
// Judge.LagExplains): never reported as the server's limit. A step that
// held the SLO with its lag counted in (latency runs from the intended
// start) is a good step. When ctx is cancelled the steps so far are
// returned with the error.
func Search(ctx context.Context, p Plan, run Runner, j Judge) (*RateFinding, error) {
	rep := &RateFinding{Unit: "turns/s", Steps: []Step{}}
	var good, bad *Step
	n := 0
	do := func(phase string, rate float64) (*Step, error) {
		n++
		o, err := run(ctx, Setting{Index: n, Rate: rate})
		if err != nil {
			return nil, err
		}
		if rep.Target == "" {
			rep.Target = o.Result.Target.Address
			rep.Server = o.Result.Target.Server.Name + " " + o.Result.Target.Server.Version
		}
		st, err := judge(phase, Setting{Index: n, Rate: rate}, o, j)
		if err != nil {
			return nil, err
		}
		rep.Steps = append(rep.Steps, st)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return &rep.Steps[len(rep.Steps)-1], nil
	}
	finish := func(limit string) (*RateFinding, error) {
		rep.LimitedBy = limit
		if good != nil {
			rep.MaxSustainableRate, rep.ReadsPerS, rep.WireMBPerS = good.Rate, good.ReadsPerS, good.WireMBPerS
		}
		if bad != nil {
			rep.FirstBadRate = bad.Rate
		}
		rep.Conclusion = conclusion(rep, bad)
		return rep, nil
	}
	for _, rate := range p.Grid() {
		st, err := do("step", rate)
		if err != nil {
			return rep, err
		}
		if !st.Pass || st.GeneratorBound {
			bad = copyStep(st)
			break
		}
		good = copyStep(st)
	}
	switch {
	case bad == nil:
		return finish(LimitRange)
	case bad.GeneratorBound:
		return finish(LimitGenerator)
	case good == nil:
		return finish(LimitFirstStep)
	}
	for range p.Refine {
		mid := (good.Rate + bad.Rate) / 2
		st, err := do("refine", mid)
		if err != nil {
			return rep, err
		}
		if st.GeneratorBound {
			bad = copyStep(st)
			return finish(LimitGenerator)
		}
		if st.Pass {
			good = copyStep(st)
			continue
		}
		bad = copyStep(st)
	}
	return finish(LimitSLO)
}

func copyStep(s *Step) *Step { c := *s; return &c }

// conclusion is the sentence under the table: what was found, in the
// terms of what was measured (readbench does not know the server's
// configuration, so it never states a theoretical figure).
func conclusion(r *RateFinding, bad *Step) string {
	rate := func(v float64) string { return numfmt.Sig3(v) + " turns/s" }
	at := fmt.Sprintf("%s reads/s, %s MB/s on the wire", numfmt.Sig3(r.ReadsPerS), numfmt.Sig3(r.WireMBPerS))
	switch r.LimitedBy {
	case LimitRange:
		return fmt.Sprintf("Every step held the SLO up to %s (%s): the limit is above the range searched; raise --to.", rate(r.MaxSustainableRate), at)
	case LimitFirstStep:
		return fmt.Sprintf("The first step, %s, already broke the SLO (%s): lower --from.", rate(bad.Rate), bad.Reason)
	case LimitGenerator:
		s := fmt.Sprintf("At %s readbench could not drive the load (%s): that is this generator's limit, not the server's, which is at least ", rate(bad.Rate), bad.Reason)
		if r.MaxSustainableRate > 0 {
			return s + rate(r.MaxSustainableRate) + " (" + at + "). Run more shards (--segment) or a larger machine."
		}
		return s + "unknown. Run more shards (--segment) or a larger machine."
	}
	return fmt.Sprintf("Maximum sustainable rate %s (%s), measured; the SLO broke at %s: %s.", rate(r.MaxSustainableRate), at, rate(bad.Rate), bad.Reason)
}
