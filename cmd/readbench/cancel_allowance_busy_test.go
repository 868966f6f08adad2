package main

import (
	"runtime"
	"testing"
	"time"
)

// TestCancelIgnoredUnderHog: on a machine made busy on purpose, a server
// that ignores cancels and answers about 300 ms after each one is counted
// "ignored", although now and then its input loop is held (hold=250ms: a
// single-threaded server blocked by a synchronous handler), so that the
// pings behind a few cancels come back 200 ms late. Each late answer is
// judged with its own cancel's ping: the old rule took the slowest ping
// of the connection for every answer, an allowance of 4 × 200 ms, and
// called every one of them "crossed". Bounded: two runs of 2 s, the
// hog stopped with the test.
func TestCancelIgnoredUnderHog(t *testing.T) {
	hog(t, runtime.NumCPU(), time.Minute)
	for i := range 2 {
		c, table := runCancelSplit(t, `
name: deaf-held
seed: 7
load: {rate: 5/s, duration: 4s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: deaf, weight: 4, uri: "sim:///deaf?mime=text/plain&size=1000&delay=400ms&honor_cancel=false"}
  - {class: held, weight: 1, uri: "sim:///held?mime=text/plain&size=100&delay=1ms&hold=250ms"}
`)
		t.Logf("run %d: %d late, %d ignored; allowances p50 %v p99 %v max %v ms (allowance_ms %v); cancel to late p50 %v ms",
			i+1, *c.LateAnswers, *c.Ignored, c.AllowancesMs.P50Ms, c.AllowancesMs.P99Ms, c.AllowancesMs.MaxMs, deref(c.AllowanceMs), c.CancelToLate.P50Ms)
		if *c.LateAnswers < 10 {
			t.Fatalf("run %d: %d late answers: the deaf server's answers were not seen\n%s", i+1, *c.LateAnswers, table)
		}
		// A cancel whose own ping was held may go uncounted (its allowance
		// is its own 200 ms round trip, times 4), and so may one on a
		// starved moment; the others are ignored.
		if *c.Ignored*4 < *c.LateAnswers*3 {
			t.Errorf("run %d: %d of %d late answers ignored, want at least 3/4: a server that ignores cancels and answers 300 ms after was called \"crossed\" (allowance max %v ms)\n%s",
				i+1, *c.Ignored, *c.LateAnswers, c.AllowancesMs.MaxMs, table)
		}
		if c.AllowancesMs.Count != *c.LateAnswers || c.AllowancesMs.P50Ms >= 200 {
			t.Errorf("run %d: allowances_ms %+v: want one per late answer (%d), p50 well under the 300 ms the answers come after the cancel",
				i+1, c.AllowancesMs, *c.LateAnswers)
		}
	}
}
