package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
)

// progressPrinter returns a live one-line progress display on w, or nil
// when w is not a terminal: progress is for people, never for logs.
// warmup is the workload's warmup, which the line counts apart.
func progressPrinter(w io.Writer, warmup time.Duration) func(driver.Progress) {
	if !terminal(w) {
		return nil
	}
	return func(p driver.Progress) {
		fmt.Fprint(w, "\r\033[K"+progressLine(p, warmup))
	}
}

// progressLine is the progress line: the warmup counted as such ("warmup
// 1s/2s"), then the measured time against the measured length ("3s/5s",
// the warmup not in it, as --duration says; "draining 5s/5s" while the
// turns in flight end after the schedule), and the figures in the one
// number format of the reports (internal/numfmt), so a p99 reads "41.7ms"
// here as in the report that follows.
func progressLine(p driver.Progress, warmup time.Duration) string {
	clock := elapsedString(p.Elapsed-warmup) + "/" + elapsedString(p.Total-warmup)
	switch {
	case p.Warmup:
		clock = "warmup " + elapsedString(p.Elapsed) + "/" + elapsedString(warmup)
	case p.Draining: // the schedule is over: the clock stops at its end
		clock = "draining " + elapsedString(max(p.Total-warmup, 0)) + "/" + elapsedString(p.Total-warmup)
	}
	p99 := numfmt.None
	if p.P99 > 0 {
		p99 = numfmt.Ms(float64(p.P99) / float64(time.Millisecond))
	}
	return fmt.Sprintf("%s  turns %s (%s/s)  reads %s  in flight %s  p99 %s  errors %s",
		clock, numfmt.Count(p.Turns), numfmt.Sig3(p.Achieved()), numfmt.Count(p.Reads), numfmt.Count(p.InFlight),
		p99, numfmt.Count(p.Errors))
}

// terminal says whether w is a terminal: the one test of whether
// progress (the run's line, the connecting and discovering line) is shown.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// clearProgress erases the progress line before the report is printed.
func clearProgress(w io.Writer, shown bool) {
	if shown {
		fmt.Fprint(w, "\r\033[K")
	}
}
