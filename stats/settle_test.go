package stats

import (
	"testing"
	"time"
)

// TestSettle: reads recorded unsettled (a -32601 worded as a missing
// resource) stay method_not_found unless the run settles them as a server
// that implements the method: then they count as their settled outcome in
// the phase, the class and the errors of their second, MisusedMethodNotFound
// counts them, and the accounting identity holds either way — whether the
// reads come before the first ok answer or after it.
func TestSettle(t *testing.T) {
	for _, c := range []struct {
		name          string
		settle, call  bool
		to            Outcome
		wantMethod    int64
		wantTo        int64
		wantErrorsSec int64 // errors in second 0: the 4 unsettled reads, the ok read none
		wantMisused   int64
	}{
		{"not implemented", false, true, NotFound, 4, 0, 4, 0},
		{"never settled", false, false, NotFound, 4, 0, 4, 0},
		{"implemented, not_found", true, true, NotFound, 0, 4, 4, 4},
		{"implemented, expected", true, true, ExpectedError, 0, 4, 0, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewRecorder([]ClassInfo{{Name: "text"}, {Name: "missing"}})
			start := time.Now()
			r.StartTimeline(start)
			unsettled := ReadSample{Class: 1, Outcome: MethodNotFound, Answered: true, Sent: true, Latency: time.Millisecond,
				End: start.Add(100 * time.Millisecond), Unsettled: true, Settled: c.to}
			r.Schedule(6)
			r.Read(unsettled) // before the first ok answer
			r.Read(unsettled)
			r.Read(ReadSample{Class: 0, Outcome: OK, Answered: true, Sent: true, Latency: time.Millisecond, End: start.Add(200 * time.Millisecond)})
			r.Read(unsettled)
			r.Read(unsettled)
			r.Read(ReadSample{Class: 0, Outcome: MethodNotFound, Answered: true, Sent: true, End: start.Add(300 * time.Millisecond), Settled: NotFound}) // not worded as missing
			if c.call {
				r.Settle(c.settle)
			}
			run := r.Phase()
			if err := CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
				t.Fatal(err)
			}
			miss := run.Classes[1]
			if got := miss.Outcomes[MethodNotFound]; got != c.wantMethod {
				t.Errorf("class missing: method_not_found %d, want %d (%v)", got, c.wantMethod, miss.Outcomes)
			}
			if got := miss.Outcomes[c.to]; got != c.wantTo {
				t.Errorf("class missing: %v %d, want %d", c.to, got, c.wantTo)
			}
			if got := run.Outcomes[MethodNotFound]; got != c.wantMethod+1 {
				t.Errorf("phase: method_not_found %d, want %d: the read not worded as missing stays", got, c.wantMethod+1)
			}
			if got := run.Classes[0].Outcomes[MethodNotFound]; got != 1 {
				t.Errorf("class text: method_not_found %d, want 1", got)
			}
			if len(run.Timeline) != 1 || run.Timeline[0].Errors != c.wantErrorsSec+1 || run.Timeline[0].Reads != 6 {
				t.Errorf("timeline %+v, want 6 reads, %d errors", run.Timeline, c.wantErrorsSec+1)
			}
			if run.MisusedMethodNotFound != c.wantMisused {
				t.Errorf("misused %d, want %d", run.MisusedMethodNotFound, c.wantMisused)
			}
			if again := r.Phase(); again.Outcomes != run.Outcomes || again.MisusedMethodNotFound != c.wantMisused {
				t.Errorf("a second Phase settled again: %v", again.Outcomes)
			}
		})
	}
}
