package metrics

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// ExemplarLabel is the exemplar label that carries a read's W3C trace id
// (lowercase hex): the name OpenTelemetry's Prometheus exporters use and
// Grafana's exemplar-to-trace links expect by default.
const ExemplarLabel = "trace_id"

// exemplarGap is how long a bucket keeps the exemplar a traced read gave
// it before another traced read may replace it. A scraper or a push sees
// only each bucket's latest exemplar, so building one for every read of a
// busy bucket (eight allocations in client_golang, a lock for a native
// histogram's) would be garbage at tens of thousands of reads a second;
// with the gap a bucket takes at most ten a second, and the rare slow
// buckets, the ones worth a trace, still take the first read that lands
// in them.
const exemplarGap = 100 * time.Millisecond

// histogram is what a HistogramVec's child is: an Observer that also
// takes exemplars.
type histogram interface {
	prometheus.Observer
	prometheus.ExemplarObserver
}

// traced is one latency histogram child: its observations carry the
// read's trace id as an exemplar when the read had one and the bucket
// has not taken one within exemplarGap.
type traced struct {
	h      histogram
	bounds []float64      // the child's classic upper bounds, increasing
	next   []atomic.Int64 // per bucket, +Inf last: when it may take an exemplar again (see exemplars.at); 0: now
}

// newTraced wraps a HistogramVec's child, which client_golang documents
// as safe to assert to an ExemplarObserver.
func newTraced(o prometheus.Observer, bounds []float64) *traced {
	return &traced{h: o.(histogram), bounds: bounds, next: make([]atomic.Int64, len(bounds)+1)}
}

// observe records v, with x's exemplar when the bucket is due one: a
// read without a trace, or in a bucket that took one less than
// exemplarGap ago, costs what Observe costs, plus a bucket search.
func (t *traced) observe(v float64, x *exemplar) {
	if x == nil || !x.traced() {
		t.h.Observe(v)
		return
	}
	slot := &t.next[sort.SearchFloat64s(t.bounds, v)]
	n := slot.Load()
	if (n != 0 && x.at < n) || !slot.CompareAndSwap(n, x.at+int64(exemplarGap)) {
		t.h.Observe(v)
		return
	}
	t.h.ObserveWithExemplar(v, x.labels())
}

// exemplars is what a phase's histograms share to make exemplars: the
// clock their gaps are measured on and a pool of label maps, so that a
// read's exemplar costs no map (client_golang copies the labels into
// its own exemplar and keeps none of the map).
type exemplars struct {
	epoch time.Time // monotonic: the gaps never see the wall clock move
	pool  sync.Pool // of prometheus.Labels
}

// exemplar is one read's trace id, for the histograms that read is
// observed in: its labels are made only if one of them takes it.
type exemplar struct {
	x     *exemplars
	trace [16]byte
	at    int64 // when the read ended, nanoseconds after x.epoch
	l     prometheus.Labels
}

// of returns s's exemplar; its release must be called once the read has
// been observed.
func (x *exemplars) of(s *stats.ReadSample) exemplar {
	e := exemplar{x: x, trace: s.Trace}
	if e.traced() {
		end := s.End
		if end.IsZero() {
			end = time.Now()
		}
		e.at = int64(end.Sub(x.epoch))
	}
	return e
}

// traced reports whether the read carried trace context.
func (e *exemplar) traced() bool { return e.trace != [16]byte{} }

// labels is {trace_id: the trace id in hex}, made once per read.
func (e *exemplar) labels() prometheus.Labels {
	if e.l == nil {
		e.l, _ = e.x.pool.Get().(prometheus.Labels)
		if e.l == nil {
			e.l = make(prometheus.Labels, 1)
		}
		e.l[ExemplarLabel] = protocol.TraceID(e.trace).String()
	}
	return e.l
}

// release gives the label map back to the pool.
func (e *exemplar) release() {
	if e.l != nil {
		e.x.pool.Put(e.l)
		e.l = nil
	}
}
