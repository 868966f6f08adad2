package capacity

// Whose a step's failure is: the server's, the generator's or the busy
// machine's (docs/capacity.md), and the words that say so.

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// whoseStep says why a step is not the server's to answer for, and
// whose it is ("" when it is the server's). The generator's when it did
// not keep its schedule: it did not schedule the load asked, or sent
// nothing (evidence of nothing, pass or fail). A failure it kept the
// schedule for, but late enough that its lag could account for the
// breach (LagExplains, Unsteady), is the machine's when the machine was
// busy (its CPUs contended for at least busy of the step: the lag is the
// busy machine's, and more shards on it would not help), else the
// generator's. Any other failure of a server on this machine while the
// machine was busy is the machine's: the server was kept waiting. Before
// all these, a failure in which the server answered none of the reads
// sent is the server's (unanswered).
func whoseStep(r *results.Result, pass bool, j Criterion, busy float64) (why, cause string) {
	if !pass && silent(r) {
		return "", ""
	}
	if why = unscheduled(r); why != "" {
		return why, CauseGenerator
	}
	g := results.JudgeGenerator(r)
	if g.NothingSent {
		return "readbench " + strings.Join(g.Why, "; "), CauseGenerator
	}
	if pass {
		return "", ""
	}
	var lag string
	switch {
	case r.GeneratorBound && j.LagExplains(r):
		lag = fmt.Sprintf("scheduling lag p99 %s ms could account for the failure%s", numfmt.Sig3(r.Lag.P99Ms), boundWhy(r.Generator))
	case !r.Partial && r.Totals.IdentityOK:
		lag = j.Unsteady(r)
	}
	p, contended := pressure(r, busy)
	switch {
	case lag != "" && contended:
		return fmt.Sprintf("%s, and some task waited for a CPU %s of the step (%s): the lag is the busy machine's, not readbench's limit",
			lag, numfmt.Share(p), busyWords(p, busy)), CauseMachine
	case lag != "":
		return lag, CauseGenerator
	}
	return busyMachine(r, busy), CauseMachine
}

// What limited a step that is not the server's (Step.NotServers).
const (
	// CauseGenerator: readbench could not drive the step as asked (it
	// did not schedule the load, sent nothing, or its lag could account
	// for the failure).
	CauseGenerator = "generator"
	// CauseMachine: the generator kept its schedule, but the machine's
	// CPUs were contended for most of the step and the server runs on it.
	CauseMachine = "machine"
)

// CauseWord is how a step's reason, and the reports, name a cause:
// "generator-bound" or "machine busy".
func CauseWord(cause string) string {
	if cause == CauseMachine {
		return "machine busy"
	}
	return "generator-bound"
}

// busyPressure is the share of a step in which some task on the machine
// may wait for a CPU before a failure of a server on that machine says
// nothing of the server. Measured (docs/capacity.md): against a server
// good for ~390 reads/s, 350/s broke its step at a pressure of 0.49 with
// a hog per core and held it on a quieter machine, while the server's own
// knee (400/s, its queue growing) broke at 0.29; a quiet-ish machine's
// steps stay at 0.05-0.44, median 0.13. So from 0.4 the machine, not the
// server, may have made the failure; a real knee failure at that pressure
// costs a run again, never a wrong figure.
//
// quietPressure is the margin: once an attempt at a rate was the busy
// machine's, an attempt at that rate run again is charged to the server
// only under quietPressure. A machine whose pressure wanders around the
// edge (0.61, then 0.50, then 0.38) is one busy machine, not a busy
// machine and then the server at its limit; without the band one rate
// was judged both ways.
const (
	busyPressure  = 0.4
	quietPressure = 0.25
)

// busyFrom is the CPU pressure from which a failure is the machine's for
// an attempt at a rate: busyPressure, or quietPressure when an earlier
// attempt at that rate was the machine's (the band's hysteresis).
func busyFrom(machineBefore bool) float64 {
	if machineBefore {
		return quietPressure
	}
	return busyPressure
}

// pressure is the step's CPU pressure and whether it reaches busy.
func pressure(r *results.Result, busy float64) (float64, bool) {
	p := r.Host.CPUPressure
	if p == nil {
		return 0, false
	}
	return *p, *p >= busy
}

