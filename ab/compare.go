package ab

import "github.com/readbench/readbench/results"

// Compare compares the kept runs of the experiment as readbench compare
// compares runs (results.CompareRuns, no noise floor: the rounds are the
// noise), gated by g, with the experiment's notes (its design, each round
// re-run or excluded) before the comparison's own. nil when no round was
// kept: there is nothing to compare.
func (o *Experiment) Compare(g results.Gate) (*results.Comparison, error) {
	if len(o.Base) == 0 {
		return nil, nil
	}
	cmp, err := results.CompareRuns(o.Base, o.New, results.RunsOptions{NoiseFloor: -1, Gate: g})
	if err != nil {
		return nil, err
	}
	cmp.Notes = append(o.Notes(), cmp.Notes...)
	return cmp, nil
}
