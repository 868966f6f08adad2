package results

import (
	"time"

	"github.com/readbench/readbench/stats"
)

// advice prices candidate limits on the measured phase and recommends a
// pair (stats.Advise says how and why), with the reasoning written out in
// sentences (adviceReasoning), which the document stores for every report.
// g is the generator finding of the run: a material lag sizes the timeout
// on service time, a schedule not kept recommends nothing; maxInFlight is
// the cap named when readbench dropped turns; h is the run's health: a
// failing run, and one overloaded by cut turns or timed-out reads,
// recommends nothing either (unsizedText); readbench's drops alone are
// reported apart, the turns that started sized on; c is the machine's
// contention (contentionOf): a pair recommended from a contended run
// carries its caveat, or is withheld past AdviceWithholdPressure.
func advice(p policy, run *stats.Phase, g GeneratorFinding, maxInFlight int, h Health, c contention) Advice {
	// The read tail is the ok answers' (the one to size a timeout on).
	// Dropped turns, recorded at the deadline like cut ones, are passed
	// apart: readbench dropped them, the deadline did not cut them.
	a := stats.Advise(stats.AdviceInput{
		Turn: run.Turn, Read: run.ReadOK, Service: run.ServiceOK,
		Turns: run.Turns, Cut: run.TurnEndCount(stats.TurnCut), Dropped: run.TurnEndCount(stats.TurnDropped),
		MaxInFlight: maxInFlight,
		Timeouts:    run.Outcomes[stats.Timeout], Cancelled: run.Outcomes[stats.Cancelled],
		Sent: run.Outcomes.Total() - run.Outcomes[stats.Dropped], Expected: run.Outcomes[stats.ExpectedError],
		Parallel: p.parallel,
		Deadline: p.deadline, ReadTimeout: p.readTimeout, TurnLimit: p.turnLimit,
		OnService: g.Material, Noisy: g.Noisy(),
	})
	// An overloaded run's tail is a queue's when its turns were cut or its
	// reads timed out; drops alone leave the turns that started sound.
	cutOrTimedOut := atLeast(run.TurnEndCount(stats.TurnCut), run.Turns, OverloadShare) ||
		atLeast(run.Outcomes[stats.Timeout], run.Outcomes.Total()-run.Outcomes[stats.Dropped], OverloadShare)
	unsized := ""
	if h.Health == StateFailing || (h.Health == StateOverloaded && cutOrTimedOut) {
		unsized = unsizedText(h)
	}
	if unsized != "" && !a.Noisy {
		a.Deadline, a.Timeout = 0, 0
	}
	// Contention qualifies a pair only when one would be recommended: a
	// run that recommends nothing already says why.
	caveat, withheld := "", false
	if a.Deadline > 0 || a.Timeout > 0 {
		caveat, withheld = c.caveat, c.withhold
	}
	if withheld {
		a.Deadline, a.Timeout, unsized = 0, 0, withheldText
	}
	reasoning := append(generatorReasons(a, g), adviceReasoningFor(a, unsized)...)
	if n := run.Outcomes[stats.MethodNotFound]; n > 0 {
		reasoning = append([]string{methodNotFoundReason(n, run.Scheduled)}, reasoning...)
	}
	return Advice{
		Deadlines: candidates(a.Deadlines), Timeouts: candidates(a.Timeouts),
		RecommendedDeadlineMs: recommended(a.Deadline), RecommendedTimeoutMs: recommended(a.Timeout),
		Caveat: caveat, Withheld: withheld,
		Reasoning: reasoning,
	}
}

// recommended is a recommended limit in milliseconds, nil when there is
// none (d is 0 then): the document says null, not a limit of 0.
func recommended(d time.Duration) *float64 {
	if d <= 0 {
		return nil
	}
	ms := stats.Millis(d)
	return &ms
}

func candidates(ls []stats.Limit) []Candidate {
	out := make([]Candidate, 0, len(ls))
	for _, l := range ls {
		out = append(out, Candidate{Ms: stats.Millis(l.Limit), Share: share(l.Share, l.Of), AtLeast: l.AtLeast && l.Of > 0})
	}
	return out
}
