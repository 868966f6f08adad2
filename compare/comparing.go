package compare

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// DefaultNoiseFloor is compare's noise floor: a latency or rate change
// under 10% is never called significant. Two runs of one server on a
// shared or virtual machine commonly differ by 5-10% at the median, more
// than their sampling error: a within-run test cannot see that, so the
// floor stands for it (docs/measurement.md; --noise-floor lowers it on a
// quiet, dedicated generator).
const DefaultNoiseFloor = 0.10

// PairOptions say how to compare: the labels of the two sides (the
// files as given), whether to compare different workloads anyway, and the
// noise floor (DefaultNoiseFloor when negative).
type PairOptions struct {
	BaseLabel, NewLabel string
	Force               bool
	NoiseFloor          float64
}

// Pair computes the comparison of nw against base. Results of
// different workloads are refused with a *MismatchError unless o.Force.
func Pair(base, nw *results.Result, o PairOptions) (*Comparison, error) {
	diffs := workloadDifferences(base.Workload, nw.Workload)
	if len(diffs) > 0 && !o.Force {
		return nil, &MismatchError{Differences: diffs}
	}
	floor := o.NoiseFloor
	if floor < 0 {
		floor = DefaultNoiseFloor
	}
	c := &Comparison{
		Base: sideOf(base, o.BaseLabel), New: sideOf(nw, o.NewLabel),
		Method: MethodPair, Alpha: 0.01,
		Test:        fmt.Sprintf("within one run: a change is significant when its 99%% interval excludes zero and it is at least %.0f%% (latency, rates); ~ within the noise", 100*floor),
		Differences: append([]string{}, diffs...), Forced: len(diffs) > 0,
		Notes: notes(base, nw), NoiseFloor: floor,
		Bounds: []BoundCheck{},
	}
	for _, b := range []struct {
		name string
		a, b stats.Latency
	}{{"read", base.Read, nw.Read}, {"read_ok", base.ReadOK, nw.ReadOK}, {"turn", base.Turn, nw.Turn},
		{"service", base.Service, nw.Service}, {"ttfb", base.TTFB, nw.TTFB}, {"lag", base.Lag, nw.Lag},
		{"handshake", base.Handshake, nw.Handshake}, {"first_read", base.FirstRead, nw.FirstRead}} {
		c.Latency = append(c.Latency, LatencyDelta{Block: b.name, BaseCount: b.a.Count, NewCount: b.b.Count,
			Deltas: latencyDeltas(b.name+".", b.a, b.b, noiseOf(b.name, base, nw, floor))})
	}
	c.Latency = append(c.Latency, authLatencyDeltas(base, nw, floor)...)
	c.Classes = classDeltas(base, nw, noiseOf("read", base, nw, floor))
	c.TurnSizes = turnSizeDeltas(base, nw, noiseOf("turn", base, nw, floor))
	c.Rates = rateDeltas(base.Totals, nw.Totals, floor)
	c.Outcomes = outcomeDeltas("", base.Totals.Outcomes, nw.Totals.Outcomes, base.Totals.Scheduled, nw.Totals.Scheduled, true)
	c.Inflation = []Delta{}
	if infl, ok := figureDelta("inflation", "inflation", "x", base.Totals.Inflation, nw.Totals.Inflation); ok {
		untested(&infl, "a ratio of byte counts: no test")
		c.Inflation = append(c.Inflation, infl)
	}
	c.ServerCost, c.ColdStart = costDeltas(base.ServerCost, nw.ServerCost)
	c.Subscriptions = subscriptionDeltas(base, nw, floor)
	c.Content = compareContent(base.Digests, nw.Digests)
	return c, nil
}

// newDelta makes the delta of one figure, its change computed.
func newDelta(metric, label, unit string, a, b float64) Delta {
	d := Delta{Metric: metric, Label: label, Unit: unit, Base: a, New: b, Change: b - a}
	if a != 0 {
		r := (b - a) / a
		d.Relative, d.RelativeOK = &r, true
	}
	return d
}

