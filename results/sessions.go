package results

import (
	"cmp"
	"slices"
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
