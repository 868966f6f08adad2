package capacity

import (
	"fmt"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
)

// conclusion is the sentence under the table: what was found, in the
// terms of what was measured (readbench does not know the server's
// configuration, so it never states a theoretical figure), how long the
// rate was held and the resolution of the answer. low is the search's
// candidate (0: none); only a search that ended at the SLO, where it is
// confirmed, calls it the maximum sustainable rate.
func conclusion(r *RateFinding, bad *Step, low float64) string {
	rate := func(v float64) string { return short(v) + " turns/s" }
	at := fmt.Sprintf("%s reads/s, %s MB/s on the wire", numfmt.Sig3(r.ReadsPerS), numfmt.Sig3(r.WireMBPerS))
	held := "not held longer than a step (--hold 0)"
	if h := r.Hold; h != nil && h.Pass {
		held = fmt.Sprintf("held for %s s", short(h.DurationS))
	}
	switch h := r.Hold; {
	case r.LimitedBy == LimitHold:
		return fmt.Sprintf("No rate held the SLO for %s s: the last hold, at %s, broke it (%s); a step is too short to show it: lower --from, or raise --holds.", short(h.DurationS), rate(h.Rate), h.Reason)
	case r.LimitedBy == LimitMachine && h != nil && !h.Pass:
		return fmt.Sprintf("The %s s hold of %s broke the SLO while the machine was busy (%s): that is not the server's limit; it held the SLO in a step (%s). Run again on a quieter machine, or with the server elsewhere.",
			short(h.DurationS), rate(h.Rate), h.Reason, at)
	case r.LimitedBy == LimitGenerator && h != nil && !h.Pass:
		return fmt.Sprintf("The %s s hold of %s could not be driven cleanly (%s): the generator could not tell whether the server sustains it, and that is not the server's limit; it held the SLO in a step (%s). Run again on a quieter or larger machine, or more shards (--segment).",
			short(h.DurationS), rate(h.Rate), h.Reason, at)
	case r.LimitedBy == LimitMachine:
		s := fmt.Sprintf("At %s the SLO broke while the machine was busy (%s): that is not the server's limit, which is ", rate(bad.Rate), bad.Reason)
		if low > 0 && r.Interval != nil {
			return s + r.Interval.Text() + " (" + exact(low) + " turns/s: " + at + "; " + held + "). Run again on a quieter machine, or with the server elsewhere."
		}
		return s + "unknown. Run again on a quieter machine, or with the server elsewhere."
	case r.LimitedBy == LimitRange:
		return fmt.Sprintf("Every step held the SLO up to %s (%s; %s): the limit is above the range searched; raise --to.", rate(low), at, held)
	case r.LimitedBy == LimitNoAnswer:
		return fmt.Sprintf("The server does not answer: at the first step, %s, %s. A busy machine slows a server, it does not silence it, and the read timeout runs from each read's send. Check that it serves these reads (readbench check), or raise read_timeout if its reads take longer.", rate(bad.Rate), bad.Reason)
	case r.LimitedBy == LimitFirstStep:
		return fmt.Sprintf("The server sustains no rate in the range searched: the first step, %s, already broke the SLO (%s); lower --from to search below it.", rate(bad.Rate), bad.Reason)
	case r.LimitedBy == LimitGenerator:
		s := fmt.Sprintf("At %s readbench could not drive the load (%s): that is this generator's limit, not the server's, which is at least ", rate(bad.Rate), bad.Reason)
		if low > 0 {
			return s + rate(low) + " (" + at + "; " + held + "). Run more shards (--segment) or a larger machine."
		}
		return s + "unknown. Run more shards (--segment) or a larger machine."
	}
	broke := rate(bad.Rate)
	if bad.Phase == "hold" {
		broke += fmt.Sprintf(" held for %s s", short(r.Hold.DurationS))
	}
	if r.Hold != nil && r.Hold.Pass {
		held = "and " + held
	}
	out := fmt.Sprintf("Maximum sustainable rate %s (%s), measured, %s; the SLO broke at %s: %s; resolution %s.", rate(low), at, held, broke, bad.Reason, rate(r.Resolution))
	if bad.Phase != "hold" && bad.margin > 1 && bad.margin < nearMiss {
		out += fmt.Sprintf(" %s broke its step by a small margin (%s× its bound): this close to the knee a short step varies from run to run, so another search may hold it (longer steps, --step-duration, vary less).",
			rate(bad.Rate), short(bad.margin))
	}
	return out
}

// short is a figure in three significant digits without a trailing ".0"
// (20 s, 25 turns/s, 187.5 turns/s).
func short(v float64) string {
	s := numfmt.Sig3(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
