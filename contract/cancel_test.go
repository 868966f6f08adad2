package contract

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/results"
)

// TestJudgeLate: a result is judged by when its first byte came against
// the moment the server had the cancel, with the round-trip allowance: a
// big answer whose first byte came 0.5 ms after the cancel (its last byte
// long after) was written before the server could read the cancel, and is
// not a failure; one starting far later ignored it. Over stdio the moment
// is when the server read the cancel off its stdin: an answer that began
// while the cancel was still unread is not a failure however late it
// came, and no answer from a server that never read the cancel proves
// nothing.
func TestJudgeLate(t *testing.T) {
	base := time.Unix(1000, 0)
	cancelling, cancelled := base.Add(50*time.Millisecond), base.Add(51*time.Millisecond)
	sent := cancelMoments{sending: cancelling, sent: cancelled} // HTTP: when it was read is not known
	readAt := func(d time.Duration) cancelMoments {             // stdio: read d after it was sent
		m := sent
		m.setRead(cancelRead{at: cancelled.Add(d)})
		return m
	}
	unread := sent
	unread.setRead(cancelRead{err: context.Canceled}) // stdio: still unread when the probe ended
	result := []byte(`{"jsonrpc":"2.0","id":7,"result":{"contents":[]}}`)
	p := cancelProbe{uri: "x://a", at: 50 * time.Millisecond, watch: time.Second, allowance: 25 * time.Millisecond, rtt: time.Millisecond}
	answer := func(first, done time.Duration, body []byte) lateProbe {
		return lateProbe{a: &client.Response{Body: body, WireBytes: 4 << 20, Sent: base, FirstByte: cancelled.Add(first), Done: cancelled.Add(done)},
			at: cancelled.Add(done)}
	}
	for _, c := range []struct {
		why    string
		r      lateProbe
		m      cancelMoments
		status results.CheckStatus
		detail string
	}{
		{"first byte just after the cancel, last byte 300 ms later", answer(500*time.Microsecond, 300*time.Millisecond, result), sent, results.CheckSkip, "answered after the cancel"},
		{"first byte at the edge of the allowance", answer(25*time.Millisecond, 30*time.Millisecond, result), sent, results.CheckSkip, "4194304 bytes wasted"},
		{"first byte far beyond the allowance", answer(400*time.Millisecond, 401*time.Millisecond, result), sent, results.CheckFail, "ignored the cancel"},
		{"first byte before the cancel was sent", answer(-10*time.Millisecond, 200*time.Millisecond, result), sent, results.CheckSkip, "could not find a read slow enough"},
		{"an error answer", answer(100*time.Millisecond, 100*time.Millisecond, []byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"cancelled"}}`)), sent, results.CheckPass, "stopped"},
		{"no answer", lateProbe{err: context.DeadlineExceeded}, sent, results.CheckPass, "no answer within 1s"},
		{"stdio: first byte 400 ms after the cancel was sent, the cancel read 500 ms after", answer(400*time.Millisecond, 900*time.Millisecond, result), readAt(500 * time.Millisecond), results.CheckSkip, "the server read it off its stdin only 500ms after it was sent, so the answer was on its way"},
		{"stdio: the cancel still unread when the answer ended", answer(400*time.Millisecond, 900*time.Millisecond, result), unread, results.CheckSkip, "still unread in the server's stdin when the answer ended"},
		{"stdio: first byte 400 ms after the server read the cancel", answer(401*time.Millisecond, 900*time.Millisecond, result), readAt(time.Millisecond), results.CheckFail, "ignored the cancel: the answer's first byte came 400ms after the server read notifications/cancelled at 50ms off its stdin (1ms after it was sent)"},
		{"stdio: first byte within the allowance of the read", answer(210*time.Millisecond, 900*time.Millisecond, result), readAt(200 * time.Millisecond), results.CheckSkip, "came 10ms after the server read notifications/cancelled at 50ms off its stdin (200ms after it was sent), within the round-trip allowance"},
		{"stdio: no answer, the cancel read", lateProbe{err: context.DeadlineExceeded}, readAt(time.Millisecond), results.CheckPass, "no answer within 1s after notifications/cancelled at 50ms (read off the server's stdin 1ms after it was sent)"},
		{"stdio: no answer, the cancel never read", lateProbe{err: context.DeadlineExceeded}, unread, results.CheckSkip, "the server had not read it off its stdin by then"},
	} {
		ch := &checker{rep: &Findings{}}
		ch.judgeLate(context.Background(), p, c.r, c.m)
		if len(ch.rep.Checks) != 1 {
			t.Fatalf("%s: %d rows", c.why, len(ch.rep.Checks))
		}
		t.Logf("%s: %s %s", c.why, ch.rep.Checks[0].Status, ch.rep.Checks[0].Detail)
		if got := ch.rep.Checks[0]; got.Status != c.status || !strings.Contains(got.Detail, c.detail) {
			t.Errorf("%s: %s %q, want %s with %q", c.why, got.Status, got.Detail, c.status, c.detail)
		}
	}
}

// TestSimSlowURI: the simulated server's usual read to cancel is the one
// simSlowURI makes for its time, so a slower one differs only in delay.
func TestSimSlowURI(t *testing.T) {
	if got := simSlowURI(simCancelTime); got != simCancelURI {
		t.Errorf("simSlowURI(%s) = %q, want %q", simCancelTime, got, simCancelURI)
	}
}
