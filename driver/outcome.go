package driver

import (
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// outcomeOf is the read outcome of a kind of answer: the one mapping from
// what the client says an answer is to a stats outcome. The run adds what
// only it knows (timeouts, cancellations, the class's expectation:
// applyExpect; see docs/measurement.md).
func outcomeOf(k client.Kind) stats.Outcome {
	switch k {
	case client.OK:
		return stats.OK
	case client.NotFound:
		return stats.NotFound
	case client.MethodNotFound:
		return stats.MethodNotFound
	case client.InvalidParams:
		return stats.InvalidParams
	case client.Internal:
		return stats.Internal
	case client.RPCError:
		return stats.RPCError
	case client.InputRequired:
		return stats.InputRequired
	case client.Transport:
		return stats.Transport
	case client.Unauthorized:
		return stats.Unauthorized
	}
	return stats.Protocol
}

// applyExpect turns an outcome the class expects into expected_error:
// "error" expects any JSON-RPC error of a read, an outcome name expects
// that outcome. method_not_found is never expected: a server without the
// method answers every read so, whatever it names, so it is no class's
// error and a run of it measures nothing (docs/measurement.md).
func applyExpect(o stats.Outcome, expect string) stats.Outcome {
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
