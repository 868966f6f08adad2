package stats

import "fmt"

// Outcome is what became of one scheduled read: exactly one per read, so
// that scheduled = sum of outcomes (the accounting identity).
type Outcome int

// The outcomes of docs/measurement.md (outcomes), in report order.
const (
	OK             Outcome = iota // a usable answer
	ExpectedError                 // the class's expect was met
	NotFound                      // -32002, or -32602 from a 2026-07-28 server
	MethodNotFound                // -32601: the server does not implement the read's method
	InvalidParams                 // -32602
	Internal                      // -32603
	RPCError                      // any other JSON-RPC error code
	InputRequired                 // resultType input_required
	Unauthorized                  // the server refused the read's token after one renewal, or none could be had
	Timeout                       // the per-read timeout ended it
	Cancelled                     // the turn deadline cancelled it
	Transport                     // the connection, process or HTTP exchange failed
	Protocol                      // an answer that cannot be used
	Dropped                       // never sent: max_in_flight was reached
	NumOutcomes                   // count of outcomes, not an outcome
)

var outcomeNames = [NumOutcomes]string{
	"ok", "expected_error", "not_found", "method_not_found", "invalid_params", "internal", "rpc_error",
	"input_required", "unauthorized", "timeout", "cancelled", "transport", "protocol", "dropped",
}

// String is the outcome's name in results and reports.
func (o Outcome) String() string {
	if o < 0 || o >= NumOutcomes {
		return fmt.Sprintf("outcome(%d)", int(o))
	}
	return outcomeNames[o]
}

// ParseOutcome maps a name back to its outcome.
func ParseOutcome(name string) (Outcome, bool) {
	for i, n := range outcomeNames {
		if n == name {
			return Outcome(i), true
		}
	}
	return 0, false
}

// MarshalText writes the outcome's name: an outcome saved in a result
// (a slow read's) is its name, as in every report.
func (o Outcome) MarshalText() ([]byte, error) {
	if o < 0 || o >= NumOutcomes {
		return nil, fmt.Errorf("outcome %d is not one readbench records", int(o))
	}
	return []byte(outcomeNames[o]), nil
}

// UnmarshalText reads an outcome's name, refusing any other word.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, ok := ParseOutcome(string(b))
	if !ok {
		return fmt.Errorf("outcome %q is not one readbench records", b)
	}
	*o = v
	return nil
}

// IsError reports whether an outcome counts against the error rate: all
// but ok, expected_error.
func (o Outcome) IsError() bool { return o != OK && o != ExpectedError }

// Counts holds one counter per outcome.
type Counts [NumOutcomes]int64

// Total is the sum over all outcomes.
func (c *Counts) Total() int64 {
	var t int64
	for _, n := range c {
		t += n
	}
	return t
}

// Errors is the number of reads whose outcome IsError.
func (c *Counts) Errors() int64 {
	var t int64
	for i, n := range c {
		if Outcome(i).IsError() {
			t += n
		}
	}
	return t
}

// Add adds o's counts into c.
func (c *Counts) Add(o *Counts) {
	for i := range c {
		c[i] += o[i]
	}
}

// Map returns the counts by name, every outcome present (zeros too), so a
// result file always has the same keys.
func (c *Counts) Map() map[string]int64 {
	m := make(map[string]int64, NumOutcomes)
	for i, n := range c {
		m[outcomeNames[i]] = n
	}
	return m
}

// CheckIdentity verifies scheduled = sum of outcomes: a read that was
// scheduled but never counted is lost data, and a run that loses data must
// say so instead of printing clean numbers.
func CheckIdentity(scheduled int64, c *Counts) error {
	if t := c.Total(); t != scheduled {
		return fmt.Errorf("accounting identity broken: %d reads scheduled, %d outcomes counted", scheduled, t)
	}
	return nil
}
