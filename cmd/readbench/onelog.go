package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/readbench/readbench/results"
)

// When the report and stderr go to one file (a terminal, or a CI log that
// took both streams: 2>&1), the report's last line already states the
// verdict that decides the exit (results.Judgement.Line), so the exit's
// message would print it a third time under "result saved to" (issue 46,
// item 13), and a log's last line would be a path, not the verdict. There
// the lines readbench writes on stderr after a run go above the report's
// last line and the exit message is left out: head -1 and tail -1 of the
// log both read the verdict, and it is said twice, at the two ends. When
// the streams are apart (stdout to a file or a pipe), stderr keeps the
// message: it is the only place it is then said.

// sameFile says whether a and b write to one file: the same writer, or
// two *os.File on one terminal, pipe or file.
func sameFile(a, b io.Writer) bool {
	if a == b {
		return true
	}
	fa, ok := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok || !ok2 {
		return false
	}
	sa, err := fa.Stat()
	sb, err2 := fb.Stat()
	return err == nil && err2 == nil && os.SameFile(sa, sb)
}

// verdictLast splits a report into all but its last line and its last
// line, when that line is a verdict (a mark first, in bold in markdown):
// the terminal and markdown reports end so; JSON and JUnit do not (ok
// false).
func verdictLast(report []byte) (body, last []byte, ok bool) {
	trimmed := bytes.TrimSuffix(report, []byte("\n"))
	i := bytes.LastIndexByte(trimmed, '\n')
	last = trimmed[i+1:]
	l := strings.TrimPrefix(string(last), "**")
	for _, mark := range []string{"✓ ", "! ", "✗ "} {
		if strings.HasPrefix(l, mark) {
			return report[:i+1], report[i+1:], true
		}
	}
	return nil, nil, false
}

// saidAbove writes the findings j's exit outranked on stderr now, above
// the report's last line, and returns j without them and without its
// message: the report's last line says the verdict.
func saidAbove(stderr io.Writer, j results.Judgement) results.Judgement {
	for _, a := range j.Also {
		fmt.Fprintf(stderr, "readbench: %s\n", a)
	}
	j.Reason, j.Also = "", nil
	return j
}
