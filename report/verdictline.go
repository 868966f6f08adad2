package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/readbench/readbench/results"
)

// The verdict a view opens and ends with: the judgement that decided the
// exit status (results.Judgement.Line), never re-derived here, so that a
// run that exits 1 cannot open with "✓ healthy" while the reason is its
// second line (issue 46, item 3). The terminal report opens with it, then
// the health and the thresholds' verdict when they say something else,
// and ends with it alone; the markdown report opens and ends with it in
// bold; the HTML page's title and banner start with it; JUnit's suite
// carries it as its first property, and fails a case exactly when the exit
// is not 0.

// endingLine is the verdict line of r, as printed (control characters
// neutralised).
func endingLine(r *results.Result) string { return printable(r.Judgement().Line) }

// openingLines are the lines the terminal report opens with: the verdict,
// then the health line and the thresholds' verdict ("✗ 1 of 2 thresholds
// broken", "- no thresholds set") each when the verdict does not already
// say it.
func openingLines(r *results.Result) []string {
	first := endingLine(r)
	lines := []string{first}
	if h := printable(healthOf(r).Line); h != first {
		lines = append(lines, h)
	}
	if v := printable(verdictLine(r)); !strings.HasPrefix(first, v) {
		lines = append(lines, v)
	}
	return lines
}

// writeWrapped writes one verdict line wrapped to w's width, its
// continuation indented.
func writeWrapped(w io.Writer, line string) {
	fmt.Fprintln(w, strings.ReplaceAll(wrapText(line, widthOf(w)), "\n", "\n  "))
}

// closingLine is the verdict as the report's very last line: one line
// (cut at width columns with "…" when longer: the whole of it opens the
// report), so that the last line of a log is the verdict, mark first,
// never the tail of a wrapped sentence.
func closingLine(r *results.Result, width int) string {
	line := endingLine(r)
	if rs := []rune(line); len(rs) > width {
		line = string(rs[:width-1]) + "…"
	}
	return line
}

// mdEnding is the verdict line as the markdown report's first and last
// line: bold.
func mdEnding(r *results.Result) string { return "**" + mdEscape(r.Judgement().Line) + "**" }

// htmlEnding is the verdict as the page's banner opens with it: the line
// in the colour of its mark, the exit's word for scripts (data-exit:
// passed, failed, misused, interrupted, not-saved).
func htmlEnding(r *results.Result) htmlMark {
	line := endingLine(r)
	m := htmlMark{Class: "warn", Mark: markWarn}
	switch {
	case strings.HasPrefix(line, markPass+" "):
		m = htmlMark{Class: "pass", Mark: markPass}
	case strings.HasPrefix(line, markFail+" "):
		m = htmlMark{Class: "fail", Mark: markFail}
	}
	m.Text = strings.TrimSpace(strings.TrimPrefix(line, m.Mark))
	return m
}

// exitWord is how a judgement ended, in one word (data-exit on the page,
// the JUnit suite's "exit" property).
func exitWord(e results.Exit) string {
	switch e {
	case results.Passed:
		return "passed"
	case results.Failed:
		return "failed"
	case results.Misused:
		return "misused"
	case results.Interrupted:
		return "interrupted"
	case results.NotSaved:
		return "not-saved"
	}
	return "unknown"
}
