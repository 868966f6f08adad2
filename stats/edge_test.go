package stats

import (
	"testing"
	"time"
)

// TestReadBlocksAtTheEdge: the all-reads block holds every read sent, cut
// and timed-out ones at their cut (counted as lower bounds), so a tail
// past the deadline cannot look fast; the ok block holds ok answers only,
// so fast error answers cannot pull it down; dropped reads were never sent
// and have neither a latency nor a lag.
func TestReadBlocksAtTheEdge(t *testing.T) {
	rec := NewRecorder([]ClassInfo{{Name: "c"}})
	ms := time.Millisecond
	rec.Schedule(100)
	for range 90 {
		rec.Read(ReadSample{Outcome: OK, Answered: true, Sent: true, Latency: 10 * ms, Lag: 100 * time.Microsecond})
	}
	for range 5 { // fast errors: in all answers, not in ok
		rec.Read(ReadSample{Outcome: Internal, Answered: true, Sent: true, Latency: ms, Lag: 100 * time.Microsecond})
	}
	for range 4 { // cut at the 800 ms deadline
		rec.Read(ReadSample{Outcome: Cancelled, LowerBound: true, Sent: true, Latency: 800 * ms, Lag: 3 * ms})
	}
	rec.Read(ReadSample{Outcome: Dropped})
	run := rec.Phase()
	if run.Read.Count() != 99 || run.ReadLowerBounds != 4 || run.Classes[0].LatencyLowerBounds != 4 {
		t.Errorf("all reads: %d values, %d lower bounds; want 99 and 4", run.Read.Count(), run.ReadLowerBounds)
	}
	if p99 := run.Read.Quantile(99); p99 < 800*ms {
		t.Errorf("read p99 %v with 4%% of reads cut at 800ms: the tail must be at the cut or above", p99)
	}
	if run.ReadOK.Count() != 90 || run.ReadOK.Quantile(50) < 10*ms-ms/100 {
		t.Errorf("ok reads: %d values, p50 %v; want 90 at 10ms", run.ReadOK.Count(), run.ReadOK.Quantile(50))
	}
	if run.Lag.Count() != 99 || run.Lag.Max() < 3*ms-ms/100 {
		t.Errorf("lag: %d values, max %v; want 99 (the dropped read was never sent) and 3ms", run.Lag.Count(), run.Lag.Max())
	}
	if err := CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Error(err)
	}
}

// TestRecorderClosedByRun: what arrives after Run (a late answer while the
// sessions close) is not the run's, and the returned Run does not change.
func TestRecorderClosedByRun(t *testing.T) {
	rec := NewRecorder(nil)
	rec.LateAnswer(10, time.Millisecond)
	run := rec.Phase()
	rec.LateAnswer(20, time.Millisecond)
	rec.Turn(TurnSample{End: TurnComplete})
	if run.Cancel.LateAnswers != 1 || run.Cancel.WastedBytes != 10 || run.Turns != 0 || rec.Phase() != run {
		t.Errorf("after Run: %d late answers, %d bytes, %d turns", run.Cancel.LateAnswers, run.Cancel.WastedBytes, run.Turns)
	}
}

// TestDroppedTurnIsAFailedTurn: a dropped turn counts among the turns, in
// the turn histogram at its limit (a lower bound), and in the timeline as
// asked and never achieved.
func TestDroppedTurnIsAFailedTurn(t *testing.T) {
	rec := NewRecorder(nil)
	start := time.Now()
	rec.StartTimeline(start)
	rec.Turn(TurnSample{End: TurnComplete, Latency: 20 * time.Millisecond, Intended: start, Started: start, Ended: start.Add(20 * time.Millisecond), Reads: 4})
	rec.Turn(TurnSample{End: TurnDropped, Latency: 800 * time.Millisecond, LowerBound: true, Intended: start.Add(time.Millisecond), Reads: 4})
	run := rec.Phase()
	if run.Turns != 2 || run.TurnEndCount(TurnDropped) != 1 || run.TurnLowerBounds != 1 || run.Turn.Max() < 799*time.Millisecond {
		t.Errorf("turns %d, dropped %d, lower bounds %d, max %v", run.Turns, run.TurnEndCount(TurnDropped), run.TurnLowerBounds, run.Turn.Max())
	}
	if run.TurnBySize[4].Count() != 2 {
		t.Errorf("turn size 4 has %d turns, want 2", run.TurnBySize[4].Count())
	}
	if s := run.Timeline[0]; s.Asked != 2 || s.Achieved != 1 || s.Ended != 1 {
		t.Errorf("second 0: %+v", s)
	}
}
