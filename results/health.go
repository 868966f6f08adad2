package results

import (
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// The run's health: the one sentence every report opens with and the
// result's "verdict" key, so that an overloaded or failing run never
// reads as a healthy one whatever its tiles say. It is decided here, from
// the document alone (HealthOf), so a run, a merged result, a capacity
// step and a result written before the key all say it the same way.

// State is a run's health in one word.
type State string

// The states, from best to worst. A run is exactly one of them; the first
// that applies, from the bottom up, is the one (HealthOf says why in this
// order).
const (
	// StateHealthy: the server carried the load asked, the turns
	// completed and the reads were answered as expected.
	StateHealthy State = "healthy"
	// StateGeneratorBound: readbench could not keep its own schedule
	// (results.GeneratorFinding: too few turns scheduled, a lag that grew,
	// reads reached only past their deadline), so the server did not get
	// the load asked and whether it holds it is unknown. It wins over
	// overloaded: a read sent late carries its lateness to the deadline,
	// so cut turns and drops cannot be charged to the server.
	StateGeneratorBound State = "generator_bound"
	// StateOverloaded: the server did not keep up with the load asked:
	// at least OverloadShare of the turns were cut at the deadline or
	// dropped, or of the reads sent timed out.
	StateOverloaded State = "overloaded"
	// StateFailing: most reads sent (more than half) answered an
	// unexpected error, or ok where their class expected an error (an
	// unmet expect: expect.go): the server or the workload is wrong,
	// whatever the latency says.
	StateFailing State = "failing"
	// StateUseless: the run measured nothing a reader can use (Useless:
	// nothing scheduled, nothing sent, no read succeeded).
	StateUseless State = "useless"
)

// The shares the health is decided on, exported for the sentences and
// tests that quote them.
const (
	// OverloadShare is the share of turns cut at the deadline or dropped
	// (or of reads sent that timed out) from which a run is overloaded:
	// at 5% the turn p95 is the deadline, one message in twenty loses an
	// attachment; it is also the share of reads readbench may drop itself
	// (MaxDroppedShare). Below it, cut turns are a tail that a busy machine
	// makes too (a GC pause, a contended CPU): the line says them, the
	// run stays healthy.
	OverloadShare = 0.05
	// NoticeShare is the share of turns cut or dropped, of reads timed out
	// or of reads sent with an unexpected error (or ok where an error was
	// expected) from which a healthy run's line carries "!" and the figure
	// rather than "✓". A class whose expect no answer met gives "!"
	// whatever its share.
	NoticeShare = 0.01
)

// Health is the result's "verdict" key: the run's health, the one line
// every report opens with, and the reasons behind it, the deciding one
// first. MostFailed says that most of the run failed: more than half of
// its turns did not complete (cut, failed or dropped) or more than half
// of its reads sent answered an unexpected error (or ok where their class
// expected an error); without thresholds such
// a run exits 1 with Line (results.Judge). Added in v1: a result written
// before it gets it computed when it is loaded.
type Health struct {
	Health     State    `json:"health"`
	Line       string   `json:"line"`
	Reasons    []string `json:"reasons"`
	MostFailed bool     `json:"most_failed"`
}

// Mark is the line's text mark: ✓ healthy with nothing to say, ✗ a run
// that failed (useless, failing, or most of it failed), ! anything
// between.
func (h Health) Mark() string {
	if i := strings.IndexByte(h.Line, ' '); i > 0 {
		return h.Line[:i]
	}
	return ""
}

// Class is the line's colour on a page: "pass", "fail" or "warn".
func (h Health) Class() string {
	switch h.Mark() {
	case "✓":
		return "pass"
	case "✗":
		return "fail"
	}
	return "warn"
}

// healthCounts is what the health is read from: the measured phase's totals.
type healthCounts struct {
	sent, served, unexpected, timeouts int64
	turns, notComplete, cutDropped     int64
	top                                stats.Outcome // the most frequent unexpected error
	topN                               int64
	// unmet are the classes whose expect some answer did not meet
	// (expect.go); unmetOK counts their ok answers (the unmet answers
	// that are no error, so not in unexpected), and neverMet says that
	// some class's expectation was met by none of its answers.
	unmet    []unmetClass
	unmetOK  int64
	neverMet bool
}

// wrong is the reads sent that were answered wrong: an unexpected error,
// or ok where the class expected an error.
func (c healthCounts) wrong() int64 { return c.unexpected + c.unmetOK }

func healthCountsOf(r *Result) healthCounts {
	t := r.Totals
	c := healthCounts{
		sent:     t.Scheduled - t.Outcomes[stats.Dropped.String()],
		served:   t.Outcomes[stats.OK.String()] + t.Outcomes[stats.ExpectedError.String()],
		timeouts: t.Outcomes[stats.Timeout.String()],
		turns:    t.Turns,
	}
	e := t.TurnEnds
	c.notComplete, c.cutDropped = e.Cut+e.Failed+e.Dropped, e.Cut+e.Dropped
	for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
		if !unexpected(o) {
			continue
		}
		n := t.Outcomes[o.String()]
		c.unexpected += n
		if n > c.topN {
			c.top, c.topN = o, n
		}
	}
	c.unmet = unmetClasses(r)
	c.unmetOK, c.neverMet = unmetSummary(c.unmet)
	return c
}

