package results

import (
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/workload"
)

// Whether the generator, not the server, limited a run. Two findings are
// kept apart because they mean different things to the reader:
//
//   - saturation: readbench could not keep the schedule. It sent nothing,
//     scheduled materially fewer turns than asked, dropped sends itself
//     (reached turns only past their deadline), or fell further behind
//     second after second. The load the run describes
//     is not the load the server got, so the figures answer another
//     question than the one asked.
//   - jitter: readbench kept the schedule, late by a bounded amount that
//     each read carries from its intended start. That inflates the figures
//     by a known amount (read latency less service time at the same
//     quantile, never more than the lag there), which the result states.
//     It limits the run only when it is a material share of a reported
//     figure (MaterialLagShare), never because the machine was busy.
//
// generator_bound and the report's banner are saturation or material
// jitter. The decision reads the document only, so a merged result and
// capacity's steps judge the same way a run does.

// Thresholds of the decision, exported for the sentences and tests that
// quote them.
const (
	// MaterialLagShare is the share of the read p50 or p99 that, when the
	// lag accounts for it, makes the figure more readbench's than the
	// server's: at half, the server answered in no more time than the
	// generator spent getting the read out. Below it the lag is jitter,
	// stated with its size and left to the reader; measured on a 2-core
	// machine with 4-8 CPU burners at 5 turns/s, it stayed under 30%.
	MaterialLagShare = 0.5
	// MinScheduledShare is the share of the turns asked that the
	// generator must have scheduled (started or dropped): below it the
	// pacer itself fell behind.
	MinScheduledShare = 0.95
	// MaxDroppedShare is the share of scheduled reads readbench may drop
	// itself (max_in_flight, or a deadline passed before the send) before
	// the run no longer delivered the load it asked for: the counterpart
	// of MinScheduledShare, so at least 95% of the load was sent. Fewer
	// drops are in the outcomes and the error rate, and the advice
	// reports them apart.
	MaxDroppedShare = 0.05
	// MaxLateDropShare is the share of scheduled reads readbench may reach
	// only past their turn's deadline (and drop) before the turn tail is
	// its own lateness: at 1% the turn p99 is such a turn's, recorded at
	// the deadline although the server never saw it.
	MaxLateDropShare = 0.01
	// MinTrendSeconds is how many measured seconds with sends a trend of
	// the lag needs: fewer cannot tell growth from one slow second.
	MinTrendSeconds = 6
)

// GeneratorFinding is the decision on one result (see judgeGenerator).
type GeneratorFinding struct {
	// Saturated is true when the schedule was not kept; Why lists how, in
	// sentences. NothingSent, Unscheduled, Dropped and LagGrowing are the
	// four ways; Dropped alone leaves the figures of the turns that ran
	// sound (the advice reports the drops apart), the others do not.
	Saturated                                     bool
	Why                                           []string
	NothingSent, Unscheduled, Dropped, LagGrowing bool
	// LateDropped says that readbench reached at least MaxLateDropShare
	// of the reads only past their turn's deadline (the lag block counts
	// them: docs/measurement.md, scheduling lag); like Dropped, it leaves
	// the figures of the turns that ran sound.
	LateDropped bool
	// JitterP50Ms and JitterP99Ms are the lag's estimated part of the read
	// p50 and p99: read less service time at that quantile, at most the
	// lag's own quantile, never below 0. LagShare is the larger share of
	// the two figures they are; Material says LagShare >= MaterialLagShare.
	JitterP50Ms, JitterP99Ms float64
	LagShare                 float64
	Material                 bool
}

// Bound says whether the generator limited what the run can say: the
// result's generator_bound.
func (f GeneratorFinding) Bound() bool { return f.Saturated || f.Material }

// Noisy says whether the figures are not the server's at all, so that
// nothing can be sized on them: the schedule was not kept for another
// reason than readbench's own drops (which leave the turns that ran
// sound and are reported apart).
func (f GeneratorFinding) Noisy() bool {
	return f.NothingSent || f.Unscheduled || f.LagGrowing
}

