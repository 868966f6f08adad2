package ab

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
)

// Document is the comparison every output format writes, whatever
// happened: the last look's verdict, or, when no round was kept, a
// comparison with no figures whose every bound is inconclusive for that
// reason (failing unless the gate lets a change without a verdict pass),
// with the rounds and their reasons. Its Answer is set either way.
func (o *Experiment) Document() *compare.Comparison {
	if o.Verdict != nil {
		o.Verdict.Answer = o.answer()
		return o.Verdict
	}
	j := o.plan.Judging
	none := func(side Side) compare.Side {
		return compare.Side{Label: "no run kept (" + filepath.Join(o.plan.Dir, string(side)) + ")", Runs: []string{}}
	}
	c := &compare.Comparison{Command: "ab", Method: compare.MethodPaired, Alpha: o.plan.LookAlpha(),
		Test: "no round kept: nothing was tested", Gate: j.Gate, Base: none(Base), New: none(New),
		Differences: []string{}, Notes: o.Notes(), Content: compare.Content{Changed: []compare.ContentChange{}},
		Rounds: o.rounds()}
	for _, b := range j.Bounds {
		c.Bounds = append(c.Bounds, compare.Unjudged(c, b, "no round kept: nothing to compare"))
	}
	c.Answer = o.answer()
	return c
}

// answer is whether the experiment answered its bounds' question, in the
// line every view leads with.
func (o *Experiment) answer() *compare.Answer {
	a := &compare.Answer{RoundsRun: len(o.Rounds), RoundsKept: len(o.Base), Looks: o.Looks,
		MaxLooks: o.plan.Looks(), Stopped: o.Stopped, CPUPressure: compare.MedianPressure(o.All)}
	var broken, open []string
	if o.Verdict != nil {
		broken, open, _ = compare.Settled(o.Verdict.Bounds)
	}
	after := fmt.Sprintf("%d of %d rounds kept, %d of at most %d looks", a.RoundsKept, a.RoundsRun, a.Looks, a.MaxLooks)
	switch {
	case len(broken) > 0:
		a.Answered = true
		a.Line = fmt.Sprintf("answered: a regression (%s broken) after %s", strings.Join(broken, ", "), after)
	case len(o.plan.Judging.Bounds) == 0:
		a.Answered = true
		a.Line = "no bounds (--fail-on), so no question to answer: " + after
	case o.Verdict != nil && len(open) == 0:
		a.Answered = true
		a.Line = "answered: no regression beyond the bounds (each change's interval within its limit) after " + after
	default:
		why := "no round kept: " + o.lastNoisy()
		if len(open) > 0 {
			why = strings.Join(open, ", ") + " could not be told (an interval reaches past its limit)"
		}
		pass := "it fails the gate"
		if !o.plan.Judging.Gate.FailOnInconclusive {
			pass = "passed by --fail-on-inconclusive=false"
		}
		a.Line = fmt.Sprintf("the regression question was not answered: %s; %s, %s; %s", why, after, stopText(o), pass)
	}
	a.Line += compare.PressureText(a.CPUPressure)
	return a
}

// stopText says why no more rounds ran.
func stopText(o *Experiment) string {
	switch o.Stopped {
	case compare.StopBudget:
		return fmt.Sprintf("the budget (%s) ran out", numfmt.Duration(o.plan.Budget))
	case compare.StopInterrupted:
		return "interrupted"
	case compare.StopMaxRounds:
		return fmt.Sprintf("the most rounds (%d) ran", o.plan.MaxRounds)
	}
	return o.Stopped
}

// lastNoisy is the last reason a run did not count, for an experiment
// that kept nothing.
func (o *Experiment) lastNoisy() string {
	for i := len(o.Rounds) - 1; i >= 0; i-- {
		if ns := o.Rounds[i].Noisy; len(ns) > 0 {
			return ns[len(ns)-1]
		}
	}
	return "no round ran"
}
