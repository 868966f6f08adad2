package stats

import (
	"maps"
	"slices"
)

// Merge adds o into r: counters add, histograms merge exactly (HDR
// buckets add), per class by position — the shards of one run share their
// classes. The timeline is not merged here: its seconds are aligned by
// wall clock, which only the caller knows (MergeTimelines adds them once
// placed). Merging the shards of a run (--segment) this way gives the
// figures one process would have recorded, percentiles within the
// histograms' precision (3 significant digits).
func (r *Phase) Merge(o *Phase) {
	r.Scheduled += o.Scheduled
	r.Turns += o.Turns
	r.Outcomes.Add(&o.Outcomes)
	for i := range r.TurnEnds {
		r.TurnEnds[i] += o.TurnEnds[i]
	}
	for _, p := range []struct{ dst, src *Histogram }{
		{r.Read, o.Read}, {r.ReadOK, o.ReadOK}, {r.Service, o.Service}, {r.ServiceOK, o.ServiceOK}, {r.TTFB, o.TTFB},
		{r.Lag, o.Lag}, {r.Turn, o.Turn}, {r.Cancel.CancelToLate, o.Cancel.CancelToLate}, {r.Cancel.Allowances, o.Cancel.Allowances},
		{r.Handshake, o.Handshake}, {r.FirstRead, o.FirstRead},
	} {
		if p.dst != nil && p.src != nil {
			p.dst.Merge(p.src)
		}
	}
	r.ReadLowerBounds += o.ReadLowerBounds
	r.TurnLowerBounds += o.TurnLowerBounds
	for _, n := range sortedKeys(o.TurnBySize) {
		h, ok := r.TurnBySize[n]
		if !ok {
			h = NewHistogram()
			r.TurnBySize[n] = h
		}
		h.Merge(o.TurnBySize[n])
	}
	for i, c := range o.Classes {
		if i < len(r.Classes) && c != nil {
			r.Classes[i].merge(c)
		}
	}
	r.Cancel.Cancelled += o.Cancel.Cancelled
	r.Cancel.LateAnswers += o.Cancel.LateAnswers
	r.Cancel.WastedBytes += o.Cancel.WastedBytes
	r.Cancel.Ignored += o.Cancel.Ignored
	r.Cancel.IgnoredBytes += o.Cancel.IgnoredBytes
	r.Cancel.Allowance = max(r.Cancel.Allowance, o.Cancel.Allowance)
	r.Shape.Add(o.Shape)
	r.ByteCounts.Add(o.ByteCounts)
	r.OK.Add(o.OK)
	r.TimelineBeyond += o.TimelineBeyond
	r.MisusedMethodNotFound += o.MisusedMethodNotFound
	r.Auth = mergeAuth(r.Auth, o.Auth)
}

// merge adds o's figures into c.
func (c *ClassStats) merge(o *ClassStats) {
	c.Outcomes.Add(&o.Outcomes)
	c.Latency.Merge(o.Latency)
	c.LatencyLowerBounds += o.LatencyLowerBounds
	c.ByteCounts.Add(o.ByteCounts)
	c.OK.Add(o.OK)
	c.Cache.merge(o.Cache)
	c.Slow.Merge(o.Slow)
}

// merge adds o's hints into h: the TTL range is the union of the two
// (a side without hinted answers has no range).
func (h *CacheHints) merge(o CacheHints) {
	if o.Hinted > 0 {
		if h.Hinted == 0 || o.MinTTL < h.MinTTL {
			h.MinTTL = o.MinTTL
		}
		h.MaxTTL = max(h.MaxTTL, o.MaxTTL)
	}
	h.Hinted += o.Hinted
	h.Public += o.Public
	h.Private += o.Private
	h.WouldNotSend += o.WouldNotSend
}

// sortedKeys returns m's keys in increasing order, so merging is
// deterministic.
func sortedKeys(m map[int]*Histogram) []int { return slices.Sorted(maps.Keys(m)) }