// figureDelta is the delta of a figure that may have no value (JSON
// null); ok is false when either side has none: there is no change to
// state, and a 0 in its place would be one. Bounds on such a metric are
// then held to the results, which say it was not measured.
func figureDelta(metric, label, unit string, a, b *float64) (Delta, bool) {
	if a == nil || b == nil {
		return Delta{}, false
	}
	return newDelta(metric, label, unit, *a, *b), true
}

func sideOf(r *results.Result, label string) Side {
	return Side{Label: label, Runs: []string{label}, Workload: r.Workload.Name, Server: r.Target.Server, ProtocolVersion: r.Target.ProtocolVersion,
		Transport: r.Target.Transport, Address: r.Target.Address, Started: r.Started, Tool: r.Tool,
		MeasuredS: r.Totals.MeasuredS, Scheduled: r.Totals.Scheduled, Partial: r.Partial, GeneratorBound: r.GeneratorBound,
		Slowest: sideSlowest([]Labelled{{Label: label, Result: r}})}
}

// latencyDeltas compares two latency blocks, a delta for each stat of
// stats.LatencyStats in its order; prefix makes the metric names ("read.",
// "class.png.read.", "turn_size.4.").
func latencyDeltas(prefix string, a, b stats.Latency, n noise) []Delta {
	all := stats.LatencyStats()
	out := make([]Delta, 0, len(all))
	for _, s := range all {
		d := newDelta(prefix+s.Name, s.Name, "ms", s.Ms(a), s.Ms(b))
		testLatency(&d, a, b, s.Name, n)
		out = append(out, d)
	}
	return out
}

func classDeltas(base, nw *results.Result, n noise) []ClassDelta {
	var out []ClassDelta
	find := func(r *results.Result, name string) *results.Class {
		for i := range r.Classes {
			if r.Classes[i].Class == name {
				return &r.Classes[i]
			}
		}
		return nil
	}
	seen := map[string]bool{}
	for _, r := range []*results.Result{base, nw} {
		for _, cl := range r.Classes {
			if seen[cl.Class] {
				continue
			}
			seen[cl.Class] = true
			a, b := find(base, cl.Class), find(nw, cl.Class)
			cd := ClassDelta{Class: cl.Class, InBase: a != nil, InNew: b != nil, Read: []Delta{}, Outcomes: []Delta{}}
			if a != nil {
				cd.BaseReads = a.Reads
			}
			if b != nil {
				cd.NewReads = b.Reads
			}
			if a != nil && b != nil {
				p := "class." + cl.Class + "."
				cd.Read = latencyDeltas(p+"read.", a.Latency, b.Latency, n)
				if e, ok := figureDelta(p+"errors", "errors", "%", results.PctOf(a.Errors, a.Reads), results.PctOf(b.Errors, b.Reads)); ok {
					cd.Errors = e // else the zero Delta: a side had no reads, no share to compare
					testShare(&cd.Errors, a.Errors, a.Reads, b.Errors, b.Reads)
				}
				cd.Outcomes = outcomeDeltas(p, a.Outcomes, b.Outcomes, a.Reads, b.Reads, false)
				if infl, ok := figureDelta(p+"inflation", "inflation", "x", a.Inflation, b.Inflation); ok {
					cd.Inflation = infl // else the zero Delta: no metric, no row
					untested(&cd.Inflation, "a ratio of byte counts: no test")
				}
			}
			out = append(out, cd)
		}
	}
	return out
}

func turnSizeDeltas(base, nw *results.Result, n noise) []TurnSizeDelta {
	sizes := map[int][2]*stats.Latency{}
	for i, r := range []*results.Result{base, nw} {
		for j := range r.TurnSizes {
			ts := &r.TurnSizes[j]
			s := sizes[ts.Attachments]
			s[i] = &ts.Latency
			sizes[ts.Attachments] = s
		}
	}
	out := []TurnSizeDelta{}
	for size, s := range sizes {
		td := TurnSizeDelta{Attachments: size, InBase: s[0] != nil, InNew: s[1] != nil, Turn: []Delta{}}
		if td.InBase && td.InNew {
			td.Turn = latencyDeltas(fmt.Sprintf("turn_size.%d.", size), *s[0], *s[1], n)
		}
		out = append(out, td)
	}
	slices.SortFunc(out, func(a, b TurnSizeDelta) int { return cmp.Compare(a.Attachments, b.Attachments) })
	return out
}

