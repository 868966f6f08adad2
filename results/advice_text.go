package results

import (
	"fmt"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// The reasoning of the policy advice: the one place its sentences are
// written. stats.Advise computes the figures and knows no English; the
// sentences are written here, once, when Build makes the document, and
// stored in its "advice.reasoning" key (part of the v1 schema). Every
// report (table, markdown, HTML, JSON) prints those stored sentences, so a
// result says the same thing in every format, and an old result keeps
// saying what it said when it was made.
//
// They live in results rather than in package report because the document
// stores them and report imports results, never the other way round. The
// numbers in them use the reports' one format (internal/numfmt): a
// latency reads "40.0ms" in a sentence as in a table.

// adviceReasoning explains a in plain sentences, in the order a reader
// needs them: what the configured limits did, what the run cannot price,
// the timeout and the deadline with the rule behind each, and the
// warnings about figures that rest on few samples.
func adviceReasoning(a stats.Advice) []string { return adviceReasoningFor(a, "") }

// adviceReasoningFor is adviceReasoning for a run whose health says its
// figures cannot size limits (unsized, the sentence that says why: an
// overloaded or failing run, unsizedText): the limits are priced, then
// that sentence stands where the recommendation would.
func adviceReasoningFor(a stats.Advice, unsized string) []string {
	out := []string{}
	say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	dl, to := a.ConfiguredDeadline, a.ConfiguredTimeout
	if dl > 0 || to > 0 {
		say("Configured: deadline %s cut or outlasted %s of turns; timeout %s ended %s of reads.",
			limit(dl), numfmt.Opt(share(a.DeadlineShare, a.Turns), numfmt.Share), limit(to), numfmt.Opt(share(a.TimeoutShare, a.Sent), numfmt.Share))
	}
	if dl > 0 {
		say("Deadlines above %s cannot be priced: cut turns are recorded at %s, so a longer one "+
			"would cut at most %s.", dur(dl), dur(dl), numfmt.Opt(share(a.DeadlineShare, a.Turns), numfmt.Share))
	}
	if a.Dropped > 0 {
		say("readbench itself dropped %s of %s turns (%s) before sending them: max_in_flight %s caps the turns in flight, "+
			"and a turn whose deadline passed before its send is dropped too. The deadline did not cut them, so they are "+
			"not charged to it: the deadline figures are of the %s turns that started.",
			numfmt.Count(a.Dropped), numfmt.Count(a.Dropped+a.Turns), numfmt.Share(a.DroppedShare), capText(a.MaxInFlight),
			numfmt.Count(a.Turns))
	}
	if a.TimeoutsLowerBound {
		say("%d reads were cancelled at the deadline before a timeout above %s could act: "+
			"those timeouts' shares are lower bounds.", a.Cancelled, dur(dl))
	}

	if a.Noisy {
		say("No deadline or timeout is recommended: figures readbench could not drive as asked say nothing of the server.")
		return out
	}
	if unsized != "" {
		say("%s", unsized)
		return out
	}
	if a.Unfounded {
		say("%s", unfoundedText(a))
		return out
	}
	tail, p99, most := "read", a.ReadP99, a.ReadMax
	if a.OnService {
		tail, p99, most = "service", a.ServiceP99, a.ServiceMax
	}
	// From here on at least stats.MinAdviceReads reads answered with a document.
	say("Timeout %s = max(%d x %s p99 %s, %d x %s max %s, %s), rounded up: it separates slow "+
		"from never, so it sits far above the read tail; near it, it would fail healthy reads.",
		dur(a.Timeout), stats.TimeoutOverP99, tail, dur(p99), stats.TimeoutOverMax, tail, dur(most),
		dur(stats.MinTimeout))
	if a.FewReads {
		out = append(out, fewSamples("read", a.Reads))
	}
	if a.Turns == 0 {
		say("No turn finished: there is no turn tail to size a deadline on.")
		return out
	}
	n := a.Parallel
	say("%d parallel reads: P(turn <= d) = P(read <= d)^%d, so the read p99 (%s) is the turn's p%s "+
		"(0.99^%d) and the turn p99 is the read p%s (0.99^(1/%d)) = %s; measured turn p99 %s.",
		n, n, dur(a.ReadP99), numfmt.Percentile(a.ReadP99AsTurnQuantile), n,
		numfmt.Percentile(a.TurnP99AsReadQuantile), n, dur(a.TurnP99FromReads), dur(a.TurnP99))
	if a.DeadlineIsFloor {
		say("%s of the turns that started were cut at %s: the turn p99 is at least that and its true value unknown, "+
			"so the deadline below is a floor; rerun with a longer one to measure the tail.",
			numfmt.Share(a.CutShare), dur(dl))
	}
	say("Deadline %s = %d x the turn tail %s, rounded up; never the read median %s: all %d reads "+
		"beat it only 0.5^%d = %s of the time.",
		dur(a.Deadline), stats.DeadlineHeadway, dur(a.Tail), dur(a.ReadP50), n, n, numfmt.Share(a.AllBeatMedian))
	if a.FewTurns {
		out = append(out, fewSamples("turn", a.Turns))
	}
	if a.TimeoutRaised {
		say("The timeout is raised to the deadline: a shorter one would fail reads the turn still waits for.")
	}
	say("The server sets the deadline's floor; the user's patience sets its ceiling.")
	return out
}

// generatorReasons are the sentences that come first when readbench's
// own lag or schedule bears on the advice: a run too noisy to advise from
// says why, and a timeout sized on service time says so and how much of
// the read figures was lag.
func generatorReasons(a stats.Advice, g GeneratorFinding) []string {
	out := []string{}
	if a.Noisy {
		out = append(out, fmt.Sprintf("This run is too noisy to advise from: readbench could not keep its schedule: it %s. "+
			"The limits are priced as measured, for reference; rerun at a rate readbench keeps (a lower rate, or a quieter machine) "+
			"before choosing one.", strings.Join(g.Why, "; ")))
	}
	if a.OnService {
		out = append(out, fmt.Sprintf("readbench's own scheduling lag is %s of the read figures (up to %s of the "+
			"read p99, %s of the p50): the timeout, which runs from the send, is sized and priced on service time "+
			"(actual send to last byte), not on read latency from the intended start.",
			numfmt.Share(g.LagShare), dur(time.Duration(g.JitterP99Ms*float64(time.Millisecond))),
			dur(time.Duration(g.JitterP50Ms*float64(time.Millisecond)))))
	}
	return out
}

// unsizedText is the advice's sentence for a run whose health says its
// figures cannot size a deadline or a timeout, "" for one whose can: an
// overloaded run's tail is the queue of a server past what it holds (and
// its cut turns sit at the deadline, a floor), which limits sized on it
// would enshrine; a failing run's answers are errors, and limits are
// sized on documents served.
func unsizedText(h Health) string {
	what := strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(h.Line, h.Mark())), string(h.Health)+": ")
	switch h.Health {
	case StateOverloaded:
		return "No deadline or timeout is recommended: the run was overloaded (" + what + "): its latency is the queue of a " +
			"server past the load it holds, and its cut turns are recorded at the deadline, so its figures cannot size " +
			"limits. Rerun at a rate the server holds (readbench capacity finds it) and size them on that run."
	case StateFailing:
		return "No deadline or timeout is recommended: the run was failing (" + what + "): limits are sized on documents " +
			"served, never on errors. Fix what failed, then rerun."
	}
	return ""
}

