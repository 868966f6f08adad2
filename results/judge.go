package results

import (
	"errors"
	"fmt"
	"strings"

	"github.com/readbench/readbench/bounds"
)

// How a run ends: the one rule behind both the exit status of a command
// (results.Judge hands it on) and the first and last line of every view of
// the run's result (the terminal report, markdown, the HTML page's banner
// and title, JUnit's suite). It lives here, beside the document, because
// the views know only the document: deciding the exit in one place and
// the headline in another let a run that exits 1 open and close with
// "✓ healthy" (issue 46, item 3).

// Exit is how a job ended for the command that made it: what its exit
// code says (README, "Exit codes").
type Exit int

// The statuses, from best to worst for a CI job.
const (
	Passed      Exit = iota // every check held
	Failed                  // a broken threshold, a broken identity, a run that measured nothing usable
	Misused                 // the thresholds name what the result lacks (a class, a turn size): bad input
	Interrupted             // this process was interrupted: the result is partial
	// NotSaved: the run measured, but its result could not be saved where
	// it was asked (a full disk, a name another run took): it went to a
	// fallback file, or nowhere. A CI job must not take the missing file
	// for a pass, nor a run that measured for one that could not run.
	NotSaved
)

// Judgement is what a saved result came to: its exit, the reason for
// it (the exit message; "" when it passed), the findings that a worse
// one outranked, which are said first (a broken threshold of an
// interrupted run), and Line, the verdict as every view opens and ends
// with it: a mark (✓, ! or ✗) and the deciding finding, ✗ exactly when
// the exit is not Passed.
type Judgement struct {
	Exit   Exit
	Reason string
	Also   []string
	Line   string
}

// Facts are what the result alone does not say of how it was made.
type Facts struct {
	// Interrupted: this process was interrupted, so the result is partial
	// (a merged result that is partial was interrupted elsewhere: it fails).
	Interrupted bool
	// Part: the result is one of a command's many (a capacity step, a run
	// of an ab round), judged together by the command: a run of it that
	// measured nothing usable is a finding, not a failure.
	Part bool
	// Thresholds is how evaluating the thresholds went (nil: they were
	// evaluated, the verdicts are in the result).
	Thresholds error
	// Bounded: the run is held to thresholds (a shard's too, though merge
	// evaluates them on the whole run), so they alone decide whether a run
	// that measured something fails; without them, its health does.
	Bounded bool
}

// FactsOf are the facts of a saved result read back on its own (readbench
// report): interrupted when partial, unless it was merged from shards (a
// shard was, elsewhere); held to thresholds when it holds verdicts.
func FactsOf(r *Result) Facts {
	return Facts{Interrupted: r.Partial && len(r.Shards) == 0, Bounded: len(r.Thresholds) > 0}
}

// Judge decides what a saved result comes to, the one rule for every
// command, in this order: a broken accounting identity fails first (the
// figures cannot be trusted); thresholds that name what the result lacks
// are bad input; an interrupted run is interrupted, whatever was
// measured; a whole run that measured nothing usable fails whatever its
// thresholds; a whole run held to no threshold fails when most of it
// failed (Health.MostFailed: most turns did not complete, or most reads
// sent answered an unexpected error), its health line the reason; then a
// broken threshold fails. A part's health, like its uselessness, is its
// command's to judge. A run that fails by its health or a bound on a
// contended machine says so in its reason (machine): the exit line is the
// last a reader sees, and the machine may be why.
func Judge(res *Result, f Facts) Judgement {
	j := judge(res, f)
	if j.Line == "" {
		j.Line = lineOf(res, f, j)
	}
	return j
}

