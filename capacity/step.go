package capacity

import (
	"context"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// Setting is what one step asks for: a rate (turns per second) and, in a
// size sweep, the size every sized class reads (bytes; 0: the workload's).
// Duration is the measured length when it is not the runner's step
// length: a hold, which confirms a candidate rate for longer than a step
// (0: the step length).
type Setting struct {
	Index    int // 1-based, for file names
	Rate     float64
	Size     int64
	Duration time.Duration
	// Listeners is how many listeners a listener search's step opens;
	// NoListeners is its baseline, which opens none (the reads alone).
	Listeners   int
	NoListeners bool
}

// StepRun is what a Runner returns for one step: its result document, the
// file it was saved to, and the first failure the run explained (the
// message of a read that failed, "" when none), which says why a size
// fails outright.
type StepRun struct {
	Result       *results.Result
	File         string
	FirstFailure string
}

// Runner runs one step. An error is a step that could not run at all (the
// target unreachable): the search stops and returns it.
type Runner func(ctx context.Context, s Setting) (StepRun, error)

// Criterion holds a step's result to the SLO: pass, or the reason it failed.
// The error is a usage error (a bound naming a class the result lacks).
// LagExplains says whether the generator's scheduling lag alone could
// account for a failure, so that a failing step is charged to the
// generator, never to the server, when it might be the generator's.
//
// Unsteady says why a failing step's breach may be the generator's
// lateness in some seconds rather than the server's ("" when the
// generator kept its schedule throughout, or when the breach shows in
// seconds it kept): a second of lag that eats the SLO's headroom bunches
// turns that then queue at the server, so one such second can break a
// p99 the server meets. Such a step is run again, never charged to the
// server.
type Criterion interface {
	Meets(r *results.Result) (pass bool, reason string, err error)
	LagExplains(r *results.Result) bool
	Unsteady(r *results.Result) string
}

// SLO is the Criterion of thresholds in the bound grammar (bounds.ParseThresholds):
// every threshold must hold; the reason names those that do not.
func SLO(ts []bounds.Threshold) Criterion { return slo(ts) }

type slo []bounds.Threshold

func (ts slo) Meets(r *results.Result) (bool, string, error) {
	vs, err := results.EvaluateAll(ts, r)
	if err != nil {
		return false, "", err
	}
	broken := results.Broken(vs)
	if len(broken) > 0 {
		return false, strings.Join(broken, "; "), nil
	}
	return true, "", nil
}

// LagExplains: every broken bound could be the lag's doing. A latency
// bound could be when the measured value less the lag's p99 would meet
// the limit (latency counts from the intended start, so the lag is part
// of it); any other bound (errors, rates) could be when the lag's p99
// reaches a tenth of the turn's deadline, where late starts begin to
// cost reads.
func (ts slo) LagExplains(r *results.Result) bool {
	lag := r.Lag.P99Ms
	for _, t := range ts {
		v, err := results.Evaluate(t, r)
		if err != nil || v.Pass {
			continue
		}
		if v.Unit == "ms" && v.Reason == "" {
			if v.Measured-lag > v.Limit {
				return false
			}
			continue
		}
		if lag < turnLimitMs(r)/10 {
			return false
		}
	}
	return true
}

// Step is one step as reported: what was asked, what it achieved, its
// latency and outcomes, and the verdict.
type Step struct {
	Phase string  `json:"phase"` // "step" (the grid) or "refine" (bisection)
	Rate  float64 `json:"rate"`  // turns per second asked
	Size  int64   `json:"size_bytes,omitempty"`
	// Listeners is the listeners a listener search's step opened (0: the
	// baseline, or another search); Listen what they measured (nil
	// outside a listener search, and for its baseline).
	Listeners int              `json:"listeners,omitempty"`
	Listen    *ListenStep      `json:"listen,omitempty"`
	Achieved  float64          `json:"achieved"` // turns per second that started
	Read      Percentiles      `json:"read"`
	Turn      Percentiles      `json:"turn"`
	Outcomes  map[string]int64 `json:"outcomes"`
	// ErrorRate is the share of scheduled reads with an error outcome (0.01 = 1%).
	ErrorRate float64 `json:"error_rate"`
	LagP99Ms  float64 `json:"lag_p99_ms"`
	// LagMaxMs is the worst measured second's largest scheduling lag.
	LagMaxMs   float64 `json:"lag_max_ms"`
	ReadsPerS  float64 `json:"reads_per_s"`
	WireMBPerS float64 `json:"wire_mb_per_s"`
	Pass       bool    `json:"pass"`
	// GeneratorBound: readbench or the machine, not the target, limited
	// the step; a failing generator-bound step says nothing of the
	// server. NotServers says which (CauseGenerator, CauseMachine; ""
	// when the step is the server's), so a step a busy machine slowed is
	// never called the generator's.
	GeneratorBound bool   `json:"generator_bound"`
	NotServers     string `json:"not_servers"`
	Reason         string `json:"reason"` // why it failed (or was generator-bound); "" for a clean pass
	FirstFailure   string `json:"first_failure"`
	File           string `json:"file"` // the step's full result
	// Attempt is which run of this rate and phase the step is (1 the
	// first); Rerun marks an attempt the generator could not drive
	// cleanly, run again: its verdict is not used. Retries, on the attempt
	// whose verdict is used, is how many attempts before it were re-run.
	Attempt int  `json:"attempt"`
	Rerun   bool `json:"rerun"`
	Retries int  `json:"retries"`
	// silent: the server answered none, or nearly none, of the step's
	// reads (silent); a search whose first step is so ends LimitNoAnswer.
	silent bool
	// margin is how far a failed step broke its latency bounds, the
	// largest measured/limit of them (0: passed, or broke another bound):
	// a near miss (1.04) near the knee is a short step's noise as much as
	// the server's limit, and the conclusion says so.
	margin float64
}

// nearMiss is the margin under which a failed step broke its latency
// bounds by a small margin: so near the knee a short step's p99 varies
// from run to run (one search broke 350/s where three others held it).
const nearMiss = 1.25

// Margin is how far r broke the SLO's upper latency bounds: the largest
// measured/limit of those broken, 0 when one of another kind (errors,
// rates) broke or none did.
func (ts slo) Margin(r *results.Result) float64 {
	var m float64
	for _, t := range ts {
		v, err := results.Evaluate(t, r)
		if err != nil || v.Pass {
			continue
		}
		if !upperLatency(t) || v.Reason != "" || v.Limit <= 0 {
			return 0
		}
		m = max(m, v.Measured/v.Limit)
	}
	return m
}

// Percentiles are a latency block's median and 99th percentile, ms.
type Percentiles struct {
	P50Ms float64 `json:"p50_ms"`
	P99Ms float64 `json:"p99_ms"`
}

// minScheduled is the share of the turns a step asked for that the
// generator must have scheduled (started or dropped) for the step to
// count as driven: below it, the pacer itself fell behind.
const minScheduled = 0.95

// judge makes the Step of a finished run. busy is the CPU pressure from
// which a failure of a server on this machine is the machine's, not the
// server's (busyPressure, or quietPressure for an attempt after one the
// machine spoiled: busyFrom).
func judge(phase string, s Setting, o StepRun, j Criterion, busy float64) (Step, error) {
	r := o.Result
	st := Step{
		Phase: phase, Rate: s.Rate, Size: s.Size, Achieved: results.ZeroIfNone(r.Totals.AchievedRate),
		Read: Percentiles{r.Read.P50Ms, r.Read.P99Ms}, Turn: Percentiles{r.Turn.P50Ms, r.Turn.P99Ms},
		Outcomes: r.Totals.Outcomes, ErrorRate: results.ZeroIfNone(r.Totals.ErrorRate), LagP99Ms: r.Lag.P99Ms,
		ReadsPerS: results.ZeroIfNone(r.Totals.ReadsPerS), WireMBPerS: results.ZeroIfNone(r.Totals.WireMBPerS),
		LagMaxMs: lagMax(r), FirstFailure: o.FirstFailure, File: o.File, Attempt: 1,
	}
	pass, reason, err := j.Meets(r)
	if err != nil {
		return st, err
	}
	st.Pass, st.Reason = pass, reason
	if m, ok := j.(interface{ Margin(*results.Result) float64 }); ok && !pass {
		st.margin = m.Margin(r)
	}
	switch {
	case r.Partial:
		st.Pass, st.Reason = false, "interrupted"
	case !r.Totals.IdentityOK:
		st.Pass, st.Reason = false, "the accounting identity broke: reads were lost, the figures cannot be trusted"
	case silent(r):
		// A step that served nothing (or nearly nothing: almost every read
		// ended at the read timeout) breaks any SLO: reads ended at the
		// read timeout are recorded at the cut, so a latency bound above
		// the timeout would otherwise hold for a server that never
		// answers (issue 47, item 6).
		if st.Reason != "" {
			st.Reason += "; "
		}
		st.Pass, st.Reason, st.silent = false, st.Reason+unansweredText(r), true
	}
	why, cause := whoseStep(r, st.Pass, j, busy)
	if why != "" {
		st.GeneratorBound, st.NotServers = true, cause
		if st.Reason != "" {
			st.Reason += "; "
		}
		st.Reason += CauseWord(cause) + ": " + why
	}
	return st, nil
}
