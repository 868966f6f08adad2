package helptext

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestExample: an example that fits stays as written; one that does not
// has its comment above it and is broken between words outside quotes
// with " \" continuations; nothing runs past the width.
func TestExample(t *testing.T) {
	for _, c := range []struct {
		name, line string
		w          int
		want       []string
	}{
		{"fits", "readbench run -d 1m", 40, []string{"   readbench run -d 1m"}},
		{"a comment goes above", "readbench run --cpuprofile cpu.pprof   # where it spends", 40,
			[]string{"   # where it spends", "   readbench run --cpuprofile cpu.pprof"}},
		{"quotes are never broken", "readbench run --header 'Authorization: Bearer x' w.yaml", 40,
			[]string{"   readbench run --header \\", "       'Authorization: Bearer x' w.yaml"}},
		{"a # inside quotes is no comment", "readbench run --header 'X: a # b' --target http://127.0.0.1:1/mcp", 50,
			[]string{"   readbench run --header 'X: a # b' --target \\", "       http://127.0.0.1:1/mcp"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := example(c.line, indent, c.w)
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			for _, l := range got {
				if width(l) > c.w {
					t.Errorf("%q is wider than %d", l, c.w)
				}
			}
		})
	}
}

// TestParagraphs: hard-wrapped prose is joined into paragraphs; blank
// lines, indented examples, list items and a flag's sentence after one
// that ended keep their own lines.
func TestParagraphs(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"prose joins", "one two\nthree four", []string{"one two three four"}},
		{"blank lines stay", "one\n\ntwo", []string{"one", "", "two"}},
		{"an example keeps its line", "Run:\n    readbench run\nthen", []string{"Run:", "    readbench run", "then"}},
		{"a flag after a sentence", "It serves.\n--stdio reads stdin and\n--to), each", []string{"It serves.", "--stdio reads stdin and --to), each"}},
		{"list items", "Some:\n- a\n- b", []string{"Some:", "- a", "- b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := paragraphs(c.text); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestWidth: COLUMNS decides, else the terminal, else 80; a width too
// narrow to lay out is raised to the least one.
func TestWidth(t *testing.T) {
	for _, c := range []struct {
		columns string
		want    int
	}{{"120", 120}, {"", DefaultWidth}, {"wide", DefaultWidth}, {"10", minWidth}} {
		if got := Width(func(string) string { return c.columns }, &bytes.Buffer{}); got != c.want {
			t.Errorf("COLUMNS=%q: %d, want %d", c.columns, got, c.want)
		}
	}
}

// TestPrintGroupsFlags: a command's flags are printed under their groups
// in the Printer's order, an unnamed group after them, ungrouped flags
// last, each row within the width with its texts in one column.
func TestPrintGroupsFlags(t *testing.T) {
	cmd := &cli.Command{Name: "run", HelpName: "readbench run", Usage: "run a workload", UsageText: "readbench run",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Category: "output", Usage: "save the result to `FILE`"},
			&cli.StringFlag{Name: "rate", Aliases: []string{"r"}, Category: "load", Usage: "turns per second, e.g. `50/s`, " + strings.Repeat("and more words ", 8)},
			&cli.StringFlag{Name: "mystery", Category: "zzz", Usage: "a group the printer does not name"},
			&cli.IntFlag{Name: "sessions", Category: "load", Value: 2, Usage: "sessions"},
			&cli.BoolFlag{Name: "plain", Usage: "no group"},
		}}
	var b bytes.Buffer
	Printer{Groups: []string{"load", "output"}, Width: func(io.Writer) int { return 60 }}.Print(&b, "", cmd)
	out := b.String()
	order := []string{"LOAD OPTIONS:", "--rate 50/s, -r", "--sessions N", "(default: 2)", "OUTPUT OPTIONS:", "--out FILE", "ZZZ OPTIONS:", "\nOPTIONS:", "--plain"}
	at := -1
	for _, w := range order {
		i := strings.Index(out, w)
		if i < at {
			t.Errorf("%q is not after the one before (at %d, before %d):\n%s", w, i, at, out)
		}
		at = i
	}
	for _, l := range strings.Split(out, "\n") {
		if width(l) > 60 {
			t.Errorf("%q is wider than 60", l)
		}
	}
}

func TestHang(t *testing.T) {
	for _, c := range []struct {
		text string
		w    int
		want string
	}{
		{"short", 20, "short"},
		{"readbench: one two three four five", 16, "readbench: one\n  two three four\n  five"},
		{"a https://example.com/a/very/long/url b", 12, "a\n  https://ex\n  ample.com/\n  a/very/lon\n  g/url b"},
	} {
		got := Hang(c.text, "  ", c.w)
		if got != c.want {
			t.Errorf("Hang(%q, %d) = %q, want %q", c.text, c.w, got, c.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if width(l) > c.w {
				t.Errorf("Hang(%q, %d): line %q is wider", c.text, c.w, l)
			}
		}
	}
}
