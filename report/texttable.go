package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// textTable is a table of a terminal view. Its rows are kept until
// Render, which draws them in the report's style when the table fits the
// width of the writer (widthOf) and, when it does not, as a block per row
// of "header  value" lines (psql's expanded display): a terminal narrower
// than a table would otherwise wrap each of its lines mid-cell, and
// cutting a column would hide a figure.
type textTable struct {
	w      io.Writer
	left   int
	header []string
	rows   [][]string
}

// newTable returns a table in the report's style: ASCII, no outer border,
// a rule under the header, the first left columns (names) left-aligned and
// the figures right-aligned so their digits line up.
func newTable(w io.Writer, left int, header ...string) *textTable {
	return &textTable{w: w, left: left, header: header}
}

// Append adds a row (a cell per column of the header).
func (t *textTable) Append(row []string) error {
	if len(row) != len(t.header) {
		return fmt.Errorf("report: a row of %d cells under a header of %d", len(row), len(t.header))
	}
	t.rows = append(t.rows, slices.Clone(row))
	return nil
}

// Render writes the table, each line's trailing blanks trimmed, or its
// expanded form when the table is wider than the writer.
func (t *textTable) Render() error {
	var b bytes.Buffer
	if err := t.draw(&b); err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	width := widthOf(t.w)
	wide := false
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
		wide = wide || utf8.RuneCountInString(lines[i]) > width
	}
	if wide {
		_, err := io.WriteString(t.w, t.expanded(width))
		return err
	}
	_, err := io.WriteString(t.w, strings.Join(lines, "\n")+"\n")
	return err
}

// draw renders the table with tablewriter.
func (t *textTable) draw(w io.Writer) error {
	align := make([]tw.Align, len(t.header))
	for i := range align {
		align[i] = tw.AlignRight
		if i < t.left {
			align[i] = tw.AlignLeft
		}
	}
	tbl := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleASCII),
			Settings: tw.Settings{
				Lines:      tw.Lines{ShowHeaderLine: tw.On},
				Separators: tw.Separators{BetweenColumns: tw.On},
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
	)
	cells := make([]any, len(t.header))
	for i, h := range t.header {
		cells[i] = h
	}
	tbl.Header(cells...)
	for _, r := range t.rows {
		if err := tbl.Append(r); err != nil {
			return err
		}
	}
	return tbl.Render()
}

// expanded is the table a block per row: a rule naming the row (its first
// cell, or its number when the first header is no name), then a line per
// other column, "header  value", the value wrapped to width.
func (t *textTable) expanded(width int) string {
	name := 0
	for _, h := range t.header {
		name = max(name, utf8.RuneCountInString(h))
	}
	var b strings.Builder
	for i, r := range t.rows {
		first, from := fmt.Sprintf("row %d", i+1), 0
		if t.left > 0 && strings.TrimSpace(r[0]) != "" {
			first, from = strings.TrimSpace(r[0]), 1
		}
		rule := "-[ " + first + " ]"
		b.WriteString(rule + strings.Repeat("-", max(0, min(width, 40)-utf8.RuneCountInString(rule))) + "\n")
		for j := from; j < len(r); j++ {
			pad := strings.Repeat(" ", name-utf8.RuneCountInString(t.header[j]))
			value := strings.ReplaceAll(wrapText(strings.TrimSpace(r[j]), max(width-name-2, 10)), "\n", "\n"+strings.Repeat(" ", name+2))
			b.WriteString(strings.TrimRight(t.header[j]+pad+"  "+value, " ") + "\n")
		}
	}
	return b.String()
}