func rateDeltas(a, b results.Totals, floor float64) []Delta {
	asked := newDelta("asked_rate", "asked turns/s", "/s", a.AskedRate, b.AskedRate)
	untested(&asked, "asked, not measured")
	out := []Delta{asked}
	if rate, ok := figureDelta("rate", "achieved turns/s", "/s", a.AchievedRate, b.AchievedRate); ok {
		testRate(&rate, rate.Base*a.MeasuredS, rate.New*b.MeasuredS, a.MeasuredS, b.MeasuredS, floor)
		out = append(out, rate)
	}
	if reads, ok := figureDelta("read_rate", "reads/s", "/s", a.ReadsPerS, b.ReadsPerS); ok {
		testRate(&reads, reads.Base*a.MeasuredS, reads.New*b.MeasuredS, a.MeasuredS, b.MeasuredS, floor)
		out = append(out, reads)
	}
	return out
}

// outcomeDeltas compares the share of each outcome (in % of n reads), with
// errors first; all keeps outcomes neither side saw. A side with no reads
// has no shares: no deltas, rather than a change from or to a 0 that was
// never measured (a bound on one is then held to the results, which say
// so).
func outcomeDeltas(prefix string, a, b map[string]int64, na, nb int64, all bool) []Delta {
	var errA, errB int64
	out := []Delta{}
	if na <= 0 || nb <= 0 {
		return out
	}
	for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
		name := o.String()
		if o.IsError() {
			errA += a[name]
			errB += b[name]
		}
		if !all && a[name] == 0 && b[name] == 0 {
			continue
		}
		d := newDelta(prefix+"outcome."+name, name, "%", pct(a[name], na), pct(b[name], nb))
		testShare(&d, a[name], na, b[name], nb)
		out = append(out, d)
	}
	if prefix != "" { // a class's errors are its own field
		return out
	}
	e := newDelta("errors", "errors", "%", pct(errA, na), pct(errB, nb))
	testShare(&e, errA, na, errB, nb)
	return append([]Delta{e}, out...)
}

func costDeltas(a, b results.ServerCost) (cost, cold []Delta) {
	cost, cold = []Delta{}, []Delta{}
	if a.Available && b.Available {
		ds := []Delta{}
		if d, ok := figureDelta("server_cost.cpu_per_1000_reads", "CPU per 1,000 reads", "ms", a.CPUMsPer1000Reads, b.CPUMsPer1000Reads); ok {
			ds = append(ds, d)
		}
		for _, d := range append(ds,
			newDelta("server_cost.rss_peak", "peak RSS", "MiB", a.RSS.PeakMiB, b.RSS.PeakMiB),
			newDelta("server_cost.rss_growth", "RSS growth", "MiB", a.RSS.GrowthMiB, b.RSS.GrowthMiB),
		) {
			untested(&d, "one measurement per run: no test")
			cost = append(cost, d)
		}
	}
	if a.Available && b.Available && a.ColdStart.Available && b.ColdStart.Available {
		for _, d := range []Delta{
			newDelta("cold_start.spawn", "spawn to first answer", "ms", a.ColdStart.SpawnToFirstAnswerMs, b.ColdStart.SpawnToFirstAnswerMs),
			newDelta("cold_start.handshake", "handshake", "ms", a.ColdStart.HandshakeMs, b.ColdStart.HandshakeMs),
		} {
			untested(&d, "one measurement per run: no test")
			cold = append(cold, d)
		}
		if d, ok := figureDelta("cold_start.first_read", "first read", "ms", a.ColdStart.FirstReadMs, b.ColdStart.FirstReadMs); ok {
			untested(&d, "one measurement per run: no test")
			cold = append(cold, d)
		}
	}
	return cost, cold
}

// pct is n of total in %, over a total known to be positive.
func pct(n, total int64) float64 { return 100 * float64(n) / float64(total) }