// capText is a max_in_flight cap as the sentences quote it.
func capText(n int) string {
	if n <= 0 {
		return "(none set)"
	}
	return fmt.Sprint(n)
}

// fewSamples warns that the p99 of what rests on n samples, too few to
// trust: the slowest ceil(n/100) of them decide it.
func fewSamples(what string, n int64) string {
	return fmt.Sprintf("The %s p99 rests on %d samples (fewer than %d; its slowest %d decide it): a rough figure, "+
		"run longer before relying on it.", what, n, stats.MinSamples, (n+99)/100)
}

// dur writes a duration in the reports' format ("40.0ms", "5.00s").
func dur(d time.Duration) string { return numfmt.Ms(stats.Millis(d)) }

// limit writes a configured limit, "none" when there is none.
func limit(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return dur(d)
}

// unfoundedText says why nothing was recommended when too few reads were
// answered with a document: limits are sized on documents served, never
// on errors (often fast: a deadline sized on them is sized on how quickly
// the server says no).
func unfoundedText(a stats.Advice) string {
	if a.Reads < stats.MinAdviceReads && 2*a.Reads >= a.Judged {
		return fmt.Sprintf("No deadline or timeout is recommended: only %s reads were answered with a document, "+
			"fewer than the %d a read tail needs; run longer.", numfmt.Count(a.Reads), stats.MinAdviceReads)
	}
	return fmt.Sprintf("No deadline or timeout is recommended: only %s of the %s reads sent (expected errors aside) were answered "+
		"with a document; limits are sized on documents served, never on errors. See the outcomes for what failed.",
		numfmt.Count(a.Reads), numfmt.Count(a.Judged))
}
