package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// workloadDifferences lists how two resolved workloads differ in what they
// ask of a server: name, mix, turn and load (rate, model, arrival, stages,
// cap). The length (duration, turns, warmup), the seed, the sessions and
// the target may differ: they change how much was measured or where, not
// what (notes lists them).
func workloadDifferences(a, b workload.Workload) []string {
	var out []string
	diff := func(what string, x, y any) {
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		if string(jx) != string(jy) {
			out = append(out, fmt.Sprintf("%s: %s vs %s", what, jx, jy))
		}
	}
	diff("name", a.Name, b.Name)
	// The load's keys as a result saves them, so that a difference reads
	// as the two documents say it ("50/s" vs "", not a struct).
	la, lb := savedKeys(a.Load), savedKeys(b.Load)
	for _, key := range []string{"model", "rate", "concurrency", "arrival", "stages", "max_in_flight", "keep_alive"} {
		if !bytes.Equal(la[key], lb[key]) {
			out = append(out, fmt.Sprintf("load.%s: %s vs %s", key, la[key], lb[key]))
		}
	}
	diff("turn", a.Turn, b.Turn)
	byName := func(w workload.Workload) map[string]workload.Class {
		m := map[string]workload.Class{}
		for _, c := range w.Mix {
			m[c.Name] = c
		}
		return m
	}
	ma, mb := byName(a), byName(b)
	var names []string
	for n := range ma {
		names = append(names, n)
	}
	for n := range mb {
		if _, ok := ma[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		ca, inA := ma[n]
		cb, inB := mb[n]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("mix: class %q only in the new workload", n))
		case !inB:
			out = append(out, fmt.Sprintf("mix: class %q only in the base workload", n))
		default:
			diff(fmt.Sprintf("mix[%s]", n), ca, cb)
		}
	}
	return out
}

// savedKeys is the keys of v's saved form (a workload's load block) and
// their values as a result writes them.
func savedKeys(v any) map[string]json.RawMessage {
	var keys map[string]json.RawMessage
	b, _ := json.Marshal(v)
	_ = json.Unmarshal(b, &keys)
	return keys
}

// notes lists what qualifies a comparison without refusing it.
func notes(a, b *results.Result) []string {
	var out []string
	note := func(what string, x, y any) {
		if fmt.Sprint(x) != fmt.Sprint(y) {
			out = append(out, fmt.Sprintf("%s differs: %v vs %v", what, x, y))
		}
	}
	note("load.duration", a.Workload.Load.Duration, b.Workload.Load.Duration)
	note("load.turns", a.Workload.Load.Turns, b.Workload.Load.Turns)
	note("load.warmup", a.Workload.Load.Warmup, b.Workload.Load.Warmup)
	note("seed", a.Workload.Seed, b.Workload.Seed)
	note("sessions", a.Workload.Sessions, b.Workload.Sessions)
	note("transport", a.Target.Transport, b.Target.Transport)
	note("readbench version", a.Tool.Version, b.Tool.Version)
	for _, s := range []struct {
		side string
		r    *results.Result
	}{{"base", a}, {"new", b}} {
		if s.r.Partial {
			out = append(out, "the "+s.side+" run was interrupted: its figures cover part of the run")
		}
		if s.r.GeneratorBound {
			out = append(out, "the "+s.side+" run was generator-bound: the generator, not the server, limited it")
		}
		if lb := s.r.Read.LowerBounds; lb > 0 {
			out = append(out, fmt.Sprintf("%d reads of the %s run were cut (deadline or timeout) and count at the cut: its read percentiles at or above %s are lower bounds",
				lb, s.side, cutQuantile(lb, s.r.Read.Count)))
		}
		if !s.r.Totals.IdentityOK {
			out = append(out, "the "+s.side+" run lost count of reads (identity broken): its figures cannot be trusted")
		}
	}
	if n := listenersNote(a, b); n != "" {
		out = append(out, n)
	}
	return out
}

// compareContent lists the URIs read in both whose content, MIME type or
// size changed, sorted by URI.
func compareContent(a, b map[string]results.Digest) Content {
	c := Content{Changed: []ContentChange{}}
	for uri, da := range a {
		db, ok := b[uri]
		if !ok {
			c.OnlyBase++
			continue
		}
		c.Compared++
		var what []string
		if da.SHA256 != db.SHA256 {
			what = append(what, "bytes")
		}
		if da.MIME != db.MIME {
			what = append(what, "mime")
		}
		if da.Bytes != db.Bytes {
			what = append(what, "size")
		}
		if len(what) > 0 {
			c.Changed = append(c.Changed, ContentChange{URI: uri, What: what, Base: da, New: db})
		}
	}
	for uri := range b {
		if _, ok := a[uri]; !ok {
			c.OnlyNew++
		}
	}
	slices.SortFunc(c.Changed, func(x, y ContentChange) int { return strings.Compare(x.URI, y.URI) })
	return c
}

// SameWorkload reports whether two results ran the same workload in the
// sense Compare requires (name, mix, turn, load): compare's history picks
// the runs to compare with it.
func SameWorkload(a, b workload.Workload) bool { return len(workloadDifferences(a, b)) == 0 }

// cutQuantile names the lowest percentile that cut reads (recorded at
// the cut, the slowest values) can reach: with k of n values lower
// bounds, the percentiles above 100·(1 − k/n).
func cutQuantile(k, n int64) string {
	if n <= 0 {
		return "p0"
	}
	return "p" + strconv.FormatFloat(math.Floor(1000*(1-float64(k)/float64(n)))/10, 'f', -1, 64)
}
