package capacity

import (
	"fmt"

	"github.com/readbench/readbench/internal/numfmt"
)

// finish fills in the finding: the count confirmed (only when the search
// ended at the server's own limit or above the range, and the hold
// passed), what refused first, and the sentence under the table.
func (s *listenSearch) finish(limit string) {
	rep := s.rep
	rep.LimitedBy = limit
	confirmed := (limit == LimitListeners || limit == LimitRange) && (s.plan.Hold == 0 || rep.Hold != nil && rep.Hold.Pass)
	if s.good != nil && confirmed {
		rep.MaxListeners = new(s.good.Listeners)
	}
	if b := s.bad; b != nil && b.Listeners > 0 && !b.GeneratorBound {
		rep.FirstBadListeners = b.Listeners
		if b.Listen != nil && len(b.Listen.Refused) > 0 {
			rep.RefusedFirst, rep.RefusedWhy = b.Listen.Refused[0], b.Reason
		}
	}
	if limit == LimitMachine || limit == LimitGenerator {
		rep.Interval = s.interval(limit)
	}
	rep.Conclusion = s.conclusion()
}

// interval is where the count lies when steps it needed were not the
// server's: at least the highest good count, below the lowest the server
// failed (0: not known).
func (s *listenSearch) interval(limit string) *Interval {
	in := &Interval{Unmeasured: []float64{}, Cause: limit}
	if s.good != nil {
		in.Low = float64(s.good.Listeners)
	}
	if s.bad != nil && !s.bad.GeneratorBound && float64(s.bad.Listeners) > in.Low {
		in.High = float64(s.bad.Listeners)
	}
	for _, st := range s.rep.Steps {
		k := float64(st.Listeners)
		if !st.Rerun && st.GeneratorBound && k >= in.Low && (in.High == 0 || k < in.High) {
			in.Unmeasured = append(in.Unmeasured, k)
		}
	}
	return in
}

// conclusion says what the search found in the terms it measured it.
func (s *listenSearch) conclusion() string {
	r := s.rep
	base := fmt.Sprintf("read p99 with no listener %s ms at %s turns/s", numfmt.Sig3(r.ReadP99AtZeroMs), short(r.Rate))
	low := 0
	if s.good != nil {
		low = s.good.Listeners
	}
	held := "not held longer than a step (--hold 0)"
	if h := r.Hold; h != nil && h.Pass {
		held = fmt.Sprintf("held for %s s", short(h.DurationS))
	}
	switch r.LimitedBy {
	case LimitBaseline:
		if s.bad.GeneratorBound {
			return fmt.Sprintf("The reads alone, with no listener, could not be measured (%s): the search cannot tell the listeners' effect, and that is not the server's limit. Run again on a quieter machine.", s.bad.Reason)
		}
		return fmt.Sprintf("The reads alone, with no listener, already broke the SLO (%s): lower --rate, or loosen the reads' bounds.", s.bad.Reason)
	case LimitNotApplicable:
		return "The server does not offer resource subscriptions (no resources.subscribe): there are no listeners to count."
	case LimitRange:
		return fmt.Sprintf("Every step held the SLO up to %d listeners (%s; %s): the limit is above the range searched; raise --to.", low, base, held)
	case LimitFirstStep:
		return fmt.Sprintf("The server holds no listener count in the range: the first step, %d listeners, already broke the SLO, first %s (%s); lower --from.", s.bad.Listeners, r.RefusedFirst, s.bad.Reason)
	case LimitHold:
		return fmt.Sprintf("No listener count held the SLO for %s s: the last hold, at %s listeners, broke it (%s).", short(r.Hold.DurationS), short(r.Hold.Rate), r.Hold.Reason)
	case LimitMachine, LimitGenerator:
		who := "the machine was busy"
		if r.LimitedBy == LimitGenerator {
			who = "readbench could not drive the load"
		}
		what := "unknown"
		if in := r.Interval; in != nil && low > 0 {
			what = "at least " + exact(in.Low)
			if in.High > 0 {
				what += ", below " + exact(in.High)
			}
		}
		return fmt.Sprintf("Could not tell: %s (%s), so that is not the server's limit, which is %s listeners (%s). Run again on a quieter machine, or with the server elsewhere.",
			who, s.upperReason(), what, base)
	}
	return fmt.Sprintf("At most %d listeners within the SLO (%s; %s); refused first at %d listeners: %s (%s); resolution %d listeners.",
		low, base, held, r.FirstBadListeners, r.RefusedFirst, r.RefusedWhy, r.FirstBadListeners-low)
}

// upperReason is why the step that ended a search the server did not end
// was not the server's.
func (s *listenSearch) upperReason() string {
	if u := s.unmeasure; u != nil {
		return u.Reason
	}
	if h := s.rep.Hold; h != nil {
		return h.Reason
	}
	return ""
}
