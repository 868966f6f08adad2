package results

import (
	"fmt"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// Useless says, in one line, why a run measured nothing a reader can use,
// "" when it measured something: its counts do not add up (the
// accounting identity), no read was sent (every one dropped,
// or none scheduled), or every read sent failed (no ok answer and no
// expected error). Such a run fails whatever its thresholds say (readbench run
// exits 1 with this line after saving the result): its latency figures,
// if any, are those of error answers, and its advice sizes nothing.
func Useless(t Totals) string {
	dropped := t.Outcomes[stats.Dropped.String()]
	sent := t.Scheduled - dropped
	good := t.Outcomes[stats.OK.String()] + t.Outcomes[stats.ExpectedError.String()]
	switch {
	case identity(t.Scheduled, t.Outcomes) != nil:
		var counted int64
		for _, n := range t.Outcomes {
			counted += n
		}
		return fmt.Sprintf("readbench lost count of reads: %s scheduled, %s outcomes counted (the accounting identity is broken: the figures cannot be trusted)",
			numfmt.Count(t.Scheduled), numfmt.Count(counted))
	case t.Scheduled == 0:
		return "no read was scheduled: the run was too short for its rate"
	case sent <= 0:
		return fmt.Sprintf("no read was sent: all %s scheduled reads were dropped (the generator could not start them in time; lower --rate or raise max_in_flight)",
			numfmt.Count(t.Scheduled))
	case good > 0:
		return ""
	}
	worst, n := "", int64(0)
	for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
		if o != stats.Dropped && o.IsError() && t.Outcomes[o.String()] > n {
			worst, n = o.String(), t.Outcomes[o.String()]
		}
	}
	why := fmt.Sprintf("no read succeeded: all %s reads sent failed, most of them %s (%s)",
		numfmt.Count(sent), worst, numfmt.Percent(n, sent))
	if worst == stats.MethodNotFound.String() {
		why += ": the server does not implement resources/read"
	}
	return why
}

// methodNotFoundReason is the advice's sentence about a server that
// answered reads with -32601: one fact about the server, said once, so
// that no figure of the run is read as the cost of reading.
func methodNotFoundReason(n, scheduled int64) string {
	return fmt.Sprintf("The server does not implement resources/read: %s reads (%s) answered -32601 Method not found, "+
		"so nothing was read and no figure here is the cost of a read; nothing in this advice applies to it.",
		numfmt.Count(n), numfmt.Percent(n, scheduled))
}
