package compare

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
