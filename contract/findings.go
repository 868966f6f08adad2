package contract

import (
	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
)

// Status is how one contract check ended.
type Status string

// The statuses of a check: skip and n/a always come with the reason. Skip
// is a check that could not tell (nothing slow enough to cancel, no path
// to read); NotApplicable is one whose subject the server does not offer
// by its own declaration or design (no resources capability, no tools, a
// stateless session a cancel cannot name). Neither ever fails a check.
const (
	Pass          Status = "pass"
	Fail          Status = "fail"
	Skip          Status = "skip"
	NotApplicable Status = "n/a"
)

// Result is one row of the contract report.
type Result struct {
	Name   string
	Status Status
	URI    string // the resource, path or URI the check used, when one
	Detail string // what was seen, or why the check was skipped
}

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
	Checks      []Result
	// Auth is who the check obtained its tokens as (nil: no OAuth, or a
	// token source that cannot say), at its end: step-ups included.
	Auth *auth.Client
}

// Failed reports whether any check failed.
func (r *Findings) Failed() bool {
	for _, c := range r.Checks {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

func (r *Findings) add(name string, st Status, uri, detail string) {
	r.Checks = append(r.Checks, Result{Name: name, Status: st, URI: uri, Detail: detail})
}

// noteAuth records who t obtained its tokens as, when it can say: at the
// check's end, its step-ups included.
func (r *Findings) noteAuth(t auth.Tokens) {
	if d, ok := t.(auth.Describer); ok {
		c := d.Client()
		r.Auth = &c
	}
}
