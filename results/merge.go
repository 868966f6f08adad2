package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// MergeInput is one shard to merge: its result and the name it was read
// from (for messages and the shards list).
type MergeInput struct {
	Name   string
	Result *Result
}

// Merge adds the n shards of one run (--segment k/n, 1 ≤ k ≤ n) into the
// result one process running the whole workload would have written:
// counters add, every histogram merges exactly (HDR buckets add, so
// percentiles are those of the whole run within 3 significant digits),
// timelines add second by second on the wall clock (each shard's seconds
// placed by its start), rates divide by the span from the first shard's
// measured start to the last one's end, and the advice is priced again on
// the merged histograms (with the caveat of the most contended shard's
// CPU pressure, if any). Each shard's server cost, host and times are
// listed under shards; the top-level server_cost is not summed (several
// shards may have sampled the same server).
//
// It refuses, with a message naming the files, anything that is not
// exactly the n shares of one run: a whole run, shards of different n, a
// segment given twice or missing, different workloads, targets, servers
// or readbench versions, and shards that did not run at the same time.
func Merge(in []MergeInput) (*Result, error) {
	if err := checkShards(in); err != nil {
		return nil, err
	}
	in = slices.Clone(in)
	slices.SortFunc(in, func(a, b MergeInput) int { return a.Result.Segment.K - b.Result.Segment.K })
	first := in[0].Result
	origin := first.Started.Time
	mStart, mEnd := time.Time{}, time.Time{}
	var measured, warmup *stats.Phase
	var phases []*stats.Phase
	m := Meta{
		ToolName: first.Tool.Name, ToolVersion: first.Tool.Version,
		Target: first.Target, LateObservable: first.Cancellation.Observable,
	}
	for _, s := range in {
		r := s.Result
		origin = minTime(origin, r.Started.Time)
		start := r.Started.Add(first.Workload.Load.Warmup)
		end := start.Add(time.Duration(r.Totals.MeasuredS * float64(time.Second)))
		if mStart.IsZero() || start.Before(mStart) {
			mStart = start
		}
		if end.After(mEnd) {
			mEnd = end
		}
	}
	cpuKnown := true
	var sessions []Sessions
	var conns []*Connections
	for _, s := range in {
		sessions = append(sessions, s.Result.Sessions)
		conns = append(conns, s.Result.Connections)
		m.Strays.Add(s.Result.Strays)
	}
	m.Sessions, m.Connections = mergeSessions(sessions), mergeConnections(conns)
	for _, s := range in {
		r := s.Result
		meas, wu, err := runsOf(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		tl, err := timelineRun(r, origin)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		phases = append(phases, tl)
		if measured == nil {
			measured, warmup = meas, wu
		} else {
			measured.Merge(meas)
			warmup.Merge(wu)
		}
		m.AskedRate += r.Totals.AskedRate
		// The advice is judged on the most contended shard's machine
		// (advice_contention.go); the merged host keeps no pressure.
		m.CPUPressure = worstPressure(m.CPUPressure, r.Host.CPUPressure)
		// Shards are separate processes: their CPU adds up; the peak is
		// the largest shard's.
		m.GeneratorPeakRSS = max(m.GeneratorPeakRSS, r.Generator.PeakRSSBytes)
		cpuKnown = cpuKnown && r.Generator.CPUAvailable
		m.GeneratorCPU += time.Duration(r.Generator.CPUSeconds * float64(time.Second))
		m.Partial = m.Partial || r.Partial
		m.LateWatch = max(m.LateWatch, time.Duration(r.Cancellation.LateWatchMs*float64(time.Millisecond)))
		if m.Ended.Before(r.Ended.Time) {
			m.Ended = r.Ended.Time
		}
	}
	if !cpuKnown {
		m.GeneratorCPU = 0 // unknown for one shard: unknown for the run
	}
	m.Started, m.Measured = origin, max(mEnd.Sub(mStart), 0)
	m.AuthLost, m.AuthClient = mergedLost(in), mergedClient(in)
	listening, err := mergedListening(in, origin)
	if err != nil {
		return nil, err
	}
	m.Listening = listening
	out, err := build(m, first.Workload, measured, warmup, phases)
	if err != nil {
		return nil, err
	}
	out.Target = first.Target
	out.Host = mergedHost(in)
	out.ServerCost = ServerCost{Reason: fmt.Sprintf("merged from %d shards: each shard's server cost is under shards (not summed: shards may have sampled the same server)", len(in))}
	for _, s := range in {
		r := s.Result
		out.GeneratorBound = out.GeneratorBound || r.GeneratorBound
		for uri, d := range r.Digests {
			if _, ok := out.Digests[uri]; !ok {
				out.Digests[uri] = d
			}
		}
		out.Shards = append(out.Shards, Shard{
			Segment: r.Segment, File: s.Name, Host: r.Host, Started: r.Started, Ended: r.Ended, Partial: r.Partial,
			GeneratorBound: r.GeneratorBound, Scheduled: r.Totals.Scheduled,
			AskedRate: r.Totals.AskedRate, AchievedRate: r.Totals.AchievedRate, ServerCost: r.ServerCost,
		})
	}
	return out, nil
}

// checkShards refuses inputs that are not exactly the n shards of one run.
func checkShards(in []MergeInput) error {
	if len(in) == 0 {
		return fmt.Errorf("merge: no shards given")
	}
	first := in[0]
	n := first.Result.Segment.N
	seen := map[int]string{}
	for _, s := range in {
		seg := s.Result.Segment
		switch {
		case seg.N <= 1:
			return fmt.Errorf("merge: %s is a whole run (segment 1/1), not a shard of one: only results of readbench run --segment k/n merge", s.Name)
		case seg.N != n:
			return fmt.Errorf("merge: %s is segment %d/%d but %s is %d/%d: shards of different splits", s.Name, seg.K, seg.N, first.Name, first.Result.Segment.K, n)
		case seg.K < 1 || seg.K > n:
			return fmt.Errorf("merge: %s: segment %d/%d is out of range", s.Name, seg.K, seg.N)
		}
		if other, dup := seen[seg.K]; dup {
			return fmt.Errorf("merge: %s and %s are both segment %d/%d: a shard given twice (or two runs overlapping)", other, s.Name, seg.K, n)
		}
		seen[seg.K] = s.Name
		if err := sameRun(first, s); err != nil {
			return err
		}
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if _, ok := seen[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("merge: segment %s missing: the whole run needs all %d shards", strings.Join(missing, ", "), n)
	}
	// The shards must have run at the same time: one that ended before
	// another started did not share its load.
	latestStart, earliestEnd := in[0], in[0]
	for _, s := range in {
		if s.Result.Started.After(latestStart.Result.Started.Time) {
			latestStart = s
		}
		if s.Result.Ended.Before(earliestEnd.Result.Ended.Time) {
			earliestEnd = s
		}
	}
	if !latestStart.Result.Started.Before(earliestEnd.Result.Ended.Time) {
		return fmt.Errorf("merge: %s ended (%s) before %s started (%s): shards that did not run at the same time are not one run",
			earliestEnd.Name, earliestEnd.Result.Ended.Format(time.RFC3339), latestStart.Name, latestStart.Result.Started.Format(time.RFC3339))
	}
	return nil
}

// sameRun refuses a shard of another run than first's: another workload
// (named by its first differing key), target, server or readbench.
func sameRun(first, s MergeInput) error {
	a, b := first.Result, s.Result
	if key := firstDifference(a.Workload, b.Workload); key != "" {
		return fmt.Errorf("merge: %s and %s ran different workloads (workload.%s differs): shards of one run share their workload", first.Name, s.Name, key)
	}
	names := func(r *Result) string {
		var n []string
		for _, c := range r.Classes {
			n = append(n, c.Class)
		}
		return strings.Join(n, ", ")
	}
	checks := []struct{ what, x, y string }{
		{"classes", names(a), names(b)},
		{"readbench version", a.Tool.Name + " " + a.Tool.Version, b.Tool.Name + " " + b.Tool.Version},
		{"target", a.Target.Address, b.Target.Address},
		{"server", a.Target.Server.Name + " " + a.Target.Server.Version, b.Target.Server.Name + " " + b.Target.Server.Version},
		{"protocol version", a.Target.ProtocolVersion, b.Target.ProtocolVersion},
	}
	for _, c := range checks {
		if c.x != c.y {
			return fmt.Errorf("merge: %s and %s differ in %s (%q, %q): shards of one run share it", first.Name, s.Name, c.what, c.x, c.y)
		}
	}
	return nil
}

// firstDifference names the first top-level key of the resolved workload
// whose value differs ("" when equal).
func firstDifference(a, b workload.Workload) string {
	var ma, mb map[string]json.RawMessage
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	for _, k := range slices.Sorted(maps.Keys(ma)) {
		if !bytes.Equal(ma[k], mb[k]) {
			return k
		}
	}
	return ""
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// mergedHost describes the machines of the shards: their names joined,
// the CPUs of each distinct machine summed (shards sharing a host share
// its CPUs), the first one's system.
func mergedHost(in []MergeInput) Host {
	h := in[0].Result.Host
	h.CPUs = 0
	var names []string
	for _, s := range in {
		n := s.Result.Host.Hostname
		if n != "" && slices.Contains(names, n) {
			continue
		}
		h.CPUs += s.Result.Host.CPUs
		if n != "" {
			names = append(names, n)
		}
	}
	h.Hostname = strings.Join(names, ",")
	h.CPUPressure = nil // a figure of one machine: the shards' are kept per shard
	return h
}

// worstPressure is the higher of two CPU pressures, either unknown (nil).
func worstPressure(a, b *float64) *float64 {
	if a == nil || (b != nil && *b > *a) {
		return b
	}
	return a
}
