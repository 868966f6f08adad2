package compare

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/results"
)

// Answer says whether an experiment (ab) answered the regression question
// its bounds ask, and how it got there: every view prints its Line first,
// so a gate that could not look never reads as a pass (docs/compare.md,
// "ab").
type Answer struct {
	// Answered is true when every bound was decided: broken by a
	// significant change, or held. A bound exceeded with no verdict, or
	// no round kept, leaves the question open.
	Answered bool `json:"answered"`
	// Line is the sentence every view leads with: the answer, or that
	// there is none and why.
	Line string `json:"line"`
	// RoundsRun and RoundsKept count the rounds; Looks the times the
	// kept rounds were tested, of at most MaxLooks (the sequential rule:
	// each look at two-sided level Alpha of the comparison).
	RoundsRun  int `json:"rounds_run"`
	RoundsKept int `json:"rounds_kept"`
	Looks      int `json:"looks"`
	MaxLooks   int `json:"max_looks"`
	// Stopped is why no more rounds ran: StopDecided, StopMaxRounds,
	// StopBudget, StopInterrupted or StopNoBounds.
	Stopped string `json:"stopped"`
	// CPUPressure is the median of the runs' host.cpu_pressure (every
	// run made, kept or not); nil when none measured it.
	CPUPressure *float64 `json:"cpu_pressure"`
}

// Why an experiment stopped (Answer.Stopped).
const (
	StopDecided     = "decided"
	StopMaxRounds   = "max_rounds"
	StopBudget      = "budget"
	StopInterrupted = "interrupted"
	StopNoBounds    = "no_bounds"
)

// Settled sorts the bounds of bcs into broken (failed: a significant
// change beyond the bound, or a figure not measured), open (not
// answered) and held, by their text.
func Settled(bcs []BoundCheck) (broken, open, held []string) {
	for _, bc := range bcs {
		switch {
		case bc.Verdict == VerdictFail:
			broken = append(broken, bc.Bound)
		case bc.Verdict == VerdictInconclusive:
			open = append(open, bc.Bound)
		default:
			held = append(held, bc.Bound)
		}
	}
	return broken, open, held
}

// AnswerOf is compare's answer to the question its bounds ask: the line
// every view of a gated comparison leads with, so that the first line,
// the JUnit case and the exit status say the same; nil without bounds.
// pressure is the median CPU pressure of the runs compared (nil: not
// measured), said when the machine was contended.
func AnswerOf(c *Comparison, pressure *float64) *Answer {
	if len(c.Bounds) == 0 {
		return nil
	}
	a := &Answer{CPUPressure: pressure}
	broken, open, _ := Settled(c.Bounds)
	runs := fmt.Sprintf("%d runs against %d", len(c.Base.Runs), len(c.New.Runs))
	switch {
	case len(broken) > 0:
		a.Answered = true
		a.Line = fmt.Sprintf("answered: a regression (%s broken), %s", strings.Join(broken, ", "), runs)
	case len(open) > 0:
		pass := "it fails the gate"
		if !c.Gate.FailOnInconclusive {
			pass = "passed by --fail-on-inconclusive=false"
		}
		a.Line = fmt.Sprintf("the regression question was not answered: %s could not be told apart from the noise (%s; %s)",
			strings.Join(open, ", "), runs, pass)
	default:
		a.Answered = true
		a.Line = fmt.Sprintf("answered: no regression beyond the bounds (each change's interval within its limit), %s", runs)
	}
	a.Line += PressureText(pressure)
	return a
}

// PressureText is the clause an answer ends with when the runs' CPU was
// contended (5% of the time or more): a verdict from a busy machine says so.
func PressureText(p *float64) string {
	if p == nil || *p < 0.05 {
		return ""
	}
	return fmt.Sprintf("; the CPU was contended %.0f%% of the time (median of the runs)", 100**p)
}

// MedianPressure is the median CPU pressure (host.cpu_pressure) of the
// runs that measured it; nil when none did.
func MedianPressure(rs []*results.Result) *float64 {
	var ps []float64
	for _, r := range rs {
		if r != nil && r.Host.CPUPressure != nil {
			ps = append(ps, *r.Host.CPUPressure)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	m := median(ps)
	return &m
}
