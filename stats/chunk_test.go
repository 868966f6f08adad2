package stats

import (
	"testing"
	"time"
)

// TestRecorderChunksApart: a ranged read's parts go to the chunk blocks,
// never to the read blocks, which hold the whole fetch once; first usable
// is recorded only when known.
func TestRecorderChunksApart(t *testing.T) {
	rec := NewRecorder([]ClassInfo{{Name: "ranged"}, {Name: "whole"}})
	rec.Schedule(3)
	rec.Read(ReadSample{Class: 0, Outcome: OK, Answered: true, Sent: true, Latency: 900 * time.Millisecond,
		Chunks: []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 290 * time.Millisecond}, FirstUsable: 310 * time.Millisecond})
	rec.Read(ReadSample{Class: 0, Outcome: Cancelled, LowerBound: true, Sent: true, Latency: time.Second,
		Chunks: []time.Duration{300 * time.Millisecond}})
	rec.Read(ReadSample{Class: 1, Outcome: OK, Answered: true, Sent: true, Latency: 50 * time.Millisecond, FirstUsable: 50 * time.Millisecond})
	run := rec.Phase()
	if run.Read.Count() != 3 || run.Chunk.Count() != 4 {
		t.Errorf("read count %d (want 3: one per read), chunk count %d (want 4)", run.Read.Count(), run.Chunk.Count())
	}
	r, w := run.Classes[0], run.Classes[1]
	if r.Chunk.Count() != 4 || w.Chunk.Count() != 0 || r.FirstUsable.Count() != 1 || w.FirstUsable.Count() != 1 {
		t.Errorf("ranged: %d chunks, %d first usable; whole: %d chunks, %d first usable",
			r.Chunk.Count(), r.FirstUsable.Count(), w.Chunk.Count(), w.FirstUsable.Count())
	}
	if q := r.Chunk.Quantile(100); q < 299*time.Millisecond || q > 301*time.Millisecond {
		t.Errorf("chunk max %v, want 300ms (the parts, not the fetch)", q)
	}
	if q := r.Latency.Quantile(50); q < 899*time.Millisecond {
		t.Errorf("ranged read p50 %v: the read is the whole fetch", q)
	}
}
