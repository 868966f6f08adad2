package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"

	"github.com/readbench/readbench/internal/helptext"
)

// terminal says whether w is a terminal: the one test of whether
// progress (the run's line, the connecting and discovering line) is shown.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// say writes message on its own line of w, wrapped to the terminal with
// its continuation indented when w is one (a verdict a person reads in an
// 80-column pane), kept on one line otherwise (a CI log is searched line
// by line).
func say(w io.Writer, message string) {
	if width := helptext.TerminalWidth(w); width > 0 {
		message = helptext.Hang(message, "  ", width)
	}
	fmt.Fprintln(w, message)
}
