package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The comparison of several runs per side (docs/compare.md, "The run is
// the unit"). Reads inside one run are not independent: a burst of other
// work on the machine, a slower core, a cache state move the whole run.
// So each run contributes one value of each figure (its p50, its error
// rate), and the two sides' values are tested as two small samples.

// The methods of a comparison (Comparison.Method).
const (
	// MethodRuns: two or more runs on each side, tested with the
	// Mann–Whitney U test and the Hodges–Lehmann interval of the change.
	MethodRuns = "runs"
	// MethodHistory: one run against the spread of five or more on the
	// other side, by their 95% prediction interval.
	MethodHistory = "history"
	// MethodPair: one run per side. The within-run test is shown in each
	// note, but no verdict: one pair cannot separate the server from the
	// machine.
	MethodPair = "pair"
)

const (
	// RunAlpha is the significance level of the tests across runs (5%,
	// as benchstat): each figure tested is a false alarm at most one time
	// in twenty when nothing changed.
	RunAlpha = 0.05
	// MinHistory is the fewest runs one run is held against: with fewer,
	// their spread is too poorly known for the prediction interval to
	// mean much (its t factor is 2.78 at 5, 4.30 at 3).
	MinHistory = 5
)

// Labelled is one result of a side and the label it is shown with (the file).
type Labelled struct {
	Label  string
	Result *results.Result
}

// RunsOptions say how to compare runs: Force compares different
// workloads anyway; NoiseFloor is the smallest relative change of a
// latency or rate called significant (negative: DefaultNoiseFloor for a
// single pair, none across runs, whose test sees the spread itself); Gate
// is kept in the comparison for CheckBounds. Paired says base[i] and
// nw[i] ran in the same round of an experiment (ab): with two
// or more of each, the comparison is MethodPaired at two-sided level
// Alpha (RunAlpha when 0).
type RunsOptions struct {
	Force      bool
	NoiseFloor float64
	Gate       Gate
	Paired     bool
	Alpha      float64
}

// Runs compares the runs of nw against those of base, each side
// one or more results of the same workload (refused with a
// *MismatchError unless o.Force). Every figure is the median of its
// runs' values, and its verdict comes from the method the run counts
// allow (Method*); with one run per side, every change that would be
// tested is Inconclusive. The content, notes and layout come from the
// newest run of each side.
func Runs(base, nw []Labelled, o RunsOptions) (*Comparison, error) {
	if len(base) == 0 || len(nw) == 0 {
		return nil, fmt.Errorf("results: compare: no result on the %s side", map[bool]string{true: "base", false: "new"}[len(base) == 0])
	}
	base, nw = byStart(base), byStart(nw)
	bl, nl := base[len(base)-1], nw[len(nw)-1]
	if !o.Force {
		if err := sameWorkloads(base, nw); err != nil {
			return nil, err
		}
	}
	floor := o.NoiseFloor
	pairFloor := floor
	if floor < 0 {
		floor, pairFloor = 0, DefaultNoiseFloor
	}
	c, err := Pair(bl.Result, nl.Result, PairOptions{BaseLabel: bl.Label, NewLabel: nl.Label, Force: true, NoiseFloor: pairFloor})
	if err != nil {
		return nil, err
	}
	c.Gate = o.Gate
	c.Base, c.New = sideOfRuns(base), sideOfRuns(nw)
	c.Notes = runNotes(base, nw)
	if a := AdviceAcross(nw, "new"); a != "" {
		c.Notes = append(c.Notes, a)
	}
	if a := abRoundsNote(base, nw); a != "" && !o.Paired {
		c.Notes = append(c.Notes, a)
	}
	n, m := len(base), len(nw)
	c.Alpha, c.NoiseFloor = RunAlpha, floor
	judgeFn := func(d *Delta, a, b []float64) { judgeRuns(d, a, b, floor) }
	switch {
	case o.Paired && n == m && n > 1:
		c.Method, c.Alpha = MethodPaired, cmp.Or(o.Alpha, RunAlpha)
		c.Test = pairedTest(n, c.Alpha)
		judgeFn = func(d *Delta, a, b []float64) { judgePaired(d, a, b, c.Alpha, floor) }
	case n == 1 && m == 1:
		c.Method, c.Alpha, c.NoiseFloor = MethodPair, 0.01, pairFloor
		c.Test = pairTest(o.Gate.SingleRun)
		c.eachDelta(func(d *Delta) {
			if d.Noise == Significant || d.Noise == WithinNoise {
				d.Note = "one run per side; within the run: " + string(d.Noise)
				d.Noise = Inconclusive
			}
			d.BaseRuns, d.NewRuns = []float64{d.Base}, []float64{d.New}
		})
		return c, nil
	case n == 1 || m == 1:
		c.Method = MethodHistory
		c.Test = fmt.Sprintf("one run against the spread of %d: a change is significant when the lone run lies outside the others' 95%% prediction interval (log-normal from run to run); ~ within it", max(n, m))
		if max(n, m) < MinHistory {
			c.Test = fmt.Sprintf("one run against %d: ~ need at least %d runs on the other side to judge one run", max(n, m), MinHistory)
		}
	default:
		c.Method = MethodRuns
		c.Test = fmt.Sprintf("%d runs against %d: a change is significant when the Mann-Whitney U test of the runs' values gives p <= %.2f; ~ not different", n, m, RunAlpha)
		if stats.MinP(n, m) > RunAlpha {
			c.Test = fmt.Sprintf("%d runs against %d: ~ need at least %d runs per side for a test at %.0f%%", n, m, stats.MinRuns(RunAlpha), 100*RunAlpha)
		}
	}
	c.eachDelta(func(d *Delta) {
		a, errA := values(base, d.Metric)
		b, errB := values(nw, d.Metric)
		if errA != nil || errB != nil {
			untested(d, "not measured in every run")
			return
		}
		judgeFn(d, a, b)
		d.BaseRuns, d.NewRuns = a, b
	})
	return c, nil
}

// pairTest is the method sentence of a one-run-per-side comparison.
func pairTest(singleRun bool) string {
	s := "one run per side cannot separate the server from the machine (runs of one server differ by more than their reads suggest): no verdict; compare several runs per side, or a folder of history"
	if singleRun {
		return s + "; --single-run: bounds are held to the figures as measured"
	}
	return s + "; bounds are not enforced without --single-run"
}

// judgeRuns sets d from the runs' values a (base) and b (new): the
// medians, the change and its verdict.
func judgeRuns(d *Delta, a, b []float64, floor float64) {
	if settled(d, a, b) {
		return
	}
	n, m := len(a), len(b)
	switch {
	case n == 1 || m == 1:
		lone, many := b, a
		if n == 1 && m > 1 {
			lone, many = a, b
		}
		if len(many) < MinHistory {
			inconclusive(d, fmt.Sprintf("need at least %d runs against one", MinHistory))
			return
		}
		tr, back := scale(append(append([]float64{}, a...), b...))
		pm := make([]float64, len(many))
		for i, v := range many {
			pm[i] = tr(v)
		}
		lo, hi, _ := stats.PredictionInterval95(pm)
		v := lone[0]
		if m == 1 { // the new run alone: Change = v − (a value like the base's)
			judge(d, v-back(hi), v-back(lo), floor)
		} else { // the base run alone: Change = (a value like the new's) − v
			judge(d, back(lo)-v, back(hi)-v, floor)
		}
		if d.Note == "" {
			d.Note = fmt.Sprintf("against the 95%% prediction interval of %d runs", len(many))
		}
	default:
		if stats.MinP(n, m) > RunAlpha {
			inconclusive(d, fmt.Sprintf("need at least %d runs per side", stats.MinRuns(RunAlpha)))
			return
		}
		_, p := stats.UTest(a, b)
		tr, back := scale(append(append([]float64{}, a...), b...))
		ta, tb := make([]float64, n), make([]float64, m)
		for i, v := range a {
			ta[i] = tr(v)
		}
		for i, v := range b {
			tb[i] = tr(v)
		}
		_, lo, hi, ok := stats.ShiftInterval(ta, tb, RunAlpha)
		if !ok {
			lo, hi = 0, 0
		}
		// The interval of the shift, as a change of the base's median.
		d.Low, d.High = back(tr(d.Base)+lo)-d.Base, back(tr(d.Base)+hi)-d.Base
		significance(d, p, RunAlpha, floor, fmt.Sprintf("p = %.3f, U test of %d and %d runs", p, n, m))
	}
}

// settled sets d's medians of a and b and reports whether no test is
// wanted: an asked figure, or every value the same.
func settled(d *Delta, a, b []float64) bool {
	*d = newDelta(d.Metric, d.Label, d.Unit, median(a), median(b))
	switch {
	case d.Metric == "asked_rate":
		untested(d, "asked, not measured")
		return true
	case allEqual(a, b):
		d.Noise = Unchanged
		return true
	}
	return false
}

// significance sets d's verdict from a test's p at level alpha: within
// the noise above it or below the noise floor, else significant, with
// note (the test and its p) unless the floor decided.
func significance(d *Delta, p, alpha, floor float64, note string) {
	switch {
	case p > alpha:
		d.Noise = WithinNoise
	case d.RelativeOK && math.Abs(*d.Relative) < max(floor, resolution):
		d.Noise = WithinNoise
		d.Note = fmt.Sprintf("below the noise floor of %.0f%%", 100*max(floor, resolution))
		return
	default:
		d.Noise = Significant
	}
	d.Note = note
}

// inconclusive marks d as having too few runs for a verdict.
func inconclusive(d *Delta, why string) {
	d.Noise = Inconclusive
	d.Note = why
}

// scale is the scale a figure is tested on: logarithms when every value
// is positive (a latency, a rate: a change is a ratio, and its spread
// grows with it), the values themselves otherwise (a share that may be 0).
func scale(vs []float64) (to, back func(float64) float64) {
	for _, v := range vs {
		if v <= 0 {
			id := func(x float64) float64 { return x }
			return id, id
		}
	}
	return math.Log, math.Exp
}

// values are the runs' values of a metric.
func values(runs []Labelled, metric string) ([]float64, error) {
	m, err := bounds.ParseMetric(metric)
	if err != nil {
		return nil, fmt.Errorf("results: compare: %w", err)
	}
	out := make([]float64, 0, len(runs))
	for _, r := range runs {
		v, err := r.Result.MetricValue(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Label, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// median of vs (not empty), the mean of the middle two for an even count.
func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func allEqual(a, b []float64) bool {
	for _, v := range append(slices.Clone(a), b...) {
		if v != a[0] {
			return false
		}
	}
	return true
}

// byStart orders a side's runs by start time (then label), oldest first.
func byStart(runs []Labelled) []Labelled {
	out := slices.Clone(runs)
	slices.SortStableFunc(out, func(x, y Labelled) int {
		if c := x.Result.Started.Compare(y.Result.Started.Time); c != 0 {
			return c
		}
		if x.Label < y.Label {
			return -1
		}
		if x.Label > y.Label {
			return 1
		}
		return 0
	})
	return out
}

// sameWorkloads refuses runs of different workloads, across the sides or
// within one, naming the first file that differs.
func sameWorkloads(base, nw []Labelled) error {
	ref := base[0]
	for _, r := range append(slices.Clone(base[1:]), nw...) {
		if diffs := workloadDifferences(ref.Result.Workload, r.Result.Workload); len(diffs) > 0 {
			if len(base) > 1 || len(nw) > 1 {
				for i := range diffs {
					diffs[i] = fmt.Sprintf("%s vs %s: %s", ref.Label, r.Label, diffs[i])
				}
			}
			return &MismatchError{Differences: diffs}
		}
	}
	return nil
}

// sideOfRuns is a side of several runs: the newest run's server and
// protocol, the first start, the measured time and reads added up.
func sideOfRuns(runs []Labelled) Side {
	last := runs[len(runs)-1]
	s := sideOf(last.Result, last.Label)
	s.Runs = make([]string, 0, len(runs))
	s.Slowest = sideSlowest(runs)
	if len(runs) > 1 {
		s.Label = fmt.Sprintf("%d runs, %s ... %s", len(runs), runs[0].Label, last.Label)
		s.Started = runs[0].Result.Started
		s.MeasuredS, s.Scheduled = 0, 0
	}
	for _, r := range runs {
		s.Runs = append(s.Runs, r.Label)
		if len(runs) > 1 {
			s.MeasuredS += r.Result.Totals.MeasuredS
			s.Scheduled += r.Result.Totals.Scheduled
			s.Partial = s.Partial || r.Result.Partial
			s.GeneratorBound = s.GeneratorBound || r.Result.GeneratorBound
		}
	}
	return s
}

// runNotes are the notes of every run against the other side's newest,
// each said once.
func runNotes(base, nw []Labelled) []string {
	var out []string
	seen := map[string]bool{}
	add := func(ns []string) {
		for _, n := range ns {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	bl, nl := base[len(base)-1], nw[len(nw)-1]
	add(notes(bl.Result, nl.Result))
	for _, r := range base[:len(base)-1] {
		add(notes(r.Result, nl.Result))
	}
	for _, r := range nw[:len(nw)-1] {
		add(notes(bl.Result, r.Result))
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// eachDelta calls f with every delta of c, in place.
func (c *Comparison) eachDelta(f func(*Delta)) {
	for i := range c.Latency {
		for j := range c.Latency[i].Deltas {
			f(&c.Latency[i].Deltas[j])
		}
	}
	for i := range c.Classes {
		cl := &c.Classes[i]
		for j := range cl.Read {
			f(&cl.Read[j])
		}
		if cl.Errors.Metric != "" {
			f(&cl.Errors)
		}
		for j := range cl.Outcomes {
			f(&cl.Outcomes[j])
		}
		if cl.Inflation.Metric != "" {
			f(&cl.Inflation)
		}
	}
	for i := range c.TurnSizes {
		for j := range c.TurnSizes[i].Turn {
			f(&c.TurnSizes[i].Turn[j])
		}
	}
	for _, ds := range [][]Delta{c.Rates, c.Outcomes, c.Inflation, c.ServerCost, c.ColdStart, c.Subscriptions} {
		for j := range ds {
			f(&ds[j])
		}
	}
}
