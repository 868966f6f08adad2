package report

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// TestRunsStarted: a compare side of several runs says when the first
// and the last started, where the newest's start alone read as the
// whole side's; a side of one run keeps its line.
func TestRunsStarted(t *testing.T) {
	a, b := fixture(t, false), fixture(t, false)
	a.Started, b.Started = results.NewTimestamp(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)), results.NewTimestamp(time.Date(2026, 12, 1, 10, 40, 0, 0, time.UTC))
	fields := runsStarted([][2]string{{"target", "x"}, {"started", "2026-12-01 10:40:00 UTC, measured 2.00s"}}, []*results.Result{a, b})
	if want := "2 runs, the first at 2026-12-01 10:00:00Z, the last at 2026-12-01 10:40:00Z"; !strings.HasPrefix(fields[1][1], want) {
		t.Errorf("started %q, want %q…", fields[1][1], want)
	}
	one := runsStarted([][2]string{{"started", "as it was"}}, []*results.Result{a})
	if one[0][1] != "as it was" {
		t.Errorf("one run's started line changed: %q", one[0][1])
	}
}

// TestDotPlotHasAnAxis: a run-by-run dot plot draws a value axis with
// round values in the figure's unit under its strips.
func TestDotPlotHasAnAxis(t *testing.T) {
	d := compare.Delta{Metric: "read.p50", Unit: "ms", Base: 20, New: 26, BaseRuns: []float64{19, 20, 21}, NewRuns: []float64{25, 26, 28}}
	svg := string(dotPlot(d, false, []string{"a", "b", "c"}, []string{"d", "e", "f"}))
	ticks := regexp.MustCompile(`class="dot-tick"[^>]*>([^<]*)<`).FindAllStringSubmatch(svg, -1)
	if !strings.Contains(svg, `class="dot-axis"`) || len(ticks) < 2 {
		t.Fatalf("no axis with two ticks or more: %d ticks", len(ticks))
	}
	for _, tk := range ticks {
		if !strings.HasSuffix(tk[1], "ms") {
			t.Errorf("tick %q has no unit", tk[1])
		}
	}
}
