package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// InflationRow is one input of `readbench inflation`: Count documents of
// Disk bytes each, as one resources/read answer apiece. The command line
// measures the answer around each payload and fills the row; this package
// only lays the arithmetic out, like any other report.
type InflationRow struct {
	Input    string // as the user wrote it: a size, NxSIZE or a file
	Count    int64
	Disk     int64 // bytes on disk, per document
	Text     bool  // sent as text (JSON-escaped) rather than a base64 blob
	Envelope int64 // the answer's bytes around the payload, per document
	Payload  int64 // the payload as written in the answer: base64 characters or escaped text
}

// Wire is the whole answer per document.
func (r InflationRow) Wire() int64 { return r.Envelope + r.Payload }

// WriteInflation prints the wire arithmetic of each input and of all
// together: the exact base64 length 4·ceil(n/3), its padding, the JSON
// envelope around it, and the inflation split into encoding and envelope.
// Every line fits width columns (the terminal's, or 80): the sentences
// wrap, and a table wider than that becomes a sentence per input.
func WriteInflation(w io.Writer, rows []InflationRow, width int) error {
	var disk, wire int64
	var b strings.Builder
	for _, r := range rows {
		disk += r.Count * r.Disk
		wire += r.Count * r.Wire()
		if r.Text {
			b.WriteString(wrapText(fmt.Sprintf("%s: %s bytes of text → %s characters once JSON-escaped, %s bytes with the answer around them",
				r.Input, numfmt.Count(r.Disk), numfmt.Count(r.Payload), numfmt.Count(r.Wire())), width) + "\n")
			continue
		}
		groups := (r.Disk + 2) / 3
		pad := stats.Base64Padding(r.Disk)
		b.WriteString(wrapText(fmt.Sprintf("%s: %s bytes → %s groups of 3 → %s base64 characters (%s), %s bytes with the answer around them",
			r.Input, numfmt.Count(r.Disk), numfmt.Count(groups), numfmt.Count(r.Payload), padding(pad), numfmt.Count(r.Wire())), width) + "\n")
		if r.Count > 1 {
			b.WriteString(indented(fmt.Sprintf("× %d documents: %s bytes on disk → %s base64 characters, %s bytes on the wire",
				r.Count, numfmt.Count(r.Count*r.Disk), numfmt.Count(r.Count*r.Payload), numfmt.Count(r.Count*r.Wire())), width))
		}
	}
	b.WriteString("\n")
	cells := make([][]string, 0, len(rows)+1)
	for _, r := range rows {
		cells = append(cells, inflationCells(r.Input, r.Count, r.Count*r.Disk, r.Count*r.Payload, r.Count*r.Envelope))
	}
	if len(rows) > 1 {
		var n, payload, env int64
		for _, r := range rows {
			n, payload, env = n+r.Count, payload+r.Count*r.Payload, env+r.Count*r.Envelope
		}
		cells = append(cells, inflationCells("all", n, disk, payload, env))
	}
	table, err := inflationTable(cells)
	if err != nil {
		return err
	}
	if widest(table) > width {
		table = inflationSentences(cells, width)
	}
	b.WriteString(table)
	b.WriteString("\n" + wrapText(fmt.Sprintf("%s on disk is %s on the wire (%s): the encoding turns 3 bytes into 4; what is above 4/3 is the JSON envelope.",
		numfmt.Bytes(disk), numfmt.Bytes(wire), ratioOf(wire, disk)), width) + "\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// inflationHeader names the columns of inflationCells.
var inflationHeader = []string{"input", "documents", "disk", "payload", "envelope", "wire", "inflation", "encoding", "envelope share"}

// inflationTable is the table of the rows' cells, each line's trailing
// blanks trimmed.
func inflationTable(cells [][]string) (string, error) {
	var b strings.Builder
	t := newTable(&b, 1, inflationHeader...)
	for _, c := range cells {
		if err := t.Append(c); err != nil {
			return "", err
		}
	}
	if err := t.Render(); err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// inflationSentences says the table's rows as short lines, an input's
// three under its name, for a terminal too narrow for the table.
func inflationSentences(cells [][]string, width int) string {
	var b strings.Builder
	for _, c := range cells {
		docs := c[1] + " documents"
		if c[1] == "1" {
			docs = "1 document"
		}
		b.WriteString(wrapText(c[0]+": "+docs+", "+c[2]+" on disk", width) + "\n")
		b.WriteString(indented(fmt.Sprintf("wire %s = payload %s + envelope %s", c[5], c[3], c[4]), width))
		b.WriteString(indented(fmt.Sprintf("inflation %s (encoding %s, envelope share %s)", c[6], c[7], c[8]), width))
	}
	return b.String()
}

// indented is s wrapped to width, each of its lines indented by two
// blanks, with a newline.
func indented(s string, width int) string {
	return "  " + strings.ReplaceAll(wrapText(s, width-2), "\n", "\n  ") + "\n"
}

// widest is the width in columns of s's widest line.
func widest(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, utf8.RuneCountInString(l))
	}
	return n
}

func inflationCells(input string, n, disk, payload, env int64) []string {
	wire := payload + env
	return []string{input, strconv.FormatInt(n, 10), numfmt.Bytes(disk), numfmt.Bytes(payload), numfmt.Bytes(env), numfmt.Bytes(wire),
		ratioOf(wire, disk), ratioOf(payload, disk), numfmt.Percent(env, wire)}
}

// ratioOf writes a/b as a ratio, numfmt.None when b is 0 (an empty input):
// no ratio, not 0.000×.
func ratioOf(a, b int64) string {
	if b <= 0 {
		return numfmt.None
	}
	return numfmt.Ratio(stats.Ratio(a, b))
}

func padding(n int) string {
	switch n {
	case 0:
		return "no padding: a whole number of groups"
	case 1:
		return "the last group is short by one byte: one '='"
	}
	return "the last group is short by two bytes: two '='"
}
