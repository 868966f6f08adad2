package report

import (
	"bytes"
	"fmt"
	"io"
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
	fmt.Fprintf(&b, "## %s: %s\n\n", comparedBy(c), mdEscape(c.New.Workload))
	switch {
	case c.Answer != nil && !c.Answer.Answered:
		fmt.Fprintf(&b, "**%s: %s**\n\n", markInconclusive, mdEscape(c.Answer.Line))
	case len(c.Bounds) == 0:
	case c.Failed():
		b.WriteString("**❌ a bound is broken**\n\n")
	case inconclusiveBounds(c) > 0:
		fmt.Fprintf(&b, "**%s: %d of %d bounds exceeded with no verdict**\n\n", markInconclusive, inconclusiveBounds(c), len(c.Bounds))
	default:
		b.WriteString("**✅ every bound holds**\n\n")
	}
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
	for i, s := range compareSections(c) {
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
	b.WriteString("\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("report: compare markdown: %w", err)
	}
	return nil
}
