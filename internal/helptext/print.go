package helptext

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Printer lays out the help of the app and its commands. Groups orders
// the flags' categories (a category it does not name comes after them,
// flags without one last, under "OPTIONS"); Width says how wide the help
// of each writer is.
type Printer struct {
	Groups []string
	Width  func(io.Writer) int
	// Short is the help asked for with -h (git's convention): the groups
	// named in Folded show their flags' names on a line or two rather than
	// a paragraph each, so that a command's help fits a screen or two;
	// --help shows everything, for reading in full or with grep.
	Short  bool
	Folded []string
}

// Print has the signature of cli.HelpPrinter: data is the *cli.App or
// the *cli.Command whose help is asked for; the template is urfave/cli's,
// unused.
func (p Printer) Print(out io.Writer, _ string, data any) {
	w := DefaultWidth
	if p.Width != nil {
		w = p.Width(out)
	}
	var lines []string
	switch d := data.(type) {
	case *cli.App:
		lines = p.app(d, w)
	case *cli.Command:
		lines = p.command(d, w)
	default:
		return
	}
	fmt.Fprintln(out, strings.Join(lines, "\n"))
}

// indent is the indent of every section's text.
const indent = "   "

// app is the top-level help: name, usage, description, the commands, the
// global flags.
func (p Printer) app(a *cli.App, w int) []string {
	out := section(nil, "NAME", words(a.Name+" - "+a.Usage, w-len(indent)), indent)
	usage := a.UsageText
	if usage == "" {
		usage = a.Name + " [global options] command [command options]"
	}
	out = section(out, "USAGE", examples(usage, w), "")
	if a.Version != "" && !a.HideVersion {
		out = section(out, "VERSION", []string{indent + a.Version}, "")
	}
	if a.Description != "" {
		out = section(out, "DESCRIPTION", block(a.Description, indent, w), "")
	}
	var names, usages []string
	for _, c := range a.VisibleCommands() {
		names, usages = append(names, strings.Join(c.Names(), ", ")), append(usages, c.Usage)
	}
	out = section(out, "COMMANDS", columns(names, usages, w, nameColumn(names, w)), "")
	return p.flags(out, a.VisibleFlags(), "GLOBAL OPTIONS", w)
}

// command is a command's help: name, usage (its examples), description,
// its flags in their groups.
func (p Printer) command(c *cli.Command, w int) []string {
	out := section(nil, "NAME", words(c.HelpName+" - "+c.Usage, w-len(indent)), indent)
	usage := c.UsageText
	if usage == "" {
		usage = c.HelpName + " [command options] " + c.ArgsUsage
	}
	out = section(out, "USAGE", examples(usage, w), "")
	if c.Description != "" {
		out = section(out, "DESCRIPTION", block(c.Description, indent, w), "")
	}
	return p.flags(out, c.VisibleFlags(), "OPTIONS", w)
}

// examples lays out usage lines, each a command, as example does.
func examples(usage string, w int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(usage, "\n"), "\n") {
		out = append(out, example(strings.TrimSpace(l), indent, w)...)
	}
	return out
}

// section appends a titled section: a blank line before any but the
// first, "TITLE:", then its lines (prefixed by pre).
func section(out []string, title string, lines []string, pre string) []string {
	if len(out) > 0 {
		out = append(out, "")
	}
	out = append(out, title+":")
	for _, l := range lines {
		out = append(out, pre+l)
	}
	return out
}

// flags appends the flags, a section per group in Groups' order, then
// any other category, then those without one under plain.
func (p Printer) flags(out []string, fs []cli.Flag, plain string, w int) []string {
	byGroup := map[string][]cli.Flag{}
	for _, f := range fs {
		g := ""
		if cf, ok := f.(cli.CategorizableFlag); ok {
			g = cf.GetCategory()
		}
		byGroup[g] = append(byGroup[g], f)
	}
	order := slices.Clone(p.Groups)
	for _, g := range sortedKeys(byGroup) {
		if g != "" && !slices.Contains(order, g) {
			order = append(order, g)
		}
	}
	cells := map[cli.Flag][2]string{}
	var all []string
	for _, f := range fs {
		n, u := flagCells(f)
		cells[f], all = [2]string{n, u}, append(all, n)
	}
	col := nameColumn(all, w) // one column for every group: the texts line up
	for _, g := range append(order, "") {
		if len(byGroup[g]) == 0 {
			continue
		}
		title := plain
		if g != "" {
			title = strings.ToUpper(g) + " " + plain
		}
		if p.Short && slices.Contains(p.Folded, g) {
			out = section(out, title, folded(byGroup[g], w), indent)
			continue
		}
		var names, usages []string
		for _, f := range byGroup[g] {
			names, usages = append(names, cells[f][0]), append(usages, cells[f][1])
		}
		out = section(out, title, columns(names, usages, w, col), "")
	}
	if p.Short && slices.ContainsFunc(p.Folded, func(g string) bool { return len(byGroup[g]) > 0 }) {
		out = append(out, "", "--help (not -h) shows every flag with its text.")
	}
	return out
}

// folded is a folded group's flags: their names alone, comma-separated
// and wrapped.
func folded(fs []cli.Flag, w int) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = "--" + f.Names()[0]
	}
	return words(strings.Join(names, ", "), w-len(indent))
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
