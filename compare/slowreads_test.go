package compare

import (
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestSideSlowest: a side names its SideSlowest slowest reads over every
// run and class, slowest first, each with its run and class; a result
// that kept no reads by name adds none.
func TestSideSlowest(t *testing.T) {
	run := func(label string, ms ...float64) Labelled {
		r := fixture(t, false)
		for i, v := range ms {
			c := &r.Classes[i%2]
			if c.SlowReads == nil {
				c.SlowReads = &stats.SlowReads{}
			}
			c.SlowReads.Slowest = append(c.SlowReads.Slowest, stats.SlowRead{TraceID: label, Latency: stats.Milliseconds(stats.MsDuration(v)), URI: c.Class})
		}
		return Labelled{Label: label, Result: r}
	}
	for _, c := range []struct {
		name string
		runs []Labelled
		want []float64
		from []string // the run of each, then its class
	}{
		{"an older result", []Labelled{{Label: "old", Result: fixture(t, false)}}, nil, nil},
		{"one run, two classes", []Labelled{run("a", 10, 30, 20)}, []float64{30, 20, 10}, []string{"a/screenshot", "a/markdown", "a/markdown"}},
		{"several runs: the slowest of all", []Labelled{run("a", 1, 2, 3, 4), run("b", 9, 8, 7, 6, 5, 0.5), {Label: "old", Result: fixture(t, false)}},
			[]float64{9, 8, 7, 6, 5}, []string{"b/markdown", "b/screenshot", "b/markdown", "b/screenshot", "b/markdown"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := sideSlowest(c.runs)
			if got == nil || len(got) != len(c.want) {
				t.Fatalf("%d reads (%v), want %d, never null", len(got), got, len(c.want))
			}
			for i, r := range got {
				if r.Latency.Ms() != c.want[i] || r.Run+"/"+r.Class != c.from[i] || r.TraceID != r.Run || r.URI != r.Class {
					t.Errorf("read %d: %s/%s %v, want %s %v", i, r.Run, r.Class, r.Latency.Ms(), c.from[i], c.want[i])
				}
			}
		})
	}
	cmp, err := Runs([]Labelled{run("a", 10)}, []Labelled{run("b", 40, 50)}, RunsOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Base.Slowest) != 1 || len(cmp.New.Slowest) != 2 || cmp.New.Slowest[0].Latency.Ms() != 50 {
		t.Errorf("the comparison's sides: base %v, new %v", cmp.Base.Slowest, cmp.New.Slowest)
	}
}
