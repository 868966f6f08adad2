package client

import (
	"os"
	"strings"
	"testing"
)

// TestStderrQuote: what of a child's stderr a message quotes. The case of
// the issue: a Node server that crashed on an unhandled 'error' event
// printed its cause first and ~120 lines of an object dump after; the end
// alone (4 KiB, as once quoted) held none of the cause.
func TestStderrQuote(t *testing.T) {
	node, err := os.ReadFile("testdata/node-unhandled-error.txt")
	if err != nil {
		t.Fatal(err)
	}
	many := func(n int, line string) string { return strings.Repeat(line+"\n", n) }
	cases := []struct {
		name, in string
		want     []string // in the quote, in this order
		not      []string
		maxLines int
	}{
		{"empty", "", nil, nil, 0},
		{"one line", "no config\n", []string{"no config"}, []string{"1 lines", ":"}, 1},
		{"one line, no newline", "no config", []string{"no config"}, nil, 1},
		{"a few lines, whole", "a\nb\nc\n", []string{"3 lines:", "   1: a", "   2: b", "   3: c"}, []string{"…"}, 4},
		{"Node's unhandled 'error' event", string(node),
			[]string{"138 lines", "Unhandled 'error' event", "Error: terminating connection due to administrator command", "… 124 lines …", "Node.js v20"},
			[]string{"setting_20"}, 16},
		{"nothing names an error: the first lines and the last", many(40, "working") + "done\n",
			[]string{"41 lines", "   1: working", "   3: working", "… 33 lines …", "  41: done"}, []string{"   4: working"}, 10},
		{"a Python traceback: its error is last", "starting\n" + many(30, "  File \"x.py\", line 1, in f") + "ValueError: bad table\n",
			[]string{"32 lines", "ValueError: bad table"}, nil, 16},
		{"a line too long is cut", strings.Repeat("x", 10000) + "\n" + "end\n", []string{"2 lines", strings.Repeat("x", maxLineBytes) + " …", "end"}, nil, 3},
		{"a last line without its newline", many(20, "noise") + "panic: boom", []string{"21 lines", "panic: boom"}, nil, 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var q stderrQuote
			for rest := c.in; rest != ""; { // written in pieces, as a pipe delivers it
				n := min(len(rest), 37)
				if _, err := q.Write([]byte(rest[:n])); err != nil {
					t.Fatal(err)
				}
				rest = rest[n:]
			}
			got := q.String()
			at := 0
			for _, w := range c.want {
				i := strings.Index(got[at:], w)
				if i < 0 {
					t.Fatalf("quote lacks %q (in order):\n%s", w, got)
				}
				at += i + len(w)
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("quote has %q:\n%s", n, got)
				}
			}
			if lines := strings.Count(got, "\n") + 1; got != "" && lines > c.maxLines {
				t.Errorf("quote of %d lines, want at most %d:\n%s", lines, c.maxLines, got)
			}
		})
	}
}

// TestStderrQuoteBounded: a child that writes without end costs the quote
// a bounded amount of memory.
func TestStderrQuoteBounded(t *testing.T) {
	var q stderrQuote
	chunk := []byte(strings.Repeat("a chatty line with an error in it\n", 1000) + strings.Repeat("y", 100000))
	for range 100 {
		_, _ = q.Write(chunk)
	}
	held := len(q.partial)
	for _, ls := range [][]numberedLine{q.head, q.errs, q.tail} {
		for _, l := range ls {
			held += len(l.text)
		}
	}
	if held > (quoteAll+maxErrLines+tailLines+1)*(maxLineBytes+8) {
		t.Errorf("the quote holds %d bytes after 13 MB of stderr", held)
	}
	if q.n != 100*1000 {
		t.Errorf("counted %d lines, want %d", q.n, 100*1000)
	}
}