// busyMachine says why a failed step of a server on this machine is not
// the server's to answer for: the machine's CPUs were contended for at
// least busy of it ("" when not, or when the target is elsewhere or the
// kernel does not say).
func busyMachine(r *results.Result, busy float64) string {
	p, contended := pressure(r, busy)
	if !contended {
		return ""
	}
	t, err := targets.Parse(r.Target.Address)
	if err != nil || !t.OnThisMachine() {
		return ""
	}
	return fmt.Sprintf("some task waited for a CPU %s of the step (%s), and the server runs on this machine, so it was slowed by the machine, not only by its own work",
		numfmt.Share(p), busyWords(p, busy))
}

// busyWords says from what pressure the machine was busy for a step of
// pressure p: the band's upper edge, or its lower one after an attempt
// the machine spoiled.
func busyWords(p, busy float64) string {
	if p < busyPressure {
		return "over " + numfmt.Share(busy) + ", as an attempt before it at this rate was the machine's"
	}
	return "over " + numfmt.Share(busyPressure)
}

// boundWhy is how the generator limited a step, in the result's words
// ("" for a result that does not say).
func boundWhy(g results.Generator) string {
	switch {
	case g.Saturated:
		return " (readbench " + g.Saturation + ")"
	case g.JitterMaterial:
		return fmt.Sprintf(" (readbench's own lag is %s of the read figures)", numfmt.Share(g.LagShare))
	}
	return ""
}

// unanswered says the server answered none of the reads readbench sent
// in the step (at least one sent; none ok, none the error a class
// expected): every one timed out, was cut by the turn deadline or failed.
// That is the server's finding whoever else was slow: a busy machine
// slows a server, it does not silence it, and a read's timeout runs from
// its send, so readbench's lateness cannot eat it. The turn deadline
// runs from the intended start, so reads it cut count only while
// readbench's scheduling lag (p99) left them at least half the turn's
// time: a lag that ate the deadline cut them, not the server.
func unanswered(r *results.Result) bool {
	o := r.Totals.Outcomes
	sent := r.Totals.Scheduled - o[stats.Dropped.String()]
	if sent <= 0 || o[stats.OK.String()]+o[stats.ExpectedError.String()] > 0 {
		return false
	}
	return o[stats.Cancelled.String()] == 0 || r.Lag.P99Ms < turnLimitMs(r)/2
}

// silentShare is the share of the reads sent that ended at the read
// timeout from which a step counts as silent although a few reads were
// answered: "nearly every" read, at most 1 in 20 answered.
const silentShare = 0.95

// silent says the server did not answer the step: it answered none of
// the reads sent (unanswered), or nearly every read sent (silentShare)
// ended at the read timeout. That is the server's finding on a busy
// machine too: the read timeout runs from the send, so readbench's
// lateness cannot eat it, and CPU contention slows a server's answers
// without silencing it: a server merely slowed by the machine answers
// more than 1 read in 20 within a timeout that it otherwise meets.
func silent(r *results.Result) bool {
	if unanswered(r) {
		return true
	}
	o := r.Totals.Outcomes
	sent := r.Totals.Scheduled - o[stats.Dropped.String()]
	return sent > 0 && float64(o[stats.Timeout.String()]) >= silentShare*float64(sent)
}

// unansweredText says what a silent step came to: "the server answered
// none of the 80 reads sent (80 timeout)", or "the server answered 2 of
// the 80 reads sent; 78 ended at the read timeout of 200ms (2 ok, 78
// timeout)".
func unansweredText(r *results.Result) string {
	o := r.Totals.Outcomes
	var parts []string
	for k := stats.Outcome(0); k < stats.NumOutcomes; k++ {
		if n := o[k.String()]; n > 0 && k != stats.Dropped {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	sent := r.Totals.Scheduled - o[stats.Dropped.String()]
	answered := o[stats.OK.String()] + o[stats.ExpectedError.String()]
	if answered == 0 {
		return fmt.Sprintf("the server answered none of the %d reads sent (%s)", sent, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("the server answered %d of the %d reads sent; %d ended at the read timeout of %s (%s)",
		answered, sent, o[stats.Timeout.String()], numfmt.Duration(r.Workload.Turn.ReadTimeout), strings.Join(parts, ", "))
}

// unscheduled says why readbench did not even schedule the step as
// asked ("" when it did): a step whose load was not delivered is evidence
// of nothing about the server, pass or fail.
func unscheduled(r *results.Result) string {
	want := r.Totals.AskedRate * r.Totals.MeasuredS
	if want >= 10 && float64(r.Totals.Turns) < minScheduled*want {
		return fmt.Sprintf("the generator scheduled %d of the %.0f turns asked", r.Totals.Turns, want)
	}
	return ""
}
