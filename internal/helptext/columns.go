package helptext

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// The two-column rows of commands and flags: the names, then the text
// wrapped in a column of its own.

// maxNameShare is the widest the names' column may be, a share of the
// width: a longer name puts its text on the next line.
const maxNameShare = 3

// nameColumn is the width of the names' column: the longest name that
// fits a third of the width w.
func nameColumn(names []string, w int) int {
	col := 0
	for _, n := range names {
		if l := width(n); l > col && l <= w/maxNameShare {
			col = l
		}
	}
	return col
}

// columns lays out rows of a name and its text in w columns: the texts
// start in one column, col after the names (nameColumn); a longer name
// has its text start on the line below.
func columns(names, texts []string, w, col int) []string {
	start := len(indent) + col + 2
	var out []string
	for i, n := range names {
		text := words(texts[i], w-start)
		first := indent + n
		if width(first)+2 > start {
			out = append(out, first)
		} else {
			text[0] = first + strings.Repeat(" ", start-width(first)) + text[0]
			out, text = append(out, strings.TrimRight(text[0], " ")), text[1:]
		}
		for _, l := range text {
			out = append(out, strings.Repeat(" ", start)+l)
		}
	}
	return out
}

// flagCells is a flag's name cell, "--rate 50/s, -r" (the placeholder
// from its usage's `backquotes`, else one named for its type or its name,
// placeholderOf, for one that takes a value),
// and its text: the usage, its default when it is not a zero value, and
// the environment variables it reads.
func flagCells(f cli.Flag) (string, string) {
	names := f.Names()
	df, _ := f.(cli.DocGenerationFlag)
	usage, placeholder := "", ""
	if df != nil {
		placeholder, usage = unquoteUsage(df.GetUsage())
		if placeholder == "" && df.TakesValue() {
			placeholder = placeholderOf(f)
		}
	}
	cell := "--" + names[0]
	if placeholder != "" {
		cell += " " + placeholder
	}
	for _, a := range names[1:] {
		if len(a) == 1 {
			cell += ", -" + a
		} else {
			cell += ", --" + a
		}
	}
	if df == nil {
		return cell, usage
	}
	if d := df.GetDefaultText(); df.TakesValue() && !zero(d) {
		usage += fmt.Sprintf(" (default: %s)", d)
	}
	if env := df.GetEnvVars(); len(env) > 0 {
		usage += " [$" + strings.Join(env, ", $") + "]"
	}
	return cell, usage
}

// placeholderOf names the value of a flag whose usage names none: by its
// type where the type says what is written (DURATION, N, NUMBER, PATH),
// else by the last word of the flag's name (--trace-url URL, --format
// FORMAT), never urfave/cli's "value", which says nothing.
func placeholderOf(f cli.Flag) string {
	switch f.(type) {
	case *cli.DurationFlag:
		return "DURATION"
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return "N"
	case *cli.Float64Flag:
		return "NUMBER"
	case *cli.PathFlag:
		return "PATH"
	}
	name := f.Names()[0]
	return strings.ToUpper(name[strings.LastIndexAny(name, "-_")+1:])
}

// zero reports whether a default says nothing: empty, 0, 0s, false, an
// empty list.
func zero(d string) bool {
	switch d {
	case "", "0", "0s", "false", `""`, "[]":
		return true
	}
	return false
}

// unquoteUsage takes the first `backquoted` word of a usage as the
// placeholder, and the usage without the backquotes (urfave/cli's rule).
func unquoteUsage(usage string) (placeholder, text string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	name := usage[i+1 : i+1+j]
	return name, usage[:i] + name + usage[i+2+j:]
}
