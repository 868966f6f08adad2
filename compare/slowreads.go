package compare

import (
	"slices"

	"github.com/readbench/readbench/stats"
)

// SideSlowest is how many of a side's slowest reads a comparison names:
// enough that a failed gate points at reads to open in the server's
// tracing, few enough for every view to list them.
const SideSlowest = 5

// SlowRead is one of a side's slowest reads, with the run and the class
// it came from: a side of several runs names the slowest of all of them.
type SlowRead struct {
	Run   string `json:"run"`
	Class string `json:"class"`
	stats.SlowRead
}

// sideSlowest is the SideSlowest slowest reads of the runs, of every
// class, slowest first (ties by intended start, then run order); empty
// for results written before readbench kept reads by name.
func sideSlowest(runs []Labelled) []SlowRead {
	out := []SlowRead{}
	for _, run := range runs {
		for _, c := range run.Result.Classes {
			if c.SlowReads == nil {
				continue
			}
			for _, r := range c.SlowReads.Slowest {
				out = append(out, SlowRead{Run: run.Label, Class: c.Class, SlowRead: r})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b SlowRead) int { return stats.SlowerFirst(a.SlowRead, b.SlowRead) })
	return out[:min(len(out), SideSlowest)]
}
