package ab

import "github.com/readbench/readbench/compare"

// Compare compares the kept runs of the experiment as readbench compare
// compares runs (compare.CompareRuns, no noise floor: the rounds are the
// noise), gated by g, with the experiment's notes (its design, each round
// re-run or excluded) before the comparison's own. nil when no round was
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
	return cmp, nil
}
