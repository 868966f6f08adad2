package results

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
)

// Strays is what the run's servers sent that a client can only skip
// (key "strays", added in v1: zeros in older files), counted over the
// whole run, handshakes and warmup included: a fact about the server,
// not a figure of the measured phase. The driver logs them as they come
// (paced); the result keeps the final count, so a run shows its total.
type Strays struct {
	// Lines a stdio server printed on stdout that are not JSON-RPC (its
	// log, a banner): the stdio transport carries JSON-RPC only.
	Lines int64 `json:"lines"`
	// UnknownIDAnswers are answers whose id matches no request readbench
	// sent (or no integer id: a string, null): answers to requests never
	// made.
	UnknownIDAnswers int64 `json:"unknown_id_answers"`
	// DuplicateAnswers are second answers to a request already answered
	// (or already given up on and its late answer counted).
	DuplicateAnswers int64 `json:"duplicate_answers"`
}

// Any says whether the server sent anything to skip.
func (s Strays) Any() bool { return s.Lines > 0 || s.UnknownIDAnswers > 0 || s.DuplicateAnswers > 0 }

// Add adds o's counts (shards and runs merged).
func (s *Strays) Add(o Strays) {
	s.Lines += o.Lines
	s.UnknownIDAnswers += o.UnknownIDAnswers
	s.DuplicateAnswers += o.DuplicateAnswers
}

// Text says the counts in one clause, "" when there are none: "2
// answers to ids never sent, 3 requests answered twice, 1 stdout line
// that is not JSON-RPC".
func (s Strays) Text() string {
	var parts []string
	if n := s.UnknownIDAnswers; n > 0 {
		parts = append(parts, fmt.Sprintf("%s to ids readbench never sent", counted(n, "answer")))
	}
	if n := s.DuplicateAnswers; n > 0 {
		parts = append(parts, fmt.Sprintf("%s answered twice", counted(n, "request")))
	}
	if n := s.Lines; n > 0 {
		parts = append(parts, fmt.Sprintf("%s on stdout that %s not JSON-RPC", counted(n, "line"), map[bool]string{true: "is", false: "are"}[n == 1]))
	}
	return strings.Join(parts, ", ")
}

// Reason is the health's reason for strays ("" when none): the server
// broke the protocol, readbench skipped what it sent, and the figures
// stand (HealthOf: a notice, never the state).
func (s Strays) Reason() string {
	if !s.Any() {
		return ""
	}
	return "the server sent what a client can only skip: " + s.Text() +
		"; each was skipped and every read matched its own answer, so the figures stand, but it breaks the protocol " +
		"(a JSON-RPC response answers one request, once; stdio carries JSON-RPC only) and a stricter client may fail on it"
}

// counted is n things in the number format: "1 answer", "1,204 answers".
func counted(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return numfmt.Count(n) + " " + thing + "s"
}
