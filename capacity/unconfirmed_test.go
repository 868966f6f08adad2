package capacity

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// jsonKeys is a finding as a script reads it: its JSON document, each
// top-level key's raw value.
func jsonKeys(t *testing.T, rep *RateFinding) map[string]json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestUnconfirmedRateIsNull: max_sustainable_rate, the key a script
// reads, holds only a rate the search confirmed (a passing hold, or with
// --hold 0 the last good step below a failure that was the server's, or
// --to when every step passed). A rate measured in a step but not
// confirmed — its hold could not be driven or the machine was busy
// through it (the 137.5 with hold.pass false), the rates above it
// not measured, every hold broken, no step passed — is JSON null; the
// candidate stays beside it as interval.low.
func TestUnconfirmedRateIsNull(t *testing.T) {
	afterSteps := func(f *timedServer) func(float64, int) bool {
		return func(float64, int) bool { return len(f.asked) > 6 } // the holds, after the six steps
	}
	for _, c := range []struct {
		name  string
		f     func() *timedServer
		hold  time.Duration
		limit string
		want  string // max_sustainable_rate as written
		low   string // interval.low as written; "" for no interval
	}{
		{"hold not driven cleanly", func() *timedServer {
			f := &timedServer{knee: 390, holdKnee: 390}
			f.spike = afterSteps(f)
			return f
		}, 20 * time.Second, LimitGenerator, "null", "375"},
		{"hold on a busy machine", func() *timedServer {
			f := &timedServer{knee: 390, holdKnee: 390}
			f.busy = afterSteps(f)
			return f
		}, 20 * time.Second, LimitMachine, "null", "375"},
		{"every hold broke", func() *timedServer { return &timedServer{knee: 390, holdKnee: 50} }, 20 * time.Second, LimitHold, "null", ""},
		{"no step passed", func() *timedServer { return &timedServer{knee: 50, holdKnee: 50} }, 20 * time.Second, LimitFirstStep, "null", ""},
		{"busy machine above, no hold", func() *timedServer {
			return &timedServer{knee: 390, holdKnee: 390, busy: func(rate float64, _ int) bool { return rate == 200 }}
		}, 0, LimitMachine, "null", "187.5"},
		{"held", func() *timedServer { return &timedServer{knee: 390, holdKnee: 390} }, 20 * time.Second, LimitSLO, "375", ""},
		{"no hold, the server's failure above", func() *timedServer { return &timedServer{knee: 390, holdKnee: 390} }, 0, LimitSLO, "375", ""},
		{"every step passed", func() *timedServer { return &timedServer{knee: 1000, holdKnee: 1000} }, 0, LimitRange, "800", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.f()
			rep, err := Search(context.Background(), kneeSearch(c.hold), f.run, sloJudge(t, "read.p99<50ms,errors<1%"))
			if err != nil {
				t.Fatal(err)
			}
			keys := jsonKeys(t, rep)
			if rep.LimitedBy != c.limit || string(keys["max_sustainable_rate"]) != c.want {
				t.Fatalf("limited by %s, max_sustainable_rate %s; want %s, %s (hold %s): %s",
					rep.LimitedBy, keys["max_sustainable_rate"], c.limit, c.want, keys["hold"], rep.Conclusion)
			}
			var in struct {
				Low json.RawMessage `json:"low"`
			}
			if err := json.Unmarshal(keys["interval"], &in); err != nil {
				t.Fatal(err)
			}
			if string(in.Low) != c.low {
				t.Errorf("interval %s, want low %q", keys["interval"], c.low)
			}
			if c.want == "null" && strings.Contains(strings.ToLower(rep.Conclusion), "maximum sustainable rate") {
				t.Errorf("the conclusion calls an unconfirmed rate the maximum sustainable rate: %s", rep.Conclusion)
			}
		})
	}
}
