package report

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The run's health in every format: the first line of the terminal
// report, the first line under the markdown title, the first line of an
// HTML run page's headline and a JUnit case; and the "≥" that marks a
// figure that is a lower bound (reads and turns recorded at the cut), so
// that an overloaded run's 800ms never reads as a fast one. The health
// itself is decided in results (HealthOf) and stored in the result's
// verdict key; this file only lays it out.

// healthOf is r's verdict, computed when the document has none (one
// built by hand), without changing r.
func healthOf(r *results.Result) results.Health {
	if r.Health.Health != "" {
		return r.Health
	}
	return results.HealthOf(r)
}

// mdHealth writes the health line in bold (unless it is the verdict the
// report opened with) and its reasons as a list.
func mdHealth(b *bytes.Buffer, r *results.Result) {
	h := healthOf(r)
	if h.Line != r.Judgement().Line {
		fmt.Fprintf(b, "**%s**\n\n", mdEscape(h.Line))
	}
	for _, why := range h.Reasons {
		fmt.Fprintf(b, "- %s\n", mdEscape(why))
	}
	if len(h.Reasons) > 0 {
		b.WriteByte('\n')
	}
}

// htmlHealth is the health as the page's headline shows it, above the
// thresholds: the line in the colour of its mark and the reasons folded
// under it. State is the health word (data-health, for scripts).
type htmlHealth struct {
	State, Class, Mark, Text string
	Reasons                  []string
	// Told: the banner's first line (the ending) already says the health
	// in the same words, so it is not said twice in a row; its reasons
	// still follow.
	Told bool
}

// htmlHealthOf lays out r's health for its headline.
func htmlHealthOf(r *results.Result) *htmlHealth {
	h := healthOf(r)
	text := strings.TrimSpace(strings.TrimPrefix(h.Line, h.Mark()))
	out := &htmlHealth{State: string(h.Health), Class: h.Class(), Mark: h.Mark(), Text: printable(text)}
	for _, why := range h.Reasons {
		out.Reasons = append(out.Reasons, printable(why))
	}
	return out
}

// junitHealth is the run's health as a test case, held to the exit
// status (results.Judgement): it fails when the run did not pass for any
// reason but a broken threshold, which fails its own case (a useless run;
// held to no threshold, one most of which failed; an interrupted run; a
// broken accounting identity; a result not saved), so a suite has
// failures exactly when the exit is not 0. Held to thresholds that
// alone decide, an unhealthy run's case is skipped with its line, never
// a green pass.
func junitHealth(r *results.Result) junitCase {
	h := healthOf(r)
	line := printable(h.Line)
	c := junitCase{Name: "health", Classname: "readbench.health", Time: "0", SystemOut: line}
	bounded := len(r.Thresholds) > 0
	j := r.Judgement()
	switch {
	case j.Exit != results.Passed && h.FailsRun(bounded):
		c.Failure = &junitFailure{Message: line, Type: "health", Text: printableLines(strings.Join(h.Reasons, "\n"))}
	case j.Exit != results.Passed && len(results.Broken(r.Thresholds)) == 0:
		ending := endingLine(r)
		c.Failure = &junitFailure{Message: ending, Type: exitWord(j.Exit), Text: printableLines(strings.Join(append([]string{ending}, j.Also...), "\n"))}
	case bounded && h.Health != results.StateHealthy:
		c.Skipped = &junitSkipped{Message: "thresholds set: they alone decide; " + line}
	}
	return c
}

// lowerBound says whether a block's figure at quantile q (0..1; 1 for the
// max and the mean) is a lower bound. Reads and turns cut at the deadline
// or the timeout are recorded at the cut, above every value that was not
// cut (what was answered before the cut), so the figure at q is one of
// them as soon as they are more than the 1-q share of the block above
// it. floorMs, above 0, is the turn deadline for a turn block whose cut
// turns the document does not count (a turn size): cut and dropped turns
// are recorded at exactly the deadline, complete ones end before it, so
// a figure at or above it is a cut turn's.
func lowerBound(l stats.Latency, q, v, floorMs float64) bool {
	if l.Count == 0 {
		return false
	}
	if l.LowerBounds > 0 {
		return float64(l.LowerBounds) > (1-q)*float64(l.Count)
	}
	return floorMs > 0 && v >= floorMs
}

// boundedMs is a figure of a latency block with "≥" when it is a lower
// bound.
func boundedMs(l stats.Latency, q, v, floorMs float64) string {
	if lowerBound(l, q, v, floorMs) {
		return "≥" + numfmt.Ms(v)
	}
	return numfmt.Ms(v)
}

// turnFloorMs is the turn deadline in ms for turn blocks that do not count
// their cut turns, when the run cut or dropped any (0: none, or no
// deadline).
func turnFloorMs(r *results.Result) float64 {
	if r.Turn.LowerBounds == 0 {
		return 0
	}
	return float64(r.Workload.Turn.Deadline) / float64(time.Millisecond)
}

// tileVerdict is the class of a headline tile from the thresholds on its
// figures (metrics named metric, or beginning with it when it ends in
// "."): "fail" when one broke, "pass" when all held, "" (neutral) when
// none bears on it, so that no tile is pass-blue without a verdict.
func tileVerdict(r *results.Result, metric string) string {
	class := ""
	for _, v := range r.Thresholds {
		match := v.Metric == metric || (strings.HasSuffix(metric, ".") && strings.HasPrefix(v.Metric, metric))
		switch {
		case !match:
		case !v.Pass:
			return "fail"
		default:
			class = "pass"
		}
	}
	return class
}

// latencyTile is the p50 / p99 tile of a block: its figures with "≥"
// where they are lower bounds, coloured by the thresholds on the block,
// and marked "warn" without one when its figures are lower bounds.
func latencyTile(r *results.Result, label, metric string, l stats.Latency, floorMs float64, sub string) htmlTile {
	t := htmlTile{Label: label, Sub: sub, Class: tileVerdict(r, metric),
		Value: boundedMs(l, 0.5, l.P50Ms, floorMs) + " / " + boundedMs(l, 0.99, l.P99Ms, floorMs)}
	if lowerBound(l, 0.99, l.P99Ms, floorMs) {
		t.Sub += " (≥ at least: cut)"
		if t.Class == "" {
			t.Class = "warn"
		}
	}
	return t
}
