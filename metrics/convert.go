package metrics

import (
	"math"
	"sort"
	"strconv"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/prometheus/prompb"
)

// toWrite turns gathered families into one remote-write request, every
// sample at ts (milliseconds), labels with an empty value left out: counters and gauges as one sample each, a
// summary as its quantiles, _sum and _count, a
// histogram as its classic series (_bucket by le, _sum, _count), each
// bucket with its exemplar (a read's trace id) when it has one, and, when
// native is set and the histogram has native buckets, as one native
// histogram under its own name, with the native histogram's exemplars.
func toWrite(families []*dto.MetricFamily, ts int64, native bool) *prompb.WriteRequest {
	req := &prompb.WriteRequest{}
	add := func(name string, base []prompb.Label, v float64, ex []prompb.Exemplar, extra ...prompb.Label) {
		req.Timeseries = append(req.Timeseries, prompb.TimeSeries{
			Labels:    withName(name, base, extra...),
			Samples:   []prompb.Sample{{Value: v, Timestamp: ts}},
			Exemplars: ex,
		})
	}
	for _, f := range families {
		name := f.GetName()
		for _, m := range f.GetMetric() {
			base := make([]prompb.Label, 0, len(m.GetLabel())+2)
			for _, l := range m.GetLabel() {
				// An empty value is no label (a run without a shard, a server
				// that gave no version): Prometheus drops it from the series
				// but then finds no series for the series' exemplars (2.42),
				// and Thanos refuses the series.
				if l.GetValue() != "" {
					base = append(base, prompb.Label{Name: l.GetName(), Value: l.GetValue()})
				}
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				add(name, base, m.GetCounter().GetValue(), nil)
			case dto.MetricType_GAUGE:
				add(name, base, m.GetGauge().GetValue(), nil)
			case dto.MetricType_SUMMARY:
				sm := m.GetSummary()
				for _, q := range sm.GetQuantile() {
					add(name, base, q.GetValue(), nil, prompb.Label{Name: "quantile", Value: formatLE(q.GetQuantile())})
				}
				add(name+"_sum", base, sm.GetSampleSum(), nil)
				add(name+"_count", base, float64(sm.GetSampleCount()), nil)
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				inf := false // client_golang lists the +Inf bucket only when it holds an exemplar
				for _, b := range h.GetBucket() {
					inf = inf || math.IsInf(b.GetUpperBound(), +1)
					add(name+"_bucket", base, float64(b.GetCumulativeCount()), exemplarsOf(ts, b.GetExemplar()),
						prompb.Label{Name: "le", Value: formatLE(b.GetUpperBound())})
				}
				if !inf {
					add(name+"_bucket", base, float64(h.GetSampleCount()), nil, prompb.Label{Name: "le", Value: "+Inf"})
				}
				add(name+"_sum", base, h.GetSampleSum(), nil)
				add(name+"_count", base, float64(h.GetSampleCount()), nil)
				if native && h.Schema != nil {
					req.Timeseries = append(req.Timeseries, prompb.TimeSeries{
						Labels:     withName(name, base),
						Histograms: []prompb.Histogram{nativeOf(h, ts)},
						Exemplars:  exemplarsOf(ts, h.GetExemplars()...),
					})
				}
			}
		}
	}
	return req
}

// exemplarsOf converts client_golang's exemplars (nil ones skipped) to
// remote write's, each at the moment it was observed (ts when it has no
// timestamp). A push repeats a bucket's exemplar until a newer read
// replaces it: the receiver keeps one of an exemplar sent twice.
func exemplarsOf(ts int64, es ...*dto.Exemplar) []prompb.Exemplar {
	var out []prompb.Exemplar
	for _, e := range es {
		if e == nil {
			continue
		}
		ls := make([]prompb.Label, 0, len(e.GetLabel()))
		for _, l := range e.GetLabel() {
			ls = append(ls, prompb.Label{Name: l.GetName(), Value: l.GetValue()})
		}
		sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
		at := ts
		if e.Timestamp != nil {
			at = e.GetTimestamp().AsTime().UnixMilli()
		}
		out = append(out, prompb.Exemplar{Labels: ls, Value: e.GetValue(), Timestamp: at})
	}
	return out
}

// withName returns base with __name__ and extra added, sorted by name as
// remote write asks.
func withName(name string, base []prompb.Label, extra ...prompb.Label) []prompb.Label {
	ls := make([]prompb.Label, 0, len(base)+len(extra)+1)
	ls = append(ls, prompb.Label{Name: "__name__", Value: name})
	ls = append(ls, base...)
	ls = append(ls, extra...)
	sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
	return ls
}

// formatLE writes a bucket's upper bound as Prometheus does.
func formatLE(v float64) string {
	if math.IsInf(v, +1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// nativeOf is a client_golang native histogram as remote write carries
// it: the same schema, spans and deltas.
func nativeOf(h *dto.Histogram, ts int64) prompb.Histogram {
	spans := func(ss []*dto.BucketSpan) []prompb.BucketSpan {
		out := make([]prompb.BucketSpan, 0, len(ss))
		for _, s := range ss {
			out = append(out, prompb.BucketSpan{Offset: s.GetOffset(), Length: s.GetLength()})
		}
		return out
	}
	return prompb.Histogram{
		Count:          &prompb.Histogram_CountInt{CountInt: h.GetSampleCount()},
		Sum:            h.GetSampleSum(),
		Schema:         h.GetSchema(),
		ZeroThreshold:  h.GetZeroThreshold(),
		ZeroCount:      &prompb.Histogram_ZeroCountInt{ZeroCountInt: h.GetZeroCount()},
		NegativeSpans:  spans(h.GetNegativeSpan()),
		NegativeDeltas: h.GetNegativeDelta(),
		PositiveSpans:  spans(h.GetPositiveSpan()),
		PositiveDeltas: h.GetPositiveDelta(),
		Timestamp:      ts,
	}
}
