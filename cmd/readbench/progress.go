package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/readbench/readbench/driver"
)

// progressPrinter returns a live one-line progress display on w, or nil
// when w is not a terminal: progress is for people, never for logs.
func progressPrinter(w io.Writer) func(driver.Progress) {
	if !terminal(w) {
		return nil
	}
	return func(p driver.Progress) {
		phase := ""
		if p.Warmup {
			phase = " (warmup)"
		}
		fmt.Fprintf(w, "\r\033[K%s/%s%s  turns %d (%.1f/s)  reads %d  in flight %d  p99 %v  errors %d",
			elapsedString(p.Elapsed), elapsedString(p.Total), phase, p.Turns, p.Achieved(), p.Reads, p.InFlight,
			p.P99.Round(10*time.Microsecond), p.Errors)
	}
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
