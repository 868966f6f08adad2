package stats

import (
	"cmp"
	"container/heap"
	"encoding/hex"
	"slices"
	"time"
)

// A class keeps its slowest reads by name, and the slowest of the reads
// that broke a bound (cut by the read timeout or the turn's deadline, or
// slower than the run's latency bound: ReadSample.Broke), each with the
// trace id it carried, so that a failed gate leads straight to the
// server's traces of the reads that failed it (docs/measurement.md, trace
// context). Both are bounded: a run of a million timeouts keeps
// BrokeKept of them and counts the rest. Keeping costs one comparison
// per read under the recorder's lock once a heap is full.

// SlowestKept is how many slowest reads a class keeps; BrokeKept, how
// many of the reads that broke a bound.
const (
	SlowestKept = 10
	BrokeKept   = 100
)

// SlowRead is one read kept by name, as the recorder keeps it and as the
// result file saves it (docs/results.md, slow_reads): one type, so a
// kept read reaches the report without a copy.
type SlowRead struct {
	// TraceID is the W3C trace id the read carried, in lowercase hex ("":
	// its turn was not sampled, load.trace_sample, or it never reached
	// the server); SpanID its own span id, the parent id of the server's
	// span for it, which tells apart the reads of one turn (one trace).
	TraceID    string       `json:"trace_id"`
	SpanID     string       `json:"span_id"`
	URI        string       `json:"uri"`
	Intended   time.Time    `json:"intended"` // its turn's intended start, in UTC
	Latency    Milliseconds `json:"latency_ms"`
	Outcome    Outcome      `json:"outcome"`
	LowerBound bool         `json:"lower_bound"` // cut: Latency is when it was cut
	// Unreached is a read that failed before its request reached the
	// server (refused, or the connection failed before a byte of it was
	// written): no server received its trace context, so it names none
	// (TraceID and SpanID ""), rather than a trace that exists nowhere.
	Unreached bool `json:"unreached"`
}

// Traced says whether r names a trace the server received: a read of a
// sampled turn that reached it. The reads a reader can open.
func (r SlowRead) Traced() bool { return r.TraceID != "" }

// SlowReads is a class's kept reads: its slowest, and the slowest of
// those that broke a bound, BrokeSeen counting every one that did.
type SlowReads struct {
	Slowest   []SlowRead `json:"slowest"` // slowest first once Sorted
	Broke     []SlowRead `json:"broke_bound"`
	BrokeSeen int64      `json:"broke_bound_seen"`
}

// keep offers a read to both lists.
func (k *SlowReads) keep(s *ReadSample) {
	if !s.Sent {
		return // dropped: never sent, no trace reached the server
	}
	if len(k.Slowest) == SlowestKept && Milliseconds(s.Latency) <= k.Slowest[0].Latency && !s.Broke {
		return // the common case: one comparison
	}
	r := SlowRead{URI: s.URI, Intended: s.Intended.UTC(), Latency: Milliseconds(s.Latency),
		Outcome: s.Outcome, LowerBound: s.LowerBound, Unreached: s.Unreached}
	if s.Trace != ([16]byte{}) && !s.Unreached {
		r.TraceID, r.SpanID = hex.EncodeToString(s.Trace[:]), hex.EncodeToString(s.Span[:])
	}
	offer(&k.Slowest, SlowestKept, r)
	if s.Broke {
		k.BrokeSeen++
		offer(&k.Broke, BrokeKept, r)
	}
}

// offer keeps r among the n slowest of *h, a min-heap by latency.
func offer(h *[]SlowRead, n int, r SlowRead) {
	sh := (*slowHeap)(h)
	switch {
	case len(*h) < n:
		heap.Push(sh, r)
	case r.Latency > (*h)[0].Latency:
		(*h)[0] = r
		heap.Fix(sh, 0)
	}
}

// Merge adds o's kept reads to k's (shards of one run, runs merged): the
// slowest of both, as if one recorder had seen every read.
func (k *SlowReads) Merge(o SlowReads) {
	heap.Init((*slowHeap)(&k.Slowest)) // k may be Sorted: slowest first is no min-heap
	heap.Init((*slowHeap)(&k.Broke))
	for _, r := range o.Slowest {
		offer(&k.Slowest, SlowestKept, r)
	}
	for _, r := range o.Broke {
		offer(&k.Broke, BrokeKept, r)
	}
	k.BrokeSeen += o.BrokeSeen
}

// Sorted returns k with both lists slowest first (ties by intended start),
// the order the result keeps, sharing nothing with k; an empty list is
// empty, never nil (the result writes [], not null).
func (k SlowReads) Sorted() SlowReads {
	k.Slowest, k.Broke = append([]SlowRead{}, k.Slowest...), append([]SlowRead{}, k.Broke...)
	slices.SortFunc(k.Slowest, SlowerFirst)
	slices.SortFunc(k.Broke, SlowerFirst)
	return k
}

// SlowerFirst orders slow reads as the result keeps them, slowest first,
// ties by intended start: the one order of every list of slow reads (the
// result's, the report's, compare's sides).
func SlowerFirst(a, b SlowRead) int {
	if c := cmp.Compare(b.Latency, a.Latency); c != 0 {
		return c
	}
	return a.Intended.Compare(b.Intended)
}

type slowHeap []SlowRead

func (h slowHeap) Len() int           { return len(h) }
func (h slowHeap) Less(i, j int) bool { return h[i].Latency < h[j].Latency }
func (h slowHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *slowHeap) Push(x any)        { *h = append(*h, x.(SlowRead)) }
func (h *slowHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
