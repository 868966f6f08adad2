package results

import "github.com/readbench/readbench/auth"

// The document of `readbench check`: what a target's read contract check
// found. Like a result it is a document and nothing else; package report
// writes it as a table for people or as JSON for CI.

// CheckSchema names the version of the JSON that readbench check prints,
// so that a CI step parsing it can tell when its shape changes.
const CheckSchema = "readbench/check/v1"

// CheckStatus is how one check of `readbench check` ended, as printed: a
// CI step greps for fail, a person reads FAIL. The check fills it
// directly (package contract), so a row has one type from the check to
// the document.
type CheckStatus string

// The statuses of a check: skip and n/a always come with the reason. Skip
// is a check that could not tell (nothing slow enough to cancel, no path
// to read); n/a one whose subject the server does not offer by its own
// declaration or design (no resources capability, no tools, a stateless
// session a cancel cannot name). Neither ever fails a check.
const (
	CheckPass CheckStatus = "pass"
	CheckFail CheckStatus = "fail"
	CheckSkip CheckStatus = "skip"
	CheckNA   CheckStatus = "n/a"
)

// CheckDocument is the readbench/check/v1 document: what readbench check
// found about a target's read contract, one entry per check, and the
// target as a result records it.
type CheckDocument struct {
	Schema string `json:"schema"`
	Tool   Tool   `json:"tool"`
	Target Target `json:"target"`
	Era    string `json:"era,omitempty"` // "stateless" (2026-07-28) or "handshake"
	Pass   bool   `json:"pass"`          // no check failed
	// Unreachable is why the target could not be reached at all (a
	// refused connection, a command that does not exist): no check ran.
	// Omitted when the target was reached.
	Unreachable string `json:"unreachable,omitempty"`
	// Auth is the authorization the check found and used: who it got its
	// tokens as (issuer, client, grant, scope granted, step-ups). Omitted
	// without OAuth.
	Auth    *auth.Client `json:"auth,omitempty"`
	Summary CheckSummary `json:"summary"`
	Checks  []Check      `json:"checks"`
}

// CheckSummary counts the checks by status.
type CheckSummary struct {
	Pass int `json:"pass"`
	Fail int `json:"fail"`
	Skip int `json:"skip"`
	NA   int `json:"na"` // not applicable
}

// Check is one row: what was checked, how it ended, on which URI or path,
// and what was seen (or why it was skipped or is not applicable).
type Check struct {
	Name   string      `json:"name"`
	Status CheckStatus `json:"status"`
	URI    string      `json:"uri,omitempty"`
	Detail string      `json:"detail"`
}

// Finish fills the schema, the summary and the verdict from the checks,
// so the counts and the verdict can never disagree with the rows.
func (r *CheckDocument) Finish() {
	r.Schema = CheckSchema
	r.Summary = CheckSummary{}
	for _, c := range r.Checks {
		switch c.Status {
		case CheckPass:
			r.Summary.Pass++
		case CheckFail:
			r.Summary.Fail++
		case CheckNA:
			r.Summary.NA++
		default:
			r.Summary.Skip++
		}
	}
	r.Pass = r.Summary.Fail == 0
}
