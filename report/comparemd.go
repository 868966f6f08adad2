package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/readbench/readbench/compare"
)

// WriteCompareMarkdown writes the comparison as GitHub-flavoured markdown
// for a pull-request comment or a CI job summary: the verdict first (the
// bounds, the content), then the servers, then each section as a table,
// the per-class and per-size detail folded in <details> so the comment
// stays short.
func WriteCompareMarkdown(w io.Writer, c *compare.Comparison) error {
	return Options{}.WriteCompareMarkdown(w, c)
}

// WriteCompareMarkdown is the package's WriteCompareMarkdown, each trace
// id of the slowest reads a link through o.TraceURL.
func (o Options) WriteCompareMarkdown(w io.Writer, c *compare.Comparison) error {
	var b bytes.Buffer
	sections := compareSections(c)
	var rows []compareRow
	for _, s := range sections {
		rows = append(rows, s.rows...)
	}
	verdict := mdVerdictLine(compareHeadline(c, "", rows).Verdict)
	fmt.Fprintf(&b, "## %s: %s\n\n%s\n\n", comparedBy(c), mdEscape(c.New.Workload), verdict)
	if len(c.Bounds) > 0 {
		mdVerdicts(&b, boundRows(c))
	}
	mdCompareSlow(&b, c, o.TraceURL) // beside the verdict: the reads to open when a bound broke
	mdTable(&b, "ll", []string{"", "result"}, [][]string{
		{"base", mdEscape(sideText(c.Base))}, {"new", mdEscape(sideText(c.New))}})
	if c.Forced {
		fmt.Fprintf(&b, "> **Forced:** the workloads differ: %s\n\n", mdEscape(strings.Join(c.Differences, "; ")))
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "> Note: %s\n\n", mdEscape(n))
	}
	fmt.Fprintf(&b, "Test: %s.\n\n", mdEscape(c.Test))
	notes := repeatedNotes(sections)
	for i, n := range notes {
		fmt.Fprintf(&b, "%s %s\n", noteMark(i), mdEscape(n))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	for i, s := range sections {
		if len(s.rows) == 0 {
			continue
		}
		folded := i > 0 && (s.title == "per class" || s.title == "turns by size")
		if folded {
			fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", mdEscape(s.title))
		} else {
			fmt.Fprintf(&b, "### %s\n\n", mdEscape(s.title))
		}
		rows := make([][]string, 0, len(s.rows))
		for _, r := range s.rows {
			cells := make([]string, len(r.cells))
			for j, cell := range r.cells {
				cells[j] = mdEscape(cell)
				if k := slices.Index(notes, noteOf(cell)); j == noiseColumn && k >= 0 {
					cells[j] = mdEscape(cell[:len(cell)-len(notes[k])]) + noteMark(k)
				}
			}
			rows = append(rows, cells)
		}
		mdTable(&b, "lrrrl", []string{"", "base", "new", "change", "noise"}, rows)
		if folded {
			b.WriteString("</details>\n\n")
		}
	}
	b.WriteString("### content\n\n")
	for _, l := range contentLines(c.Content) {
		fmt.Fprintf(&b, "- %s\n", mdEscape(l))
	}
	b.WriteString("\n" + verdict + "\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("report: compare markdown: %w", err)
	}
	return nil
}

// mdVerdictLine is the comparison's verdict as the markdown's first and
// last line: the headline's, which the table report and the page print
// too, marked as a pull-request comment reads at a glance.
func mdVerdictLine(v htmlMark) string {
	mark := map[string]string{"pass": "✅", "fail": "❌"}[v.Class]
	if mark == "" {
		mark = "⚠️"
	}
	return "**" + mark + " " + mdEscape(v.Text) + "**"
}

// noiseColumn is the column of a delta row's noise cell ("~ need at
// least 4 runs per side").
const noiseColumn = 4

// minRepeats is how many rows must carry the same note before the
// markdown says it once, under the test, and marks the rows.
const minRepeats = 3

// repeatedNotes are the notes of the noise cells that at least minRepeats
// rows carry ("one run per side; within the run: within the noise"), in
// the order they first appear: a comment says each once.
func repeatedNotes(sections []compareSection) []string {
	count := map[string]int{}
	var order []string
	for _, s := range sections {
		for _, r := range s.rows {
			if len(r.cells) <= noiseColumn {
				continue
			}
			n := noteOf(r.cells[noiseColumn])
			if n == "" {
				continue
			}
			if count[n] == 0 {
				order = append(order, n)
			}
			count[n]++
		}
	}
	return slices.DeleteFunc(order, func(n string) bool { return count[n] < minRepeats })
}

// noteOf is the note of a noise cell: what follows its mark ("~ ", "? "),
// "" for a cell that is a mark or a word alone.
func noteOf(cell string) string {
	mark, note, ok := strings.Cut(cell, " ")
	if !ok || len([]rune(mark)) != 1 {
		return ""
	}
	return note
}

// noteMark is the mark of the k-th repeated note: "[a]", "[b]", ...
func noteMark(k int) string {
	return fmt.Sprintf("[%c]", 'a'+rune(k%26))
}
