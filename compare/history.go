package compare

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/readbench/readbench/results"
)

// PickHistory finds the results to compare in a folder of past runs
// (runs/ by default): the newest result by start time, and the nth before
// it that ran the same workload (SameWorkload), so that "compare with the
// last release" is one command. Files that are not results (server logs,
// check documents, damaged files) are passed over.
func PickHistory(dir string, n int) (base, nw string, err error) {
	runs, err := LoadRuns(dir)
	if err != nil {
		return "", "", err
	}
	newest := runs[len(runs)-1]
	var same []Labelled
	for _, r := range runs[:len(runs)-1] {
		if SameWorkload(r.Result.Workload, newest.Result.Workload) {
			same = append(same, r)
		}
	}
	if len(same) < n {
		return "", "", fmt.Errorf("%s: the newest result %s (workload %q) has %d earlier result(s) of the same workload, not %d",
			dir, newest.Label, newest.Result.Workload.Name, len(same), n)
	}
	return same[len(same)-n].Label, newest.Label, nil
}

// LoadRuns loads the results a folder holds, oldest first by start time,
// each labelled with its path; files that are not results are passed
// over, as in PickHistory. A folder without a result is an error.
func LoadRuns(dir string) ([]Labelled, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var runs []Labelled
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue
		}
		r, err := results.Load(p)
		if err != nil {
			continue
		}
		runs = append(runs, Labelled{Label: p, Result: r})
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s holds no result", dir)
	}
	return byStart(runs), nil
}

// PickRuns is history as compare's runs: the newest result of a folder,
// and up to most of the results before it of the same workload (the
// latest of them), so that one new run is held against the base's own
// run-to-run spread. It is an error when the newest has no earlier
// result of its workload.
func PickRuns(dir string, most int) (base []Labelled, nw Labelled, err error) {
	runs, err := LoadRuns(dir)
	if err != nil {
		return nil, Labelled{}, err
	}
	nw = runs[len(runs)-1]
	for _, r := range runs[:len(runs)-1] {
		if SameWorkload(r.Result.Workload, nw.Result.Workload) {
			base = append(base, r)
		}
	}
	if len(base) == 0 {
		return nil, Labelled{}, fmt.Errorf("%s: the newest result %s (workload %q) has no earlier result of the same workload",
			dir, nw.Label, nw.Result.Workload.Name)
	}
	if most > 0 && len(base) > most {
		base = base[len(base)-most:]
	}
	return base, nw, nil
}
