package report

import (
	"strings"
	"testing"
	"time"

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
