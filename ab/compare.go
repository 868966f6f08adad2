package ab

import (
	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
)

// Compare compares the kept runs of the experiment, base run i with new
// run i of the same round (compare.MethodPaired at two-sided level alpha,
// no noise floor: the rounds are the noise): the figures of every view, gated by g, with the
// experiment's notes (its design, each round re-run or excluded) before
// the comparison's own, and its rounds (which base run was paired with
// which new run: compare.Round). nil when no round was kept: there is
// nothing to compare.
func (o *Experiment) Compare(g compare.Gate, alpha float64) (*compare.Comparison, error) {
	if len(o.Base) == 0 {
		return nil, nil
	}
	cmp, err := compare.Runs(o.Base, o.New, compare.RunsOptions{NoiseFloor: -1, Gate: g, Paired: true, Alpha: alpha})
	if err != nil {
		return nil, err
	}
	cmp.Command = "ab"
	cmp.Notes = append(o.Notes(), cmp.Notes...)
	cmp.Rounds = o.rounds()
	return cmp, nil
}

// Decide compares the kept rounds at two-sided level alpha and holds them
// to the plan's bounds, each judged on the figure the lag lets it be
// (judged.go) and decided by one estimate (compare.Decide): that of the
// windows both sides ran at the same instants (windows.go) for a figure a
// window holds, that of the paired rounds for the others (rates,
// inflation, costs). A bound judged on service time says so (JudgedOn and
// a note); one no figure can judge is not answered. nil when no round was
// kept.
func (o *Experiment) Decide(alpha float64) (*compare.Comparison, error) {
	j := o.plan.Judging
	c, err := o.Compare(j.Gate, alpha)
	if c == nil || err != nil {
		return c, err
	}
	c.Gate.Level, c.Gate.HoldLevel = alpha, o.plan.HoldAlpha()
	c.Estimator = o.windowEstimate
	js := o.judgings(j.Bounds, o.plan.Policy)
	as := make([]bounds.Bound, 0, len(js))
	for _, x := range js {
		as = append(as, x.bound)
	}
	if _, _, err := c.Hold("ab", as, o.Base, o.New, j.Content); err != nil {
		return nil, err
	}
	for i, x := range js {
		bc := &c.Bounds[i]
		if x.skip != "" {
			*bc = compare.Unjudged(c, x.bound, x.skip)
		}
		if x.on != "" {
			bc.JudgedOn = x.on
			c.Notes = append(c.Notes, judgedNote(x, o, o.plan.Policy))
		}
	}
	return c, nil
}

// rounds are the experiment's rounds as a comparison holds them.
func (o *Experiment) rounds() []compare.Round {
	out := make([]compare.Round, 0, len(o.Rounds))
	for _, rd := range o.Rounds {
		r := compare.Round{Index: rd.Index, Order: []string{string(rd.Order[0]), string(rd.Order[1])},
			Attempts: rd.Attempts, Kept: rd.Kept, Noisy: append([]string{}, rd.Noisy...)}
		if rd.Kept {
			r.Base, r.New = rd.Runs[Base].Label, rd.Runs[New].Label
		}
		out = append(out, r)
	}
	return out
}
