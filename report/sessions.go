package report

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// What a new session costs, in every format: the handshake and first_read
// rows of the latency table, the note that says what their clocks are,
// the one header line that says a run went on with fewer sessions than
// asked or replaced sessions as it went (churn), and the compare rows.

// sessionRows are the handshake and first read rows of the latency table:
// shown when the run recorded any (a result written before they existed
// has none).
func sessionRows(r *results.Result) []namedLatency {
	var rows []namedLatency
	if r.Handshake.Count > 0 {
		rows = append(rows, namedLatency{name: "handshake", l: r.Handshake})
	}
	if r.FirstRead.Count > 0 {
		rows = append(rows, namedLatency{name: "first read", l: r.FirstRead})
	}
	return rows
}

// sessionNote says what the session rows hold, when there are any.
func sessionNote(r *results.Result) string {
	if r.Handshake.Count == 0 && r.FirstRead.Count == 0 {
		return ""
	}
	return "Handshake: opening each session, from its connect's start to the end of its handshake; " +
		"first read: the first read sent on each session, from its turn's intended start (also in all reads)."
}

// sessionsText is the header's sessions line: how many of how many
// connected and why the others did not, and with churn how many sessions
// were opened and replaced; "" for a run whose sessions all connected and
// lived the whole run.
func sessionsText(r *results.Result) string {
	s := r.Sessions
	var parts []string
	if s.Failed > 0 {
		why := make([]string, len(s.Errors))
		for i, e := range s.Errors {
			why[i] = fmt.Sprintf("%s× %s", numfmt.Count(e.Count), e.Message)
		}
		parts = append(parts, fmt.Sprintf("the run went on with %d of %d sessions: %d failed to connect (%s)",
			s.Connected, s.Asked, s.Failed, strings.Join(why, "; ")))
	}
	if s.Replaced > 0 || s.ReplaceFailed > 0 {
		c := fmt.Sprintf("churn: %s sessions opened, %s replaced", numfmt.Count(s.Opened), numfmt.Count(s.Replaced))
		if s.ReplaceFailed > 0 {
			c += fmt.Sprintf(", %s replacements failed to open", numfmt.Count(s.ReplaceFailed))
		}
		parts = append(parts, c+churnBy(r.Workload.Load))
	}
	return strings.Join(parts, "; ")
}

// churnBy names what replaced the sessions.
func churnBy(l workload.Load) string {
	var by []string
	if l.SessionTurns > 0 {
		by = append(by, fmt.Sprintf("every %d turns", l.SessionTurns))
	}
	if l.SessionLifetime > 0 {
		by = append(by, "after "+l.SessionLifetime.String())
	}
	if len(by) == 0 {
		return ""
	}
	return " (" + strings.Join(by, " or ") + ")"
}

// sessionBlockShown reports whether a compare latency block is one of the
// session blocks and either side recorded any of it.
func sessionBlockShown(l compare.LatencyDelta) bool {
	return (l.Block == "handshake" || l.Block == "first_read") && (l.BaseCount > 0 || l.NewCount > 0)
}
