package results

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PickHistory finds the results to compare in a folder of past runs
// (runs/ by default): the newest result by start time, and the nth before
// it that ran the same workload (SameWorkload), so that "compare with the
// last release" is one command. Files that are not results (server logs,
// check documents, damaged files) are passed over.
func PickHistory(dir string, n int) (base, nw string, err error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return "", "", fmt.Errorf("results: %w", err)
	}
	type run struct {
		path string
		r    *Result
	}
	var runs []run
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			continue
		}
		r, err := Load(p)
		if err != nil {
			continue
		}
		runs = append(runs, run{p, r})
	}
	if len(runs) == 0 {
		return "", "", fmt.Errorf("%s holds no result", dir)
	}
	slices.SortStableFunc(runs, func(a, b run) int {
		if c := a.r.Started.Compare(b.r.Started.Time); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	newest := runs[len(runs)-1]
	var same []run
	for _, r := range runs[:len(runs)-1] {
		if SameWorkload(r.r.Workload, newest.r.Workload) {
			same = append(same, r)
		}
	}
	if len(same) < n {
		return "", "", fmt.Errorf("%s: the newest result %s (workload %q) has %d earlier result(s) of the same workload, not %d",
			dir, newest.path, newest.r.Workload.Name, len(same), n)
	}
	return same[len(same)-n].path, newest.path, nil
}
