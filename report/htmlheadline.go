package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The headline every page opens with: the answer to the page's question
// before any detail (the figures of a run and whether its thresholds
// held; a comparison's verdict and the deltas that decided it; a
// capacity search's rate). Pass and fail are carried by colour
// (Okabe-Ito blue for pass, vermillion for fail, orange for a warning:
// told apart by colour-blind readers) and by a text mark, ✓ or ✗, so a
// page printed in grey still says it.

// htmlHeadline is the headline block: a title, a verdict, figure tiles
// and the lines that decided the verdict.
type htmlHeadline struct {
	Kind, Title string
	// Ending is a run's verdict as its exit status was decided
	// (results.Judgement.Line), the banner's first line, and Exit the
	// exit in one word (data-exit); nil on the other pages.
	Ending  *htmlMark
	Exit    string
	Health  *htmlHealth // a run's health, above the verdict (nil: not a run page)
	Verdict htmlMark
	// VerdictTold: the ending already says the verdict in the same words
	// (a broken threshold decided the exit), so it is not said twice in a
	// row; the lines under it still follow.
	VerdictTold bool
	Tiles       []htmlTile
	Lines       []htmlMark
	Note        string
}

// htmlMark is a verdict or one line under it: Class is "pass", "fail",
// "warn" or "none" (the page's colours), Mark the text mark.
type htmlMark struct {
	Class, Mark, Text string
}

// htmlTile is one figure of the headline: a label, the figure large, a
// line under it.
type htmlTile struct {
	Label, Value, Sub, Class string
}

// Text marks, beside the colours.
const (
	markPass = "✓"
	markFail = "✗"
	markWarn = "!"
)

func passMark(text string) htmlMark { return htmlMark{"pass", markPass, text} }
func failMark(text string) htmlMark { return htmlMark{"fail", markFail, text} }
func warnMark(text string) htmlMark { return htmlMark{"warn", markWarn, text} }

// resultHeadline is the headline of a result: its health first, then read
// and turn p50 and p99 ("≥" where they are lower bounds), errors, the rate
// achieved against the one asked, and the thresholds. A tile is coloured
// by the thresholds on its figure, "warn" or "fail" by what it shows
// without one, and neutral otherwise: never the pass colour by default.
func resultHeadline(r *results.Result) htmlHeadline {
	ending := htmlEnding(r)
	h := htmlHeadline{Kind: "report", Title: printable(toolName(r.Tool) + ": " + workloadTitle(r.Workload)), Health: htmlHealthOf(r),
		Ending: &ending, Exit: exitWord(r.Judgement().Exit)}
	h.Health.Told = printable(ending.Text) == h.Health.Text && ending.Mark == h.Health.Mark
	h.Verdict, h.Lines = thresholdsVerdict(r)
	h.VerdictTold = printable(ending.Text) == h.Verdict.Text && ending.Mark == h.Verdict.Mark
	tot := r.Totals
	h.Tiles = []htmlTile{
		latencyTile(r, "read p50 / p99", "read.", r.Read, 0, counted(r.Read.Count, "read", "reads")),
		latencyTile(r, "turn p50 / p99", "turn.", r.Turn, 0, counted(r.Turn.Count, "turn", "turns")),
	}
	errs := htmlTile{Label: "errors", Value: numfmt.Opt(tot.ErrorRate, numfmt.Share), Sub: numfmt.Count(tot.Errors) + " reads with an error outcome",
		Class: tileVerdict(r, "errors")}
	switch {
	case errs.Class != "":
	case healthOf(r).Health == results.StateFailing, tot.ErrorRate != nil && *tot.ErrorRate >= mostlyErrors:
		errs.Class = "fail" // most reads failing is no warning, whatever else the health says first
	case tot.Errors > 0:
		errs.Class = "warn"
	}
	h.Tiles = append(h.Tiles, errs, rateTile(r))
	if r.Partial {
		h.Note = "Partial result: the run was interrupted."
	}
	return h
}

// mostlyErrors is the error rate from which the errors tile is a failure
// whatever the health's first word (an overloaded run can fail most of
// its reads too).
const mostlyErrors = 0.5

// rateTile is the rate achieved against the rate asked; a run that fell
// more than 5% short of it is marked.
func rateTile(r *results.Result) htmlTile {
	tot := r.Totals
	t := htmlTile{Label: "rate achieved", Value: rate(tot.AchievedRate, "turns"), Class: tileVerdict(r, "rate")}
	switch {
	case r.Workload.Load.Closed():
		t.Sub = fmt.Sprintf("closed model, %d turns in flight", r.Workload.Load.Concurrency)
	case tot.AskedRate > 0:
		t.Sub = "asked " + numfmt.Rate(tot.AskedRate, "turns")
		if a := tot.AchievedRate; a != nil && *a < 0.95*tot.AskedRate {
			t.Sub = markWarn + " " + t.Sub + ": short of it"
			if t.Class == "" {
				t.Class = "warn"
			}
		}
	}
	if t.Class == "" && healthOf(r).Health == results.StateOverloaded {
		// Turns started on time while their reads were not served: the
		// tile is no pass beside the health that says overloaded.
		t.Class = "warn"
	}
	// Turns and reads are both rates the report gives: how many reads a
	// turn holds ties "20.0 turns/s" to "80.0 reads/s" beside it.
	if tot.Turns > 0 && tot.Scheduled > tot.Turns {
		if t.Sub != "" {
			t.Sub += ", "
		}
		t.Sub += strconv.FormatFloat(math.Round(10*float64(tot.Scheduled)/float64(tot.Turns))/10, 'f', -1, 64) + " reads a turn"
	}
	return t
}

// thresholdsVerdict is the headline's verdict on r's thresholds, and one
// line per broken one (all of them when they all held).
func thresholdsVerdict(r *results.Result) (htmlMark, []htmlMark) {
	if len(r.Thresholds) == 0 {
		return htmlMark{Class: "none", Text: "no thresholds set"}, nil
	}
	var broken, held []htmlMark
	for _, v := range r.Thresholds {
		text := printable(v.Bound + ": " + v.What())
		if v.Pass {
			held = append(held, passMark(text))
		} else {
			broken = append(broken, failMark(text))
		}
	}
	if len(broken) > 0 {
		return failMark(fmt.Sprintf("%d of %d thresholds broken", len(broken), len(r.Thresholds))), append(broken, held...)
	}
	return passMark(fmt.Sprintf("all %d thresholds held", len(r.Thresholds))), held
}
