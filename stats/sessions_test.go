package stats

import (
	"testing"
	"time"
)

// TestHandshakeAndFirstRead: each session's handshake is its own block,
// and a read that is the first on its session counts in read and in
// first_read; both merge across shards.
func TestHandshakeAndFirstRead(t *testing.T) {
	ms := time.Millisecond
	rec := NewRecorder([]ClassInfo{{Name: "a"}})
	rec.Handshake(40 * ms)
	rec.Handshake(60 * ms)
	rec.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: 30 * ms, FirstOnSession: true})
	rec.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: 2 * ms})
	rec.Read(ReadSample{Outcome: Dropped, FirstOnSession: true}) // never sent: no latency to record
	run := rec.Phase()
	if run.Handshake.Count() != 2 || run.Handshake.Max() < 59*ms {
		t.Errorf("handshake: %d values, max %v; want 2, 60ms", run.Handshake.Count(), run.Handshake.Max())
	}
	if run.FirstRead.Count() != 1 || run.Read.Count() != 2 || run.FirstRead.Max() < 29*ms {
		t.Errorf("first_read %d (max %v), read %d; want 1 (30ms), 2", run.FirstRead.Count(), run.FirstRead.Max(), run.Read.Count())
	}
	other := NewRecorder([]ClassInfo{{Name: "a"}})
	other.Handshake(10 * ms)
	other.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: 5 * ms, FirstOnSession: true})
	run.Merge(other.Phase())
	if run.Handshake.Count() != 3 || run.FirstRead.Count() != 2 {
		t.Errorf("merged: handshake %d, first_read %d; want 3, 2", run.Handshake.Count(), run.FirstRead.Count())
	}
}
