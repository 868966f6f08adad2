package client

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// stderrQuote keeps what of a child's stderr explains its end, in bounded
// memory whatever the child writes: the first lines, the lines from the
// first that names an error on, and the last lines. A crashing Node server prints its
// cause first ("Unhandled 'error' event", "Error: terminating connection
// …") and then a dump of the error object of a hundred lines or more;
// the end alone, as once quoted, was the dump and never the cause.
type stderrQuote struct {
	mu      sync.Mutex
	partial []byte         // the line being written, cut at maxLineBytes
	n       int            // lines ended so far
	head    []numberedLine // the first quoteAll lines
	errs    []numberedLine // maxErrLines lines from the first that names an error
	tail    []numberedLine // the last tailLines lines, oldest first
}

// The quote's bounds: a stderr of quoteAll lines or fewer is quoted whole;
// a longer one by maxErrLines lines from the first that names an error
// (the error and its first frames, as runtimes print them) and its last
// tailLines lines, so that no message is longer than ~15 lines.
const (
	quoteAll     = 15
	maxErrLines  = 8
	tailLines    = 5
	maxLineBytes = 240 // a line is cut here (a minified stack trace, a JSON dump on one line)
)

// numberedLine is one line of stderr and its number, from 1.
type numberedLine struct {
	no   int
	text string
}

// namesError matches a line that names an error in the words servers and
// their runtimes use (Node, Python, Go, the JVM, databases).
var namesError = regexp.MustCompile(`(?i)\b(error|exception|fatal|panic|unhandled|terminat\w*|traceback|refused|denied|failed|cannot)\b`)

func (q *stderrQuote) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			q.add(rest)
			break
		}
		q.add(rest[:i])
		q.end()
		rest = rest[i+1:]
	}
	return len(p), nil
}

// add appends b to the line being written, up to maxLineBytes.
func (q *stderrQuote) add(b []byte) {
	if room := maxLineBytes - len(q.partial); room > 0 {
		q.partial = append(q.partial, b[:min(len(b), room)]...)
	}
}

// end ends the line being written.
func (q *stderrQuote) end() {
	q.n++
	l := numberedLine{no: q.n, text: strings.TrimRight(strings.ToValidUTF8(string(q.partial), "\uFFFD"), "\r")}
	if len(q.partial) >= maxLineBytes {
		l.text = trimRunes(l.text) + " …"
	}
	q.partial = q.partial[:0]
	if len(q.head) < quoteAll {
		q.head = append(q.head, l)
	}
	if len(q.errs) > 0 && len(q.errs) < maxErrLines || len(q.errs) == 0 && namesError.MatchString(l.text) {
		q.errs = append(q.errs, l)
	}
	if len(q.tail) == tailLines {
		q.tail = append(q.tail[:0], q.tail[1:]...)
	}
	q.tail = append(q.tail, l)
}

// trimRunes drops a rune cut in half at the end of s.
func trimRunes(s string) string {
	for len(s) > 0 {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

// String is the quote: "" for an empty stderr, the line itself for one
// line, else a count and the chosen lines, numbered and indented, with
// "…" where lines are left out.
func (q *stderrQuote) String() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	lines, total := q.chosen()
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1].text) == "" && lines[len(lines)-1].no == total {
		lines, total = lines[:len(lines)-1], total-1 // a trailing blank line says nothing
	}
	switch {
	case len(lines) == 0:
		return ""
	case total == 1:
		return strings.TrimSpace(lines[0].text)
	}
	var b strings.Builder
	if total <= quoteAll {
		fmt.Fprintf(&b, "%d lines:", total)
	} else {
		fmt.Fprintf(&b, "%d lines, quoted from the first that names an error, and the last %d:", total, tailLines)
	}
	prev := 0
	for _, l := range lines {
		if l.no > prev+1 {
			lines := "lines"
			if l.no-prev-1 == 1 {
				lines = "line"
			}
			fmt.Fprintf(&b, "\n        … %d %s …", l.no-prev-1, lines)
		}
		fmt.Fprintf(&b, "\n  %4d: %s", l.no, l.text)
		prev = l.no
	}
	return b.String()
}

// chosen is the lines to quote in order, and the number of lines stderr
// had (a last line without its newline counted).
func (q *stderrQuote) chosen() ([]numberedLine, int) {
	total := q.n
	tail := q.tail
	if len(q.partial) > 0 {
		total++
		last := numberedLine{no: total, text: string(q.partial)}
		if total <= quoteAll {
			return append(append([]numberedLine{}, q.head...), last), total
		}
		tail = append(append([]numberedLine{}, tail...), last)[max(0, len(tail)+1-tailLines):]
	}
	if total <= quoteAll {
		return q.head, total
	}
	var out []numberedLine
	for _, l := range q.errs {
		if l.no < tail[0].no {
			out = append(out, l)
		}
	}
	if len(q.errs) == 0 { // nothing names an error: the first lines say what the server was doing
		out = q.head[:3]
	}
	return append(out, tail...), total
}
