package results

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Sessions is how a run's sessions went (key "sessions", added in v1):
// how many were asked for (workload.sessions, this shard's share),
// connected and failed before the schedule, why the failures failed
// (grouped by message, the most frequent first), and, with churn
// (load.session_turns, load.session_lifetime), how many sessions were
// opened in all, how many were replaced and how many replacements failed
// to open. A run that went on with fewer sessions than asked
// (load.min_sessions) says so here and in its report.
type Sessions struct {
	Asked         int            `json:"asked"`
	Connected     int            `json:"connected"`
	Failed        int            `json:"failed"`
	Errors        []SessionError `json:"errors"`
	Opened        int64          `json:"opened"`
	Replaced      int64          `json:"replaced"`
	ReplaceFailed int64          `json:"replace_failed"`
}

// SessionError is one reason sessions failed to connect, and how many.
type SessionError struct {
	Message string `json:"message"`
	Count   int64  `json:"count"`
}

// Line says in one line how many of how many sessions connected and why
// the others did not: "37 of 40 sessions connected, 3 failed: 3× no answer…".
func (s Sessions) Line() string {
	line := fmt.Sprintf("%d of %d sessions connected, %d failed", s.Connected, s.Asked, s.Failed)
	if len(s.Errors) == 0 {
		return line
	}
	parts := make([]string, len(s.Errors))
	for i, e := range s.Errors {
		parts[i] = fmt.Sprintf("%d× %s", e.Count, e.Message)
	}
	return line + ": " + strings.Join(parts, "; ")
}

// Short reports whether fewer sessions connected than were asked for.
func (s Sessions) Short() bool { return s.Failed > 0 }

// mergeSessions adds the sessions of shards: counts add, reasons of the
// same message add.
func mergeSessions(all []Sessions) Sessions {
	out := Sessions{Errors: []SessionError{}}
	by := map[string]int64{}
	for _, s := range all {
		out.Asked += s.Asked
		out.Connected += s.Connected
		out.Failed += s.Failed
		out.Opened += s.Opened
		out.Replaced += s.Replaced
		out.ReplaceFailed += s.ReplaceFailed
		for _, e := range s.Errors {
			by[e.Message] += e.Count
		}
	}
	for msg, n := range by {
		out.Errors = append(out.Errors, SessionError{Message: msg, Count: n})
	}
	slices.SortFunc(out.Errors, func(a, b SessionError) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Message, b.Message))
	})
	return out
}