// judgeGenerator decides from the document alone (totals, the lag, read
// and service blocks and the measured seconds of the timeline).
func judgeGenerator(r *Result) GeneratorFinding {
	var f GeneratorFinding
	t := r.Totals
	why := func(format string, args ...any) { f.Why = append(f.Why, fmt.Sprintf(format, args...)) }
	dropped := t.Outcomes["dropped"]
	sent := t.Scheduled - dropped
	asked := t.AskedRate * t.MeasuredS
	if n := r.Workload.Load.Turns; n > 0 && len(r.Workload.Load.Stages) == 0 {
		// A run of a count of turns is asked for that count (its shard's
		// share) at most: its measured span ends with the last turn's
		// reads, so on a slow machine rate × span can exceed the count,
		// and turns past it were never the generator's to schedule.
		asked = min(asked, float64(workload.Segment{K: r.Segment.K, N: r.Segment.N}.Share(n)))
	}
	switch {
	case t.Scheduled > 0 && sent <= 0:
		f.NothingSent = true
		why("sent no read (all %s scheduled reads were dropped)", numfmt.Count(t.Scheduled))
	case t.Scheduled == 0 && asked >= 1:
		f.NothingSent = true
		why("scheduled none of the %.0f turns asked", asked)
	}
	if asked >= 10 && float64(t.Turns) < MinScheduledShare*asked && t.Scheduled > 0 {
		f.Unscheduled = true
		why("scheduled only %s of the %.0f turns asked", numfmt.Count(t.Turns), asked)
	}
	if !f.NothingSent && dropped > 0 && float64(dropped) >= MaxDroppedShare*float64(t.Scheduled) {
		f.Dropped = true
		why("dropped %s of %s scheduled reads itself (%s turns dropped at max_in_flight %d or past their deadline before the send)",
			numfmt.Count(dropped), numfmt.Count(t.Scheduled), numfmt.Count(t.TurnEnds.Dropped), r.Workload.Load.MaxInFlight)
	}
	// Reads dropped late are in the lag block but were never sent.
	if late := r.Lag.Count - sent; !f.NothingSent && late > 0 && float64(late) >= MaxLateDropShare*float64(t.Scheduled) {
		f.LateDropped = true
		why("reached %s of %s scheduled reads only past their turn's deadline and dropped them (lag p99 %s, max %s): the turn tail is readbench's lateness, not the server's",
			numfmt.Count(late), numfmt.Count(t.Scheduled), numfmt.Ms(r.Lag.P99Ms), numfmt.Ms(r.Lag.MaxMs))
	}
	if from, to, ok := lagTrend(r); ok {
		f.LagGrowing = true
		why("fell further behind over the run (largest scheduling lag per second %s at the start, %s at the end)",
			numfmt.Ms(from), numfmt.Ms(to))
	}
	f.Saturated = f.NothingSent || f.Unscheduled || f.Dropped || f.LateDropped || f.LagGrowing

	f.JitterP50Ms = lagPart(r.Read.P50Ms, r.Service.P50Ms, r.Lag.P50Ms)
	f.JitterP99Ms = lagPart(r.Read.P99Ms, r.Service.P99Ms, r.Lag.P99Ms)
	if r.Read.P50Ms > 0 {
		f.LagShare = f.JitterP50Ms / r.Read.P50Ms
	}
	if r.Read.P99Ms > 0 {
		f.LagShare = max(f.LagShare, f.JitterP99Ms/r.Read.P99Ms)
	}
	f.Material = r.Lag.Count > 0 && f.LagShare >= MaterialLagShare
	return f
}

// lagPart is the lag's estimated part of a read quantile: read less
// service at that quantile (the read counts from the intended start, the
// service from the send), at most the lag's own quantile (cut reads are in
// read and not in service) and never below 0.
func lagPart(read, service, lag float64) float64 {
	return max(min(read-service, lag), 0)
}

// lagTrend says whether the lag grew over the measured seconds: with at
// least MinTrendSeconds seconds that sent reads, every second of the last
// third lagged more than twice the worst of the first third, and by more
// than the read p50 (each turn starting later than a whole read takes).
// Bounded jitter puts its slow seconds anywhere; growth puts them all at
// the end. It returns the worst of the first third and the least of the
// last.
func lagTrend(r *Result) (from, to float64, ok bool) {
	var lags []float64
	for _, s := range r.Timeline {
		if !s.Warmup && s.LagMaxMs > 0 {
			lags = append(lags, s.LagMaxMs)
		}
	}
	if len(lags) < MinTrendSeconds {
		return 0, 0, false
	}
	third := len(lags) / 3
	from, to = slices.Max(lags[:third]), slices.Min(lags[len(lags)-third:])
	return from, to, to > 2*from && to-from > r.Read.P50Ms
}

// generatorNote is the sentence the reports print about readbench's own
// lag: how much of the reported figures it accounts for, "" without a lag.
func generatorNote(f GeneratorFinding, r *Result) string {
	if r.Lag.Count == 0 {
		return ""
	}
	return fmt.Sprintf("readbench's own scheduling lag accounts for up to %s of the %s read p99 and %s of the %s p50 (%s of a figure at most; lag p99 %s)",
		numfmt.Ms(f.JitterP99Ms), numfmt.Ms(r.Read.P99Ms), numfmt.Ms(f.JitterP50Ms), numfmt.Ms(r.Read.P50Ms),
		numfmt.Share(f.LagShare), numfmt.Ms(r.Lag.P99Ms))
}

// setGenerator records the finding in r: generator_bound, and the
// generator block's saturation and jitter keys.
func setGenerator(r *Result) GeneratorFinding {
	f := judgeGenerator(r)
	r.GeneratorBound = f.Bound()
	g := &r.Generator
	g.Saturated, g.Saturation = f.Saturated, strings.Join(f.Why, "; ")
	g.JitterMs, g.JitterP50Ms, g.LagShare, g.JitterMaterial = f.JitterP99Ms, f.JitterP50Ms, f.LagShare, f.Material
	g.Note = generatorNote(f, r)
	return f
}

// JudgeGenerator is the decision on a saved result, for the steps of
// capacity and for results written before the generator block carried it.
func JudgeGenerator(r *Result) GeneratorFinding { return judgeGenerator(r) }
