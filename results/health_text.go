package results

import (
	"fmt"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// The sentences of the health (health.go): written once, when the result
// is built or loaded, and printed as stored by every report.

// outcomeMeaning is what an unexpected error outcome usually means, for
// the line that names it: the first thing to check.
func outcomeMeaning(o stats.Outcome) string {
	switch o {
	case stats.NotFound:
		return "the workload's URIs are not on this server (readbench init --target T writes a workload from what it lists)"
	case stats.MethodNotFound:
		return "the server does not implement resources/read"
	case stats.InvalidParams:
		return "the server refused the reads' parameters (malformed URIs, or another protocol era's)"
	case stats.Internal:
		return "the server failed while reading (-32603): see its log"
	case stats.RPCError:
		return "the server answered error codes of its own: see its log"
	case stats.InputRequired:
		return "the server asks for user input a load test cannot give"
	case stats.Unauthorized:
		return "the server refused the credentials (a missing or expired token: readbench login, --header)"
	case stats.Transport:
		return "the connection or the server process failed (the server died, refused or closed connections)"
	case stats.Protocol:
		return "the answers were not valid JSON-RPC or not usable documents (see the shape findings)"
	}
	return ""
}

// limitText is a configured limit as the sentences quote it: "the 800ms
// deadline"; "the deadline" when the document does not say.
func limitText(d time.Duration, what string) string {
	if d > 0 {
		return "the " + numfmt.Ms(stats.Millis(d)) + " " + what
	}
	return "the " + what
}

// servedText is the rate of reads served (ok, or the expected error)
// against the rate of reads asked: "219 reads/s served of 600 asked";
// "" when no time was measured.
func servedText(r *Result, c healthCounts) string {
	t := r.Totals
	if t.MeasuredS <= 0 {
		return ""
	}
	s := numfmt.Sig3(float64(c.served)/t.MeasuredS) + " reads/s served"
	if t.AskedRate > 0 && t.Turns > 0 {
		s += " of " + numfmt.Sig3(t.AskedRate*float64(t.Scheduled)/float64(t.Turns)) + " asked"
	}
	return s
}

// joinParts joins the non-empty parts of a line with "; ".
func joinParts(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// overloadText is the overloaded line: how many turns were cut or
// dropped, reads timed out, and what was served of what was asked.
func overloadText(r *Result, c healthCounts) string {
	t := r.Totals
	var cut, dropped, timedOut string
	if n := t.TurnEnds.Cut; n > 0 {
		cut = numfmt.Percent(n, c.turns) + " of turns cut at " + limitText(r.Workload.Turn.Deadline, "deadline")
	}
	if n := t.TurnEnds.Dropped; n > 0 {
		dropped = numfmt.Percent(n, c.turns) + " of turns dropped before they started"
	}
	if atLeast(c.timeouts, c.sent, NoticeShare) {
		timedOut = numfmt.Percent(c.timeouts, c.sent) + " of reads timed out at " + limitText(r.Workload.Turn.ReadTimeout, "read timeout")
	}
	return joinParts(cut, dropped, timedOut, servedText(r, c))
}

// healthyText is the healthy line: the turns that completed (and, when
// some were cut, how many, under the share of overload), the errors when
// they are worth a mark, and what was served.
func healthyText(r *Result, c healthCounts) string {
	complete := numfmt.Percent(r.Totals.TurnEnds.Complete, c.turns) + " of turns complete"
	if atLeast(c.cutDropped, c.turns, NoticeShare) {
		complete += fmt.Sprintf(" (%s cut or dropped, under %s)", numfmt.Count(c.cutDropped), sharePct(OverloadShare))
	}
	if c.turns == 0 {
		complete = ""
	}
	var errs, unmet string
	if atLeast(c.unexpected, c.sent, NoticeShare) {
		errs = fmt.Sprintf("%s of reads sent failed, most of them %s", numfmt.Percent(c.unexpected, c.sent), c.top)
	}
	if atLeast(c.unmetOK, c.sent, NoticeShare) || c.neverMet {
		unmet = unmetText(c.unmet)
	}
	return joinParts(complete, errs, unmet, servedText(r, c))
}

// failingText is the failing line: the share of reads sent that failed,
// the outcome most of them had and what it usually means; or, when ok
// answers to classes that expected an error are most of those answered
// wrong, the share answered other than expected and the class that says
// it.
func failingText(c healthCounts) string {
	if c.unmetOK >= c.topN {
		return fmt.Sprintf("%s of reads sent were answered other than their class expects: %s",
			numfmt.Percent(c.wrong(), c.sent), unmetText(c.unmet))
	}
	share := numfmt.Percent(c.unexpected, c.sent)
	s := share + " of reads sent failed, all " + c.top.String()
	if c.topN < c.unexpected {
		s = fmt.Sprintf("%s of reads sent failed, most of them %s (%s)", share, c.top, numfmt.Percent(c.topN, c.sent))
	}
	if m := outcomeMeaning(c.top); m != "" {
		s += ": " + m
	}
	return s
}

// errorsReason is the reason that counts the unexpected errors, "" when
// there were none.
func errorsReason(c healthCounts) string {
	if c.unexpected == 0 {
		return ""
	}
	return fmt.Sprintf("%s of %s reads sent (%s) answered an unexpected error, most of them %s: %s",
		numfmt.Count(c.unexpected), numfmt.Count(c.sent), numfmt.Percent(c.unexpected, c.sent), c.top, outcomeMeaning(c.top))
}

// loadReasons are the sentences on how the load fared: how turns ended,
// reads timed out, and what was served of what was asked.
func loadReasons(r *Result, c healthCounts) []string {
	t := r.Totals
	e := t.TurnEnds
	out := []string{}
	say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if c.turns > 0 {
		say("%s of %s turns (%s) completed", numfmt.Count(e.Complete), numfmt.Count(c.turns), numfmt.Percent(e.Complete, c.turns))
	}
	if e.Cut > 0 {
		say("%s turns (%s) were cut at %s", numfmt.Count(e.Cut), numfmt.Percent(e.Cut, c.turns), limitText(r.Workload.Turn.Deadline, "deadline"))
	}
	if e.Dropped > 0 {
		say("%s turns (%s) were dropped before they started (max_in_flight %s, or their deadline passed before the send)",
			numfmt.Count(e.Dropped), numfmt.Percent(e.Dropped, c.turns), capText(r.Workload.Load.MaxInFlight))
	}
	if e.Failed > 0 {
		say("%s turns (%s) failed (a read timed out, or its connection, protocol or authorization failed)",
			numfmt.Count(e.Failed), numfmt.Percent(e.Failed, c.turns))
	}
	if c.timeouts > 0 {
		say("%s of %s reads sent (%s) timed out at %s", numfmt.Count(c.timeouts), numfmt.Count(c.sent),
			numfmt.Percent(c.timeouts, c.sent), limitText(r.Workload.Turn.ReadTimeout, "read timeout"))
	}
	if c.cutDropped > 0 && !atLeast(c.cutDropped, c.turns, OverloadShare) {
		say("cut and dropped turns are under the %s of turns from which a run is overloaded", sharePct(OverloadShare))
	}
	if s := servedText(r, c); s != "" {
		say("%s (served: answered ok or with the expected error)", s)
	}
	return out
}

// sharePct writes one of the health's shares as the sentences quote it:
// "5%".
func sharePct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }
