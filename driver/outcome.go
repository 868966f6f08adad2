package driver

import (
	"errors"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// readFacts are what only the run knows of one read: whether it was sent
// at all, why the client's read returned early, and what its class
// expects.
type readFacts struct {
	// sent is false for a read that was never sent: its turn's deadline
	// passed before the generator reached it, or max_in_flight dropped
	// its turn.
	sent bool
	// err is what the client's read returned: nil when it ended with an
	// answer of any outcome; errReadTimeout (as a cause) when the read's
	// own timeout ended it; anything else when its turn's deadline did or
	// the run was interrupted.
	err error
	// expect is the class's expect: "" (= ok), "error", or an outcome
	// name.
	expect string
}

// outcomeOf is the one place a read's final outcome is decided, from the
// client's answer (a, nil for a read never sent) and the run's facts
// (docs/measurement.md, outcomes). The client's outcome is taken as it is
// (the client classifies in the run's vocabulary); the run adds what only
// it knows: dropped, timeout, cancelled, and the class's expectation,
// applied here and nowhere else, once per read. "error" expects any
// JSON-RPC error of a read, an outcome name that outcome. method_not_found
// is never expected: a server without the method answers every read so,
// whatever it names, so it is no class's error and a run of it measures
// nothing; dropped is the generator's doing, never expected either. A
// -32601 worded as a missing resource is method_not_found here too, and
// the run settles it at its end (settledOf).
func outcomeOf(a *client.Answer, f readFacts) stats.Outcome {
	var o stats.Outcome
	switch {
	case !f.sent || a == nil:
		return stats.Dropped
	case f.err == nil:
		o = a.Outcome
	case errors.Is(f.err, errReadTimeout):
		o = stats.Timeout
	default:
		o = stats.Cancelled // the turn's deadline, or the run was interrupted
	}
	return expected(o, f.expect)
}

// expected is outcome o of a read whose class expects expect, the
// expectation applied (outcomeOf).
func expected(o stats.Outcome, expect string) stats.Outcome {
	switch {
	case expect == "" || expect == "ok" || o == stats.OK || o == stats.MethodNotFound:
		return o
	case expect == "error" && (o == stats.NotFound || o == stats.InvalidParams || o == stats.Internal || o == stats.RPCError):
		return stats.ExpectedError
	case o.String() == expect:
		return stats.ExpectedError
	}
	return o
}

// settledOf is what a read the client answered -32601 worded as a
// missing resource (client.Answer.WordedMissing) counts as once the run
// knows that the server implements resources/read: not_found, its class's
// expectation applied as to any not_found, so that `expect: not_found` is
// met on a server that misuses the code. ok is false for any other read
// (its outcome is outcomeOf's, settled when it is recorded).
func settledOf(a *client.Answer, f readFacts) (settled stats.Outcome, ok bool) {
	if !f.sent || a == nil || f.err != nil || !a.WordedMissing || a.Outcome != stats.MethodNotFound {
		return 0, false
	}
	return expected(stats.NotFound, f.expect), true
}
