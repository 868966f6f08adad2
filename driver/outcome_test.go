package driver

import (
	"testing"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// TestOutcomeOf: every kind of answer has the outcome of the same name, so
// the client's vocabulary and the result file's cannot drift apart.
func TestOutcomeOf(t *testing.T) {
	for k := client.OK; k <= client.Transport; k++ {
		if got := outcomeOf(k); got.String() != k.String() {
			t.Errorf("outcomeOf(%v) = %v", k, got)
		}
	}
}

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
		{stats.Transport, "error", stats.Transport}, // "error" means a JSON-RPC error, not a broken connection
		// A server without resources/read answers "Method not found": no
		// class expects that, whatever it names.
		{stats.MethodNotFound, "not_found", stats.MethodNotFound},
		{stats.MethodNotFound, "error", stats.MethodNotFound},
		{stats.MethodNotFound, "method_not_found", stats.MethodNotFound},
	}
	for _, c := range cases {
		if got := applyExpect(c.o, c.expect); got != c.want {
			t.Errorf("applyExpect(%v, %q) = %v, want %v", c.o, c.expect, got, c.want)
		}
	}
}
