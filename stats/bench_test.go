package stats

import (
	"sync/atomic"
	"testing"
	"time"
)

// Benchmarks of the recording hot path: what each read costs the
// generator before it is counted. Run with -benchmem: recording must not
// allocate per read.

// latencies spreads values across the histogram's range (microseconds to
// seconds), so buckets of every magnitude are touched.
func latencies() []time.Duration {
	out := make([]time.Duration, 1024)
	for i := range out {
		out[i] = time.Duration(1+i*i*37) * time.Microsecond
	}
	return out
}

func BenchmarkHistogramRecord(b *testing.B) {
	h := NewHistogram()
	lat := latencies()
	i := 0
	for b.Loop() {
		h.Record(lat[i%len(lat)])
		i++
	}
}

// readSample is the i-th ok read of class 0 as the driver records it at
// 1,000 reads a second: read i ends i ms after start, so the timeline
// opens a second (and closes the one before) every 1,000 reads, as in a
// run.
func readSample(start time.Time, i int, lat time.Duration) ReadSample {
	return ReadSample{
		Class: 0, Outcome: OK, Answered: true, Sent: true,
		Latency: lat, Service: lat - 20*time.Microsecond, TTFB: lat / 2, Lag: 20 * time.Microsecond,
		ByteCounts: ByteCounts{WireBytes: 1400, DiskBytes: 1024},
		End:        start.Add(time.Duration(i) * time.Millisecond),
	}
}

// BenchmarkRecorderRead is one read recorded: every histogram it feeds,
// the counters, the class and the timeline. /parallel records from as
// many goroutines as GOMAXPROCS, the contention on the Recorder's mutex.
func BenchmarkRecorderRead(b *testing.B) {
	classes := []ClassInfo{{Name: "text", MIME: "text/markdown"}}
	lat := latencies()
	b.Run("serial", func(b *testing.B) {
		r := NewRecorder(classes)
		start := time.Now()
		r.StartTimeline(start)
		i := 0
		for b.Loop() {
			r.Read(readSample(start, i, lat[i%len(lat)]))
			i++
		}
	})
	// untimed: no timeline (StartTimeline not called), so no second's
	// histogram is made and encoded every 1,000 reads: what a read costs
	// in the run's histograms and counters alone.
	b.Run("untimed", func(b *testing.B) {
		r := NewRecorder(classes)
		start := time.Now()
		i := 0
		for b.Loop() {
			r.Read(readSample(start, i, lat[i%len(lat)]))
			i++
		}
	})
	b.Run("parallel", func(b *testing.B) {
		r := NewRecorder(classes)
		start := time.Now()
		r.StartTimeline(start)
		var n atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := int(n.Add(1))
				r.Read(readSample(start, i, lat[i%len(lat)]))
			}
		})
	})
}
