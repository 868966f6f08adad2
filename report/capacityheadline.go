package report

import (
	"slices"
	"strings"
	"time"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/units"
)

// The capacity page's headline and the SLO's latency bounds it draws.

// rateHeadline is a rate search's answer: the maximum sustainable rate,
// and the evidence (the highest rate passed, the rates that broke the
// SLO, step or hold, and those that were not the server's, with why);
// the conclusion once, under it.
func rateHeadline(r *capacity.RateFinding) htmlHeadline {
	h := htmlHeadline{Kind: "capacity", Title: "readbench capacity: " + printable(orDash(r.Target)), Note: printable(r.Conclusion)}
	// The verdict says the rate once; the tiles say what bounds it.
	mark, text := rateVerdict(r)
	h.Verdict = htmlMark{map[string]string{markPass: "pass", markFail: "fail", markWarn: "warn"}[mark], mark, text}
	// The tiles and the line under the verdict are the evidence: what
	// passed, what broke, what was not the server's, by phase.
	e := evidenceOf(r)
	h.Tiles = append(evidenceTiles(r, e), htmlTile{Label: "SLO", Value: printable(r.SLO), Sub: "limited by " + printable(orDash(r.LimitedBy))})
	h.Lines = []htmlMark{{Class: "none", Mark: "·", Text: printable("evidence: " + e.sentence())}}
	return h
}

// rateVerdict is a rate search's answer in a phrase and its mark, the
// same on the page and in the terminal, and the same as the JSON's
// max_sustainable_rate: ✓ the maximum sustainable rate the search
// confirmed; ! that rate as a lower bound when every step up to --to
// held; ! "not known" with the interval when steps the search needed
// could not be measured (the machine busy or the generator: "≥ 200, <
// 400 turns/s: steps in between could not be measured on this machine"),
// so a rate it did not confirm is never printed as the server's maximum;
// ✗ the server does not answer (limited_by no_answer); ✗ none.
func rateVerdict(r *capacity.RateFinding) (mark, text string) {
	if in := r.Interval; r.MaxSustainableRate == nil && in != nil {
		// Rates the search needed were not measured: never a single figure.
		if in.Low <= 0 {
			return markWarn, "max sustainable rate " + in.Text()
		}
		return markWarn, "max sustainable rate not known: " + in.Text() + "; measured at " + numfmt.Sig3(in.Low) + "/s: " +
			numfmt.Sig3(r.ReadsPerS) + " reads/s, " + numfmt.Sig3(r.WireMBPerS) + " MB/s on the wire"
	}
	if r.LimitedBy == capacity.LimitNoAnswer {
		return markFail, "the server does not answer"
	}
	if r.MaxSustainableRate == nil {
		return markFail, "no rate held the SLO"
	}
	text = "max sustainable " + numfmt.Rate(*r.MaxSustainableRate, "turns") + " (" +
		numfmt.Sig3(r.ReadsPerS) + " reads/s, " + numfmt.Sig3(r.WireMBPerS) + " MB/s on the wire)"
	if r.LimitedBy == capacity.LimitRange {
		return markWarn, text + " or more: every step up to --to held the SLO"
	}
	return markPass, text
}

// sizeHeadline is a size sweep's answer: the largest size within the SLO,
// where it broke and where reads fail outright.
func sizeHeadline(r *capacity.SizeFinding) htmlHeadline {
	h := htmlHeadline{Kind: "capacity", Title: "readbench size sweep: " + printable(orDash(r.Target)), Note: printable(r.Conclusion)}
	if r.MaxSizeWithinSLO > 0 {
		h.Verdict = passMark("largest within the SLO " + units.FormatSize(r.MaxSizeWithinSLO))
	} else {
		h.Verdict = failMark("no size held the SLO")
	}
	size := func(n int64) string {
		if n <= 0 {
			return "none"
		}
		return units.FormatSize(n)
	}
	h.Tiles = []htmlTile{
		{Label: "first failure", Value: size(r.SLOBreakSize), Class: "fail", Sub: printable(failReason(r.Steps, func(s capacity.Step) bool { return s.Size == r.SLOBreakSize }))},
		{Label: "reads fail outright at", Value: size(r.FailSize), Sub: printable(orDash(r.FailOutcome))},
		{Label: "SLO", Value: printable(r.SLO), Sub: "at " + numfmt.Rate(r.Rate, "turns")},
	}
	return h
}

// failReason is why the first failing step that is matches failed.
func failReason(steps []capacity.Step, is func(capacity.Step) bool) string {
	for _, s := range steps {
		if !s.Pass && !s.Rerun && is(s) {
			return s.Reason
		}
	}
	return ""
}

// sloBound is one latency bound of an SLO: which line it holds
// ("read p99") and at what, in milliseconds.
type sloBound struct {
	line string
	ms   float64
}

// sloLatencyBounds are the latency bounds of an SLO written in the bound
// grammar ("read.p99<50ms,errors<1%" gives read p99 at 50ms): the lines
// the capacity chart draws them on. Terms it does not know (errors,
// rates, classes) are left to the step table.
func sloLatencyBounds(slo string) []sloBound {
	var out []sloBound
	for _, term := range strings.Split(slo, ",") {
		metric, value, ok := strings.Cut(strings.TrimSpace(term), "<")
		if !ok {
			continue
		}
		block, pct, ok := strings.Cut(metric, ".")
		if !ok || !slices.Contains([]string{"read", "turn", "ack", "notify"}, block) || (pct != "p50" && pct != "p99") {
			continue
		}
		d, err := time.ParseDuration(strings.TrimPrefix(strings.TrimSpace(value), "="))
		if err != nil || d <= 0 {
			continue
		}
		out = append(out, sloBound{line: block + " " + pct, ms: float64(d) / float64(time.Millisecond)})
	}
	return out
}
