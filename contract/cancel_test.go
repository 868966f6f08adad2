package contract

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
)

// TestJudgeLate: a result is judged by when its first byte came against
// the moment the cancel was on the server's side, with the round-trip
// allowance: a big answer whose first byte came 0.5 ms after the cancel
// (its last byte long after) was written before the server could read the
// cancel, and is not a failure; one starting far later ignored it.
func TestJudgeLate(t *testing.T) {
	base := time.Unix(1000, 0)
	cancelling, cancelled := base.Add(50*time.Millisecond), base.Add(51*time.Millisecond)
	result := []byte(`{"jsonrpc":"2.0","id":7,"result":{"contents":[]}}`)
	p := cancelPlan{uri: "x://a", at: 50 * time.Millisecond, watch: time.Second, allowance: 25 * time.Millisecond, rtt: time.Millisecond}
	answer := func(first, done time.Duration, body []byte) lateProbe {
		return lateProbe{a: &client.Response{Body: body, WireBytes: 4 << 20, Sent: base, FirstByte: cancelled.Add(first), Done: cancelled.Add(done)},
			at: cancelled.Add(done)}
	}
	for _, c := range []struct {
		why    string
		r      lateProbe
		status Status
		detail string
	}{
		{"first byte just after the cancel, last byte 300 ms later", answer(500*time.Microsecond, 300*time.Millisecond, result), Skip, "answered after the cancel"},
		{"first byte at the edge of the allowance", answer(25*time.Millisecond, 30*time.Millisecond, result), Skip, "4194304 bytes wasted"},
		{"first byte far beyond the allowance", answer(400*time.Millisecond, 401*time.Millisecond, result), Fail, "ignored the cancel"},
		{"first byte before the cancel was sent", answer(-10*time.Millisecond, 200*time.Millisecond, result), Skip, "could not find a read slow enough"},
		{"an error answer", answer(100*time.Millisecond, 100*time.Millisecond, []byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"cancelled"}}`)), Pass, "stopped"},
		{"no answer", lateProbe{err: context.DeadlineExceeded}, Pass, "no answer within 1s"},
	} {
		ch := &checker{rep: &Findings{}}
		ch.judgeLate(context.Background(), p, c.r, cancelling, cancelled)
		if len(ch.rep.Checks) != 1 {
			t.Fatalf("%s: %d rows", c.why, len(ch.rep.Checks))
		}
		if got := ch.rep.Checks[0]; got.Status != c.status || !strings.Contains(got.Detail, c.detail) {
			t.Errorf("%s: %s %q, want %s with %q", c.why, got.Status, got.Detail, c.status, c.detail)
		}
	}
}
