package driver

import (
	"context"
	"fmt"
	"testing"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// TestOutcomeOf: the client's outcome is the read's outcome as it is (one
// vocabulary, nothing translates it), and the run adds only what it
// knows: a read never sent is dropped, one its timeout ended is timeout,
// one its turn's deadline or the run's end cut is cancelled.
func TestOutcomeOf(t *testing.T) {
	for o := stats.OK; o < stats.NumOutcomes; o++ {
		switch o {
		case stats.ExpectedError, stats.Timeout, stats.Cancelled, stats.Dropped:
			continue // the run's own: never the client's
		}
		if got := outcomeOf(&client.Answer{Outcome: o}, readFacts{sent: true}); got != o {
			t.Errorf("an answer %v became %v", o, got)
		}
	}
	for _, c := range []struct {
		why  string
		a    *client.Answer
		f    readFacts
		want stats.Outcome
	}{
		{"never sent", nil, readFacts{}, stats.Dropped},
		{"never sent, whatever its class expects", nil, readFacts{expect: "timeout"}, stats.Dropped},
		{"its timeout", &client.Answer{}, readFacts{sent: true, err: fmt.Errorf("read: %w", errReadTimeout)}, stats.Timeout},
		{"its turn's deadline", &client.Answer{}, readFacts{sent: true, err: errDeadline}, stats.Cancelled},
		{"the run interrupted", &client.Answer{}, readFacts{sent: true, err: context.Canceled}, stats.Cancelled},
		{"cut, whatever the answer so far", &client.Answer{Outcome: stats.NotFound}, readFacts{sent: true, err: errDeadline}, stats.Cancelled},
	} {
		if got := outcomeOf(c.a, c.f); got != c.want {
			t.Errorf("%s: %v, want %v", c.why, got, c.want)
		}
	}
}

// TestApplyExpect: the class's expect, applied once, in outcomeOf.
func TestApplyExpect(t *testing.T) {
	cases := []struct {
		o      stats.Outcome
		expect string
		want   stats.Outcome
	}{
		{stats.NotFound, "not_found", stats.ExpectedError},
		{stats.InvalidParams, "error", stats.ExpectedError},
		{stats.NotFound, "", stats.NotFound},
		{stats.OK, "not_found", stats.OK}, // an ok answer is never hidden, even when an error was expected
		{stats.Timeout, "not_found", stats.Timeout},
		{stats.Timeout, "timeout", stats.ExpectedError},
		{stats.Cancelled, "cancelled", stats.ExpectedError},
		{stats.Transport, "error", stats.Transport}, // "error" means a JSON-RPC error, not a broken connection
		// A server without resources/read answers "Method not found": no
		// class expects that, whatever it names.
		{stats.MethodNotFound, "not_found", stats.MethodNotFound},
		{stats.MethodNotFound, "error", stats.MethodNotFound},
		{stats.MethodNotFound, "method_not_found", stats.MethodNotFound},
	}
	for _, c := range cases {
		a, f := &client.Answer{Outcome: c.o}, readFacts{sent: true, expect: c.expect}
		switch c.o {
		case stats.Timeout:
			a.Outcome, f.err = stats.OK, errReadTimeout
		case stats.Cancelled:
			a.Outcome, f.err = stats.OK, errDeadline
		}
		if got := outcomeOf(a, f); got != c.want {
			t.Errorf("%v expecting %q = %v, want %v", c.o, c.expect, got, c.want)
		}
	}
}

// TestSettledOf: a read answered -32601 worded as a missing resource is
// method_not_found when recorded, and settles as not_found, the class's
// expect applied, should the server turn out to implement resources/read;
// no other read is left to settle (a -32601 not so worded, a read cut
// before its answer, a read never sent).
func TestSettledOf(t *testing.T) {
	worded := &client.Answer{Outcome: stats.MethodNotFound, WordedMissing: true}
	for _, c := range []struct {
		why    string
		a      *client.Answer
		f      readFacts
		now    stats.Outcome
		want   stats.Outcome
		settle bool
	}{
		{"worded as missing", worded, readFacts{sent: true}, stats.MethodNotFound, stats.NotFound, true},
		{"worded as missing, expect not_found", worded, readFacts{sent: true, expect: "not_found"}, stats.MethodNotFound, stats.ExpectedError, true},
		{"worded as missing, expect error", worded, readFacts{sent: true, expect: "error"}, stats.MethodNotFound, stats.ExpectedError, true},
		{"worded as missing, expect invalid_params", worded, readFacts{sent: true, expect: "invalid_params"}, stats.MethodNotFound, stats.NotFound, true},
		{"Method not found", &client.Answer{Outcome: stats.MethodNotFound}, readFacts{sent: true, expect: "not_found"}, stats.MethodNotFound, 0, false},
		{"cut before its answer", worded, readFacts{sent: true, err: errDeadline}, stats.Cancelled, 0, false},
		{"never sent", nil, readFacts{expect: "not_found"}, stats.Dropped, 0, false},
	} {
		if got := outcomeOf(c.a, c.f); got != c.now {
			t.Errorf("%s: recorded %v, want %v", c.why, got, c.now)
		}
		if got, ok := settledOf(c.a, c.f); ok != c.settle || got != c.want {
			t.Errorf("%s: settles %v (%v), want %v (%v)", c.why, got, ok, c.want, c.settle)
		}
	}
}
