package stats

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Stat is one figure of a latency summary: a percentile, the maximum or
// the mean. LatencyStats lists them, and everything that enumerates the
// figures of a latency block reads that list — the result document's
// keys (through Latency), the reports' columns, compare's deltas and
// tests, the metric names of thresholds and bounds — so that a new
// percentile is one entry there and one field of Latency.
type Stat struct {
	// Name is the stat in a metric name ("p999" in read.p999), the label
	// of compare's deltas, and the JSON key without its "_ms".
	Name string
	// Label is the stat as a report's column heading ("p99.9").
	Label string
	// Quantile is the quantile in (0, 1) the stat reads (0.999); 0 for
	// the maximum and the mean, which no single quantile names. Kept as
	// the fraction the reports and ab have always used, so that their
	// arithmetic (and every figure they print) is unchanged; Percentile
	// is the same in [0, 100].
	Quantile float64
	// of reads a stat that is not a percentile (Histogram.Max or Mean).
	of func(*Histogram) time.Duration
	// ms is the stat's field in a latency block.
	ms func(*Latency) *float64
}

// LatencyStats are the figures of every latency block, in report order:
// the one list a new percentile is added to. A function, not a variable,
// so that no caller can change the list another reads.
func LatencyStats() []Stat {
	return []Stat{
		{Name: "p50", Label: "p50", Quantile: 0.5, ms: func(l *Latency) *float64 { return &l.P50Ms }},
		{Name: "p90", Label: "p90", Quantile: 0.9, ms: func(l *Latency) *float64 { return &l.P90Ms }},
		{Name: "p99", Label: "p99", Quantile: 0.99, ms: func(l *Latency) *float64 { return &l.P99Ms }},
		{Name: "p999", Label: "p99.9", Quantile: 0.999, ms: func(l *Latency) *float64 { return &l.P999Ms }},
		{Name: "max", Label: "max", of: (*Histogram).Max, ms: func(l *Latency) *float64 { return &l.MaxMs }},
		{Name: "mean", Label: "mean", of: (*Histogram).Mean, ms: func(l *Latency) *float64 { return &l.MeanMs }},
	}
}

// LatencyStat is the stat a metric name's last part names ("p99"), false
// when none is: how bounds, compare and capacity read a stat they were
// given as text.
func LatencyStat(name string) (Stat, bool) {
	for _, s := range LatencyStats() {
		if s.Name == name {
			return s, true
		}
	}
	return Stat{}, false
}

// LatencyStatNames are the stats' names in report order, the words a
// metric's last part may be (read.p99, turn.max).
func LatencyStatNames() []string {
	stats := LatencyStats()
	names := make([]string, len(stats))
	for i, s := range stats {
		names[i] = s.Name
	}
	return names
}

// Of is the stat of h, at the histogram's resolution.
func (s Stat) Of(h *Histogram) time.Duration {
	if s.of != nil {
		return s.of(h)
	}
	return h.Quantile(s.Percentile())
}

// Percentile is the stat's quantile as a percentile (99.9), the scale
// Histogram.Quantile takes; 0 for the maximum and the mean.
func (s Stat) Percentile() float64 { return 100 * s.Quantile }

// Ms is the stat's figure in l, in milliseconds.
func (s Stat) Ms(l Latency) float64 { return *s.ms(&l) }

// Latency is a latency block as the result document saves it: the figures
// of LatencyStats in milliseconds (float, microsecond precision, the
// histogram's own resolution) and the full histogram, so that any other
// percentile can be computed and blocks of shards merged exactly. It is
// what Histogram.Export gives: the summary of a histogram is the JSON, with
// no second type to keep in step. Count is the number of values recorded;
// LowerBounds how many of them were recorded at a limit (a read or turn
// cut at the deadline or the timeout, a dropped turn): the true value is
// at least the one recorded.
type Latency struct {
	Count       int64   `json:"count"`
	LowerBounds int64   `json:"lower_bounds"`
	P50Ms       float64 `json:"p50_ms"`
	P90Ms       float64 `json:"p90_ms"`
	P99Ms       float64 `json:"p99_ms"`
	P999Ms      float64 `json:"p999_ms"`
	MaxMs       float64 `json:"max_ms"`
	MeanMs      float64 `json:"mean_ms"`
	HDR         string  `json:"hdr"` // Histogram.Encode: HdrHistogram V2 compressed, base64
}

// Export is h's latency block: every stat of LatencyStats and the encoded
// histogram (LowerBounds is the caller's, which knows what was cut).
func (h *Histogram) Export() (Latency, error) {
	enc, err := h.Encode()
	if err != nil {
		return Latency{}, err
	}
	l := Latency{Count: h.Count(), HDR: enc}
	for _, s := range LatencyStats() {
		*s.ms(&l) = Millis(s.Of(h))
	}
	return l, nil
}

// Millis converts d to milliseconds rounded to the microsecond, the
// histograms' resolution (more digits would be noise): every millisecond
// figure of a result document is written through it.
func Millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// MsDuration is ms milliseconds as a duration, to the nanosecond: the
// inverse of Millis, for a figure read back from a result.
func MsDuration(ms float64) time.Duration {
	return time.Duration(math.Round(ms * float64(time.Millisecond)))
}

// Milliseconds is a duration a result file writes as milliseconds
// (Millis: rounded to the microsecond) and reads back: the one
// millisecond JSON form of a duration kept in a result as it was measured.
type Milliseconds time.Duration

// Ms is m in milliseconds, as the result writes it.
func (m Milliseconds) Ms() float64 { return Millis(time.Duration(m)) }

// MarshalJSON writes m as a number of milliseconds.
func (m Milliseconds) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, m.Ms(), 'f', -1, 64), nil
}

// UnmarshalJSON reads a number of milliseconds, refusing what is not a
// finite duration.
func (m *Milliseconds) UnmarshalJSON(b []byte) error {
	if string(b) == "null" { // as encoding/json does: null leaves the value alone
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("milliseconds %q: not a number", b)
	}
	if math.IsNaN(ms) || math.Abs(ms) > float64(math.MaxInt64)/float64(time.Millisecond) {
		return fmt.Errorf("milliseconds %q: out of range", b)
	}
	*m = Milliseconds(MsDuration(ms))
	return nil
}

// Histogram decodes the block's histogram, for merging and for percentiles
// the block does not list. DecodeHistogram checks the encoding first: a
// damaged or hostile file gives an error, never a hang.
func (l Latency) Histogram() (*Histogram, error) {
	return DecodeHistogram(l.HDR)
}

// StatMs is the figure of the block a stat names (a Stat's Name: "p50",
// "p999", "max"; anything else is the mean): the one reading of a stat
// name that compare and the bounds share.
func (l Latency) StatMs(stat string) float64 {
	if s, ok := LatencyStat(stat); ok {
		return s.Ms(l)
	}
	return l.MeanMs
}
