package ab

import "github.com/readbench/readbench/compare"

// Compare compares the kept runs of the experiment as readbench compare
// compares runs (compare.CompareRuns, no noise floor: the rounds are the
// noise), gated by g, with the experiment's notes (its design, each round
// re-run or excluded) before the comparison's own, and its rounds (which
// base run was paired with which new run: compare.Round). nil when no round was
// kept: there is nothing to compare.
func (o *Experiment) Compare(g compare.Gate) (*compare.Comparison, error) {
	if len(o.Base) == 0 {
		return nil, nil
	}
	cmp, err := compare.Runs(o.Base, o.New, compare.RunsOptions{NoiseFloor: -1, Gate: g})
	if err != nil {
		return nil, err
	}
	cmp.Notes = append(o.Notes(), cmp.Notes...)
	for _, rd := range o.Rounds {
		r := compare.Round{Index: rd.Index, Order: []string{string(rd.Order[0]), string(rd.Order[1])},
			Attempts: rd.Attempts, Kept: rd.Kept, Noisy: append([]string{}, rd.Noisy...)}
		if rd.Kept {
			r.Base, r.New = rd.Runs[Base].Label, rd.Runs[New].Label
		}
		cmp.Rounds = append(cmp.Rounds, r)
	}
	return cmp, nil
}
