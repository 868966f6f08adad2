package stats

import (
	"testing"
	"time"
)

// TestRunMerge: two halves of the same samples merge into what one
// recorder of all of them holds.
func TestRunMerge(t *testing.T) {
	classes := []ClassInfo{{Name: "a"}, {Name: "b"}}
	all, a, b := NewRecorder(classes), NewRecorder(classes), NewRecorder(classes)
	for i := range 1000 {
		s := ReadSample{Class: i % 2, Outcome: Outcome(i % 3), Answered: true, Sent: true,
			Latency: time.Duration(i*37) * time.Microsecond, Service: time.Millisecond, ByteCounts: ByteCounts{WireBytes: int64(i), DiskBytes: 2},
			HasTTL: i%5 == 0, TTL: time.Duration(i) * time.Millisecond}
		half := a
		if i%4 == 0 {
			half = b
		}
		for _, r := range []*Recorder{all, half} {
			r.Schedule(1)
			r.Read(s)
			r.Turn(TurnSample{Latency: s.Latency, End: TurnEnd(i % 4), Reads: 1 + i%3})
		}
	}
	want, got := all.Phase(), a.Phase()
	got.Merge(b.Phase())
	if got.Scheduled != want.Scheduled || got.Turns != want.Turns || got.Outcomes != want.Outcomes || got.TurnEnds != want.TurnEnds ||
		got.WireBytes != want.WireBytes || got.Classes[1].Cache != want.Classes[1].Cache || got.Classes[0].Outcomes != want.Classes[0].Outcomes {
		t.Errorf("merged counters differ from one recorder's")
	}
	for _, p := range []float64{50, 99, 99.9, 100} {
		if got.Read.Quantile(p) != want.Read.Quantile(p) || got.TurnBySize[2].Quantile(p) != want.TurnBySize[2].Quantile(p) {
			t.Errorf("p%v: %v merged, %v in one recorder", p, got.Read.Quantile(p), want.Read.Quantile(p))
		}
	}
}
