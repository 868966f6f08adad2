package stats

import (
	"testing"
	"time"
)

// TestAuthRecording: a recorder keeps no authorization figures unless
// told the run has tokens; then it splits read latency by fresh and later
// token, counts token requests by reason, and merge adds them.
func TestAuthRecording(t *testing.T) {
	classes := []ClassInfo{{Name: "c"}}
	plain := NewRecorder(classes)
	plain.Read(ReadSample{Outcome: OK, Answered: true, Latency: time.Millisecond, FreshToken: true})
	if p := plain.Phase(); p.Auth != nil {
		t.Fatalf("auth %+v without tokens", p.Auth)
	}

	rec := NewRecorder(classes)
	rec.EnableAuth()
	rec.Read(ReadSample{Outcome: OK, Answered: true, Latency: 30 * time.Millisecond, FreshToken: true})
	rec.Read(ReadSample{Outcome: OK, Answered: true, Latency: time.Millisecond})
	rec.Read(ReadSample{Outcome: Timeout, LowerBound: true, Latency: time.Second})
	rec.Read(ReadSample{Outcome: Unauthorized, Sent: true}) // no answer: in neither block, as in Read
	p := rec.Phase()
	p.Auth.Request(TokenRequest{Reason: "initial", Took: 50 * time.Millisecond})
	p.Auth.Request(TokenRequest{Reason: "refused", Took: 10 * time.Millisecond})
	p.Auth.Request(TokenRequest{Reason: "step-up", Took: 10 * time.Millisecond, Failed: true})
	a := p.Auth
	if a.FreshToken.Count() != 1 || a.LaterToken.Count() != 2 || p.Outcomes[Unauthorized] != 1 {
		t.Errorf("fresh %d later %d unauthorized %d", a.FreshToken.Count(), a.LaterToken.Count(), p.Outcomes[Unauthorized])
	}
	if tq := a.Tokens; tq.Count != 3 || tq.Failures != 1 || tq.Refreshes != 1 || tq.ByReason["refused"] != 1 || a.TokenLatency.Count() != 3 {
		t.Errorf("token requests %+v", tq)
	}

	merged := NewRun(classes)
	merged.Merge(p)
	merged.Merge(p)
	if m := merged.Auth; m == nil || m.Tokens.Count != 6 || m.FreshToken.Count() != 2 || m.Tokens.ByReason["initial"] != 2 {
		t.Errorf("merged %+v", m)
	}
	if a.Tokens.Count != 3 {
		t.Errorf("merge changed its input: %d", a.Tokens.Count)
	}
}
