package stats

import (
	"testing"
	"time"
)

// TestLiveFigures: Live is the phase so far (outcomes, bytes, p50/p90/p99
// of read, turn and lag) and SecondP99 the read p99 of one second of the
// timeline, open or already closed, 0 for a second without reads.
func TestLiveFigures(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := NewRecorder([]ClassInfo{{Name: "doc"}})
	r.StartTimeline(start)
	if l := r.Live(); l != (Live{}) {
		t.Errorf("empty recorder: %+v", l)
	}
	for i := 1; i <= 100; i++ { // second 0: 1..100 ms
		d := time.Duration(i) * time.Millisecond
		r.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: d, Lag: d / 10, End: start.Add(time.Duration(i) * time.Millisecond),
			ByteCounts: ByteCounts{WireBytes: 4, DiskBytes: 3}})
		r.Turn(TurnSample{Latency: 2 * d})
	}
	r.Read(ReadSample{Outcome: Timeout, LowerBound: true, Sent: true, Latency: 5 * time.Second, End: start.Add(3500 * time.Millisecond)})
	l := r.Live()
	if l.Outcomes[OK] != 100 || l.Outcomes[Timeout] != 1 || l.WireBytes != 400 || l.DiskBytes != 300 {
		t.Errorf("counts: %+v", l)
	}
	near := func(got, want time.Duration) bool { return got >= want && got <= want+want/500+time.Microsecond }
	// 101 reads sent (the timeout at its cut): the 51st, 91st and 100th.
	if !near(l.Read.P50, 51*time.Millisecond) || !near(l.Read.P90, 91*time.Millisecond) || !near(l.Read.P99, 100*time.Millisecond) {
		t.Errorf("read percentiles %+v", l.Read)
	}
	if !near(l.Turn.P99, 198*time.Millisecond) || !near(l.Lag.P50, 5*time.Millisecond) {
		t.Errorf("turn %+v, lag %+v", l.Turn, l.Lag)
	}
	// Second 0 was closed by the read of second 3 (the timeline keeps two
	// seconds decoded): it is decoded for its p99.
	if got := r.SecondP99(0); !near(got, 99*time.Millisecond) {
		t.Errorf("second 0 (closed): p99 %v", got)
	}
	if got := r.SecondP99(3); !near(got, 5*time.Second) {
		t.Errorf("second 3 (open): p99 %v", got)
	}
	for _, sec := range []int{-1, 1, 2, 99} {
		if got := r.SecondP99(sec); got != 0 {
			t.Errorf("second %d has no reads: p99 %v", sec, got)
		}
	}
}

// BenchmarkLive is what the live figures cost each second: the snapshot
// of a phase of a million reads and the last second's p99, the recorder's
// lock held meanwhile.
func BenchmarkLive(b *testing.B) {
	start := time.Now()
	r := NewRecorder([]ClassInfo{{Name: "doc"}})
	r.StartTimeline(start)
	for i := range 1_000_000 {
		d := time.Duration(1000+i%50_000) * time.Microsecond
		r.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: d, Lag: d / 100, End: start.Add(time.Duration(i) * time.Microsecond)})
		if i%4 == 0 {
			r.Turn(TurnSample{Latency: 2 * d})
		}
	}
	b.ResetTimer()
	for range b.N {
		_ = r.Live()
		_ = r.SecondP99(0)
	}
}

// TestLiveBins: the bins' edges are the readable ten a decade from 10 µs,
// and a phase's reads are counted in the bin their latency falls in (its
// lower edge included, its upper one not).
func TestLiveBins(t *testing.T) {
	us := time.Microsecond
	for _, tc := range []struct {
		bin  int
		want time.Duration
	}{
		{0, 10 * us}, {1, 12 * us}, {9, 80 * us}, {10, 100 * us},
		{31, 12 * time.Millisecond}, {36, 40 * time.Millisecond}, {LiveBins - 2, 100 * time.Second},
	} {
		if got := LiveBinUpper(tc.bin); got != tc.want {
			t.Errorf("LiveBinUpper(%d) = %v, want %v", tc.bin, got, tc.want)
		}
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := NewRecorder([]ClassInfo{{Name: "doc"}})
	r.StartTimeline(start)
	for _, d := range []time.Duration{5 * us, 10 * time.Millisecond, 11 * time.Millisecond, 12 * time.Millisecond, 2 * time.Hour} {
		r.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: d, End: start})
	}
	want := map[int]int64{0: 1, 31: 2, 32: 1, LiveBins - 1: 1} // 10 and 11 ms in [10, 12), 12 ms in [12, 15)
	got := r.Live().ReadBins
	for i, n := range got {
		if n != want[i] {
			t.Errorf("bin %d (up to %v): %d reads, want %d", i, LiveBinUpper(i), n, want[i])
		}
	}
}

// TestLiveBinsWalk: liveBins walks the HDR counts by their layout; each
// bin holds what the library's own Distribution puts there, for values
// over the whole range.
func TestLiveBinsWalk(t *testing.T) {
	h := NewHistogram()
	for v := time.Microsecond; v < 2*time.Hour; v = v*21/20 + time.Microsecond {
		h.Record(v)
		h.Record(v * 3)
	}
	var want [LiveBins]int64
	for _, b := range h.h.Distribution() {
		i := 0
		for i < LiveBins-1 && time.Duration(b.From)*time.Microsecond >= LiveBinUpper(i) {
			i++
		}
		want[i] += b.Count
	}
	if got := liveBins(h); got != want {
		t.Errorf("liveBins:\n%v\nwant\n%v", got, want)
	}
}
