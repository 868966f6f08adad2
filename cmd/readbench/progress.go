package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

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
