package results

import (
	"fmt"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
)

// Advice from a contended run. A recommended pair is sized on the run's
// tail, and on a machine whose CPUs were contended that tail is partly
// the machine's queue: a stalled run (CPU pressure 0.93, read p99 571 ms)
// was advised a 2 s deadline and a 100 s timeout, sized on its stalls,
// with nothing to say so. Two figures of the document say how much the
// machine entered the tail, and the advice is qualified on them:
//
//   - host.cpu_pressure, the share of the measured phase in which some
//     task on the generator's machine waited for a CPU: from
//     AdviceCaveatPressure the pair carries a caveat, from
//     AdviceWithholdPressure it is withheld (candidates still priced);
//   - readbench's own scheduling lag in the read p99 (the generator
//     finding's JitterP99Ms): from AdviceCaveatLagShare of the p99 (and
//     at least AdviceCaveatLagFloor) the pair carries a caveat, since the
//     deadline is sized on figures counted from the intended start.
//
// The caveat is the advice's "caveat" key, printed with the
// recommendation in every report; a withheld pair is the "withheld" key,
// with the sentence of the reasoning that stands where the recommendation
// would. A quiet run has neither, and its advice is unchanged.

// The cut-offs of the contention rules, exported for the sentences, the
// docs and the tests that quote them. Measured on this project's 2-core
// machine against the official Go SDK's server (5 ms reads, 100 reads/s,
// 5 s): quiet, cpu_pressure 0.05-0.13 and a lag 1% of the read p99; one
// CPU hog, 0.10 and under 1%; a hog on every core, 0.14 and 0.38 with
// the quiet pair (20 ms, 1 s); at 0.97 and over (other jobs running too),
// read p99s of 9.5 ms, 13.1 ms, 258 ms and 2.0 s, pairs up to 5 s and
// 200 s, and the lag 1-21% of the p99.
const (
	// AdviceCaveatPressure is the CPU pressure from which the advice
	// carries a caveat: from half of the phase, the machine rather than
	// the server accounts for a stretch of the tail (capacity does not
	// charge a step to the server from the same share).
	AdviceCaveatPressure = 0.5
	// AdviceWithholdPressure is the CPU pressure from which no pair is
	// recommended: some task waited for a CPU nine tenths of the phase,
	// so the tail is the machine's queue, and limits sized on it would
	// describe the machine, not the server. Of four live runs at 0.97 and
	// over, two had read p99s of 258 ms and 2.0 s against 6.2 ms quiet.
	AdviceWithholdPressure = 0.9
	// AdviceCaveatLagShare is the share of the read p99 that readbench's
	// own lag accounts for from which the advice carries a caveat: a
	// tenth of the tail sized on is no longer the server's (the lag of a
	// quiet run is about a hundredth).
	AdviceCaveatLagShare = 0.1
	// AdviceCaveatLagFloor is the least lag in the read p99 that makes a
	// caveat: below a millisecond a timer's own lateness dominates (as
	// for LagBound), and no deadline is sized that finely.
	AdviceCaveatLagFloor = time.Millisecond
)

// contention is what the machine's contention does to a run's advice:
// the caveat sentence ("" for none) and whether the pair is withheld.
type contention struct {
	caveat   string
	withhold bool
}

// contentionOf judges a run's contention from its CPU pressure (nil:
// unknown, no rule), its generator finding and its read p99 (ms). The
// pressure alone withholds: the lag does not tell a stalled run, since a
// server on the same machine stalls in its service time (a live run at
// 0.98 had a 2.0 s read p99 with the lag 5% of it). The withheld sentence
// names the lag as well when it is material.
func contentionOf(pressure *float64, g GeneratorFinding, readP99Ms float64) contention {
	var c contention
	lag := g.JitterP99Ms
	lagged := readP99Ms > 0 && lag/readP99Ms >= AdviceCaveatLagShare && lag >= float64(AdviceCaveatLagFloor)/float64(time.Millisecond)
	lagText := ""
	if lagged {
		lagText = fmt.Sprintf("readbench's own scheduling lag is %s of the %s read p99 (%s; a caveat from %s)",
			numfmt.Ms(lag), numfmt.Ms(readP99Ms), numfmt.Share(lag/readP99Ms), numfmt.Share(AdviceCaveatLagShare))
	}
	if pressure != nil && *pressure >= AdviceWithholdPressure {
		also := ""
		if lagged {
			also = ", and " + lagText
		}
		c.withhold = true
		c.caveat = fmt.Sprintf("Withheld: the run was too contended to advise from: some task on the machine waited for a CPU "+
			"during %s of the measured phase (CPU pressure; from %s no pair is recommended)%s, so the read tail (p99 %s) "+
			"is the machine's queue more than the server's, and limits sized on it would describe the machine. "+
			"The candidates are priced as measured, for reference; rerun on a quieter machine to size them.",
			numfmt.Share(*pressure), numfmt.Share(AdviceWithholdPressure), also, numfmt.Ms(readP99Ms))
		return c
	}
	var why []string
	if pressure != nil && *pressure >= AdviceCaveatPressure {
		why = append(why, fmt.Sprintf("some task on the machine waited for a CPU during %s of the measured phase (CPU pressure; "+
			"a caveat from %s)", numfmt.Share(*pressure), numfmt.Share(AdviceCaveatPressure)))
	}
	if lagged {
		why = append(why, lagText)
	}
	switch len(why) {
	case 0:
		return c
	case 2:
		why = []string{why[0] + ", and " + why[1]}
	}
	c.caveat = "Caveat: the run was contended: " + why[0] + ". Part of the tail these limits are sized on is the machine's " +
		"or readbench's, not the server's, so they may be longer than the server needs; rerun on a quieter machine " +
		"before relying on them."
	return c
}

// withheldText is the reasoning's sentence where a withheld pair's
// recommendation would stand.
const withheldText = "No deadline or timeout is recommended: the run was too contended to size them on (the caveat says how)."
