package workload

import (
	"fmt"
	"slices"

	"github.com/readbench/readbench/internal/suggest"
)

// KeepClasses keeps only the named classes of the mix, in their order, with
// their weights (run --class): one mode of a comparison per process, so
// that each process's own cost (its peak memory) is that mode's alone. The
// seed still decides the sequence. An unknown name is an error naming the
// classes there are.
func (w *Workload) KeepClasses(names []string) error {
	if len(names) == 0 {
		return nil
	}
	var all []string
	for _, c := range w.Mix {
		all = append(all, c.Name)
	}
	for _, n := range names {
		if !slices.Contains(all, n) {
			return fmt.Errorf("--class %q: the workload has no such class%s (it has %v)", n, suggest.DidYouMean(n, all), all)
		}
	}
	w.Mix = slices.DeleteFunc(slices.Clone(w.Mix), func(c Class) bool { return !slices.Contains(names, c.Name) })
	return nil
}

// ClassNames are the names of the mix's classes, in mix order: what a
// bound naming a class is checked against.
func (w *Workload) ClassNames() []string {
	names := make([]string, 0, len(w.Mix))
	for _, c := range w.Mix {
		names = append(names, c.Name)
	}
	return names
}
