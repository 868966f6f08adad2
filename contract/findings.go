package contract

import (
	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

// Findings is what Check found: plain data, rendered by the caller (the
// contract knows nothing of output formats).
type Findings struct {
	Target          targets.Target
	Server          client.Implementation
	ProtocolVersion string
	Modern          bool // the stateless 2026-07-28 era
	// Unreachable is why the target could not be reached at all (nothing
	// listens there, its command does not start): "" when it was. No
	// check ran then, so none can say the server breaks the contract.
	Unreachable string
	Checks      []results.Check // the rows, in the order they ran
	// Auth is who the check obtained its tokens as (nil: no OAuth, or a
	// token source that cannot say), at its end: step-ups included.
	Auth *auth.Client
}

// Failed reports whether any check failed.
func (r *Findings) Failed() bool {
	for _, c := range r.Checks {
		if c.Status == results.CheckFail {
			return true
		}
	}
	return false
}

func (r *Findings) add(name string, st results.CheckStatus, uri, detail string) {
	r.Checks = append(r.Checks, results.Check{Name: name, Status: st, URI: uri, Detail: detail})
}

// noteAuth records who t obtained its tokens as, when it can say: at the
// check's end, its step-ups included.
func (r *Findings) noteAuth(t auth.Tokens) {
	if d, ok := t.(auth.Describer); ok {
		c := d.Client()
		r.Auth = &c
	}
}
