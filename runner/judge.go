package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

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
// it (the exit message; "" when it passed) and the findings that a worse
// one outranked, which are said first (a broken threshold of an
// interrupted run).
type Judgement struct {
	Exit   Exit
	Reason string
	Also   []string
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

// Judge decides what a saved result comes to, the one rule for every
// command, in this order: a broken accounting identity fails first (the
// figures cannot be trusted); thresholds that name what the result lacks
// are bad input; an interrupted run is interrupted, whatever was
// measured; a whole run that measured nothing usable fails whatever its
// thresholds; a whole run held to no threshold fails when most of it
// failed (results.Health.MostFailed: most turns did not complete, or most
// reads sent answered an unexpected error), its health line the reason;
// then a broken threshold fails. A part's health, like its uselessness,
// is its command's to judge. A run that fails by its health or a bound on
// a contended machine says so in its reason (machine): the exit line is
// the last a reader sees, and the machine may be why.
func Judge(res *results.Result, f Facts) Judgement {
	if err := res.Identity(); err != nil {
		return Judgement{Exit: Failed, Reason: err.Error()}
	}
	if f.Thresholds != nil && errors.Is(f.Thresholds, bounds.ErrUnknown) {
		return Judgement{Exit: Misused, Reason: f.Thresholds.Error()}
	}
	var also []string // a broken bound, said first when a worse finding decides
	switch broken := results.Broken(res.Thresholds); {
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
	if why := results.Useless(res.Totals); why != "" && !f.Part {
		return Judgement{Exit: Failed, Reason: "useless run: " + why, Also: also}
	}
	if h := res.EnsureHealth(); h.FailsRun(f.Bounded) && !f.Part {
		return Judgement{Exit: Failed, Reason: h.Line + " (no thresholds set: most of the run failed)" + machine(res)}
	}
	if len(also) > 0 {
		return Judgement{Exit: Failed, Reason: also[0] + machine(res)}
	}
	return Judgement{Exit: Passed}
}

// machine is the clause a failed run's reason ends with when its machine
// was contended ("; the machine was contended (CPU pressure 97% …): …"),
// "" otherwise: without it, a run a busy machine made overloaded exited 1
// blaming the server alone, while capacity charged the same step to the
// machine (issue 46, item 5).
func machine(res *results.Result) string {
	if why := results.ContendedWhy(res.Host.CPUPressure); why != "" {
		return "; " + why
	}
	return ""
}
