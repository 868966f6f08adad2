package stats

import (
	"fmt"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Latency histograms record microseconds from 1 µs to 1 h with 3
// significant digits: 0.1% relative error at any scale, the resolution
// wrk2 and HdrHistogram's own tools assume.
const (
	lowestMicros  = 1
	highestMicros = int64(time.Hour / time.Microsecond)
	sigDigits     = 3
)

// Histogram is a latency histogram. The zero value is not usable; call
// NewHistogram. It is not safe for concurrent use: the Recorder serialises.
type Histogram struct {
	h *hdrhistogram.Histogram
}

// NewHistogram returns an empty latency histogram (1 µs to 1 h, 3 digits).
func NewHistogram() *Histogram {
	return &Histogram{h: hdrhistogram.New(lowestMicros, highestMicros, sigDigits)}
}

// Record adds one latency. Values below 1 µs count as 1 µs and values
// above an hour as an hour, so that no sample is ever silently lost.
func (h *Histogram) Record(d time.Duration) { h.recordMicros(micros(d)) }

// micros is d as the value a histogram records: whole microseconds,
// clamped into the trackable range.
func micros(d time.Duration) int64 {
	return min(max(int64(d/time.Microsecond), lowestMicros), highestMicros)
}

// recordMicros adds one value made by micros.
func (h *Histogram) recordMicros(us int64) {
	_ = h.h.RecordValue(us) // cannot fail: micros clamps the value into range
}

// Count is the number of recorded values.
func (h *Histogram) Count() int64 { return h.h.TotalCount() }

// Quantile returns the latency at quantile q in [0, 100] (a percentile).
func (h *Histogram) Quantile(p float64) time.Duration {
	return time.Duration(h.h.ValueAtPercentile(p)) * time.Microsecond
}

// Max is the largest recorded latency (at histogram resolution).
func (h *Histogram) Max() time.Duration {
	return time.Duration(h.h.Max()) * time.Microsecond
}

// Mean is the average recorded latency.
func (h *Histogram) Mean() time.Duration {
	return time.Duration(h.h.Mean() * float64(time.Microsecond))
}

// Merge adds every value of o into h: shards and per-worker histograms
// combine exactly.
func (h *Histogram) Merge(o *Histogram) { h.h.Merge(o.h) }

// Encode returns the HdrHistogram V2 compressed encoding in base64, the
// form HdrHistogram's own tools read (its log format carries the same).
func (h *Histogram) Encode() (string, error) {
	b, err := h.h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram reads back an Encode result. Encodings come from files
// of any origin, so each is checked (checkHistogram) before the library
// sees it: it hangs, panics or exhausts memory on some corrupt inputs.
func DecodeHistogram(s string) (h *Histogram, err error) {
	if err := checkHistogram(s); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil { // a last guard for what the check misses
			h, err = nil, fmt.Errorf("decode histogram: corrupt encoding: %v", r)
		}
	}()
	d, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return &Histogram{h: d}, nil
}
