package helptext

import (
	"io"
	"os"
	"strconv"
	"strings"
)

// DefaultWidth is the width of help that goes to no terminal and has no
// COLUMNS: a pipe, a file, a CI log.
const DefaultWidth = 80

// minWidth is the narrowest layout: below it, the help is laid out at
// this width and lines run past a narrower terminal.
const minWidth = 40

// Width is the width help is wrapped to: COLUMNS when it is a number (as
// shells set it, and as a user may for a pipe), else the width of the
// terminal out is, else DefaultWidth.
func Width(getenv func(string) string, out io.Writer) int {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && n > 0 {
		return max(n, minWidth)
	}
	if f, ok := out.(*os.File); ok {
		if n := terminalWidth(f); n > 0 {
			return max(n, minWidth)
		}
	}
	return DefaultWidth
}

// TerminalWidth is the columns of the terminal out is, 0 when out is no
// terminal (a pipe, a file, a CI log): a message is wrapped for a person
// reading a terminal, and kept on one line where a log is searched line
// by line.
func TerminalWidth(out io.Writer) int {
	if f, ok := out.(*os.File); ok {
		return terminalWidth(f)
	}
	return 0
}
