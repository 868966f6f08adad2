package capacity

import (
	"fmt"
	"slices"
	"strconv"
)

// Interval is where the server's limit lies when the search could not
// measure every rate it needed (limited_by machine or generator): at
// least Low, below High when a rate above Low broke the SLO as the
// server's, the steps at the rates Unmeasured (from Low up, below High)
// evidence of nothing. A search that could not measure is never
// reported as a single figure: its max_sustainable_rate is null.
type Interval struct {
	// Low is the highest rate a step held the SLO at, below the rates not
	// measured: the limit is at least this as far as steps show, not
	// confirmed as the maximum (0: no step passed).
	Low  float64 `json:"low"`
	High float64 `json:"high"` // and below this: the lowest rate above Low whose failure was the server's; 0: not known
	// Unmeasured are the rates whose steps (or holds) were not the
	// server's, from Low up (below High when known), lowest first.
	Unmeasured []float64 `json:"unmeasured"`
	Cause      string    `json:"cause"` // what spoiled them: CauseMachine or CauseGenerator
}

// interval is the finding's Interval above the candidate low, from its
// counted steps.
func interval(r *RateFinding, low float64) *Interval {
	in := &Interval{Low: low, Unmeasured: []float64{}, Cause: CauseGenerator}
	if r.LimitedBy == LimitMachine {
		in.Cause = CauseMachine
	}
	for _, st := range r.Steps {
		if !st.Rerun && !st.Pass && !st.GeneratorBound && st.Rate > in.Low && (in.High == 0 || st.Rate < in.High) {
			in.High = st.Rate
		}
	}
	for _, st := range r.Steps {
		if !st.Rerun && st.GeneratorBound && st.Rate >= in.Low && (in.High == 0 || st.Rate < in.High) && !slices.Contains(in.Unmeasured, st.Rate) {
			in.Unmeasured = append(in.Unmeasured, st.Rate)
		}
	}
	slices.Sort(in.Unmeasured)
	return in
}

// Text is the interval as the headlines print it: "≥ 200, < 400
// turns/s: steps in between could not be measured on this machine
// (machine busy at 300/s)", or with no upper end "≥ 200 turns/s: 400/s
// could not be measured on this machine …".
func (in *Interval) Text() string {
	where := "on this machine"
	if in.Cause == CauseGenerator {
		where = "by this generator"
	}
	spoiled := ""
	if n := len(in.Unmeasured); n > 0 {
		spoiled = " (" + CauseWord(in.Cause) + " at " + exact(in.Unmeasured[0])
		if n > 1 {
			spoiled += "–" + exact(in.Unmeasured[n-1])
		}
		spoiled += "/s)"
	}
	if in.Low <= 0 {
		return fmt.Sprintf("not known: no rate could be measured %s%s", where, spoiled)
	}
	if in.High > 0 {
		return fmt.Sprintf("≥ %s, < %s turns/s: steps in between could not be measured %s%s", exact(in.Low), exact(in.High), where, spoiled)
	}
	return fmt.Sprintf("≥ %s turns/s: the rates above could not be measured %s%s, so the limit may be higher", exact(in.Low), where, spoiled)
}

// exact is a rate as measured, never rounded: a bound rounded up (187.5
// to 188) would claim more than was shown.
func exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