func judge(res *Result, f Facts) Judgement {
	if err := res.Identity(); err != nil {
		return Judgement{Exit: Failed, Reason: err.Error()}
	}
	if f.Thresholds != nil && errors.Is(f.Thresholds, bounds.ErrUnknown) {
		return Judgement{Exit: Misused, Reason: f.Thresholds.Error()}
	}
	var also []string // a broken bound, said first when a worse finding decides
	switch broken := Broken(res.Thresholds); {
	case f.Thresholds != nil:
		also = []string{f.Thresholds.Error()}
	case len(broken) > 0:
		also = []string{fmt.Sprintf("%d of %d thresholds broken: %s", len(broken), len(res.Thresholds), strings.Join(broken, "; "))}
	}
	switch {
	case f.Interrupted:
		return Judgement{Exit: Interrupted, Reason: "run interrupted: the result is partial", Also: also}
	case res.Partial:
		return Judgement{Exit: Failed, Reason: "a shard of the run was interrupted: the result is partial", Also: also}
	}
	h := res.EnsureHealth()
	if why := Useless(res.Totals); why != "" && !f.Part {
		j := Judgement{Exit: Failed, Reason: "useless run: " + why, Also: also}
		if h.Health == StateUseless {
			j.Line = h.Line // the health says it, with its mark: one line, not two alike
		}
		return j
	}
	if why := listenersNotApplied(res.Subscriptions); why != "" && !f.Part {
		return Judgement{Exit: Failed, Reason: why, Also: also}
	}
	if h.FailsRun(f.Bounded) && !f.Part {
		return Judgement{Exit: Failed, Reason: h.Line + " (no thresholds set: most of the run failed)" + machine(res), Line: h.Line}
	}
	if len(also) > 0 {
		j := Judgement{Exit: Failed, Reason: also[0] + machine(res)}
		if f.Thresholds == nil { // the views list each bound under it
			j.Line = fmt.Sprintf("%s %d of %d thresholds broken", markFailed, len(Broken(res.Thresholds)), len(res.Thresholds))
		}
		return j
	}
	return Judgement{Exit: Passed}
}

// lineOf is j's Line, when judge did not word it (a broken threshold's
// count, the health's own line): "✗ " and the reason when the run did not pass; when
// it passed, the thresholds' verdict when they decided it ("✓ all 2
// thresholds held"), else the health line, never marked ✗ (a part, or a
// shard whose thresholds merge will judge, passes whatever its health:
// the line says why).
func lineOf(res *Result, f Facts, j Judgement) string {
	if j.Exit != Passed {
		return FailedLine(j.Reason)
	}
	if n := len(res.Thresholds); n > 0 {
		return fmt.Sprintf("%s all %d thresholds held", markOK, n)
	}
	h := res.EnsureHealth()
	if h.Mark() != markFailed {
		return h.Line
	}
	why := "its thresholds, left to readbench merge, decide"
	if f.Part {
		why = "its command judges it with the others"
	}
	return markNotice + strings.TrimPrefix(h.Line, markFailed) + " (not failed: " + why + ")"
}

// The marks a line opens with (Health.Mark).
const (
	markOK     = "✓"
	markNotice = "!"
	markFailed = "✗"
)

// FailedLine is the verdict line of a run that did not pass for reason:
// "✗ " and the reason (once, when the reason is a health line that
// carries its mark).
func FailedLine(reason string) string {
	if strings.HasPrefix(reason, markFailed+" ") {
		return reason
	}
	return markFailed + " " + reason
}

// SetJudgement keeps on r how the command that made it judged it (the
// runner, once it saved r), so that the views print the very judgement
// the exit status was decided by, facts the document lacks included (a
// part, a shard's thresholds, a file not saved). Not saved in the
// document: a result read back is judged again by Judge with FactsOf.
func (r *Result) SetJudgement(j Judgement) { r.judged = &j }

// Judgement is how r ended: what the command that made it decided
// (SetJudgement), or, for a result read back, Judge on its own facts.
func (r *Result) Judgement() Judgement {
	if r.judged != nil {
		return *r.judged
	}
	return Judge(r, FactsOf(r))
}

// machine is the clause a failed run's reason ends with when its machine
// was contended ("; the machine was contended (CPU pressure 97% …): …"),
// "" otherwise: without it, a run a busy machine made overloaded exited 1
// blaming the server alone, while capacity charged the same step to the
// machine.
func machine(res *Result) string {
	if why := ContendedWhy(res.Host.CPUPressure); why != "" {
		return "; " + why
	}
	return ""
}