// unexpected says whether o is an error the server answered (or a
// failure of the exchange), as opposed to a read the deadline, the
// timeout or readbench itself ended: those are the load's, not errors.
func unexpected(o stats.Outcome) bool {
	return o.IsError() && o != stats.Timeout && o != stats.Cancelled && o != stats.Dropped
}

// atLeast says whether part is at least share of whole (false on none).
func atLeast(part, whole int64, share float64) bool {
	return whole > 0 && float64(part) >= share*float64(whole)
}

// most says whether part is more than half of whole: exactly half is not
// most.
func most(part, whole int64) bool { return whole > 0 && 2*part > whole }

// HealthOf decides the health of r from the document alone, in this
// order: useless (nothing usable was measured), failing (most reads sent
// answered an unexpected error: the answers are the server's whatever the
// pace), generator-bound (readbench did not deliver the schedule, so
// overload cannot be charged to the server), overloaded (OverloadShare of
// turns cut or dropped, or of reads timed out), healthy.
func HealthOf(r *Result) Health {
	t := r.Totals
	c := healthCountsOf(r)
	h := Health{Reasons: []string{}}
	h.MostFailed = most(c.notComplete, c.turns) || most(c.wrong(), c.sent)
	load := loadReasons(r, c)
	g := judgeGenerator(r)
	switch why := Useless(t); {
	case why != "":
		h.Health = StateUseless
		h.Line = "useless: " + why
		h.Reasons = append(append(h.Reasons, why), load...)
	case most(c.wrong(), c.sent):
		h.Health = StateFailing
		h.Line = "failing: " + failingText(c)
		h.Reasons = append(append(h.Reasons, failingText(c)), load...)
	case g.Unscheduled || g.LagGrowing || g.LateDropped:
		h.Health = StateGeneratorBound
		h.Line = "generator-bound: readbench could not keep its schedule, so the server's health is unknown"
		h.Reasons = append(append(h.Reasons, "readbench "+strings.Join(g.Why, "; ")+
			": the server did not get the load asked, and cut or dropped turns cannot be charged to it"), load...)
	case atLeast(c.cutDropped, c.turns, OverloadShare) || atLeast(c.timeouts, c.sent, OverloadShare):
		h.Health = StateOverloaded
		h.Line = "overloaded: " + overloadText(r, c)
		h.Reasons = append(h.Reasons, load...)
	default:
		h.Health = StateHealthy
		h.Line = "healthy: " + healthyText(r, c)
		h.Reasons = append(h.Reasons, load...)
	}
	if e := errorsReason(c); e != "" && h.Health != StateFailing {
		h.Reasons = append(h.Reasons, e)
	}
	h.Reasons = append(h.Reasons, unmetReasons(c.unmet)...)
	if why := r.Strays.Reason(); why != "" {
		h.Reasons = append(h.Reasons, why) // a notice: marked "!", never the state (Strays.Reason)
	}
	if r.Partial {
		h.Line += "; partial (" + numfmt.Seconds(t.MeasuredS) + ")"
		h.Reasons = append(h.Reasons, "the run was interrupted: the health is that of its first "+numfmt.Seconds(t.MeasuredS))
	}
	clause, subReasons, subMark := subscriptionsHealth(r.Subscriptions) // health_subscriptions.go
	h.Reasons = append(h.Reasons, subReasons...)
	if clause != "" {
		h.Line += "; " + clause
	}
	mark := healthMark(h, c, r.Strays.Any())
	if mark == "✓" && subMark {
		mark = "!"
	}
	h.Line = mark + " " + h.Line
	return h
}

// healthMark is the line's mark (Health.Mark): a healthy run whose
// server broke the protocol (strays: answers to requests never made,
// requests answered twice, stdout lines that are not JSON-RPC) carries
// "!", not "✓": its load figures stand, its server is not clean.
func healthMark(h Health, c healthCounts, strays bool) string {
	switch {
	case h.Health == StateUseless || h.Health == StateFailing || h.MostFailed:
		return "✗"
	case h.Health != StateHealthy:
		return "!"
	case atLeast(c.cutDropped, c.turns, NoticeShare) || atLeast(c.timeouts, c.sent, NoticeShare) ||
		atLeast(c.wrong(), c.sent, NoticeShare) || c.neverMet || strays:
		return "!"
	}
	return "✓"
}

// FailsRun says whether the health alone fails the run it describes
// (results.Judge): a useless run whatever its thresholds; held to none
// (bounded false), one most of which failed.
func (h Health) FailsRun(bounded bool) bool {
	return h.Health == StateUseless || (!bounded && h.MostFailed)
}

// EnsureHealth gives r its verdict when it has none (a result written
// before the key, or built by hand), and returns it.
func (r *Result) EnsureHealth() Health {
	if r.Health.Health == "" {
		r.Health = HealthOf(r)
	}
	return r.Health
}
