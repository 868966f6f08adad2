package report

import (
	"fmt"
	"io"
	"strconv"

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
func WriteInflation(w io.Writer, rows []InflationRow) error {
	var disk, wire int64
	for _, r := range rows {
		disk += r.Count * r.Disk
		wire += r.Count * r.Wire()
		if r.Text {
			fmt.Fprintf(w, "%s: %s bytes of text → %s characters once JSON-escaped, %s bytes with the answer around them\n",
				r.Input, numfmt.Count(r.Disk), numfmt.Count(r.Payload), numfmt.Count(r.Wire()))
			continue
		}
		groups := (r.Disk + 2) / 3
		pad := stats.Base64Padding(r.Disk)
		fmt.Fprintf(w, "%s: %s bytes → %s groups of 3 → %s base64 characters (%s), %s bytes with the answer around them\n",
			r.Input, numfmt.Count(r.Disk), numfmt.Count(groups), numfmt.Count(r.Payload), padding(pad), numfmt.Count(r.Wire()))
		if r.Count > 1 {
			fmt.Fprintf(w, "  × %d documents: %s bytes on disk → %s base64 characters, %s bytes on the wire\n",
				r.Count, numfmt.Count(r.Count*r.Disk), numfmt.Count(r.Count*r.Payload), numfmt.Count(r.Count*r.Wire()))
		}
	}
	fmt.Fprintln(w)
	t := newTable(w, 1, "input", "documents", "disk", "payload", "envelope", "wire", "inflation", "encoding", "envelope share")
	for _, r := range rows {
		if err := t.Append(inflationCells(r.Input, r.Count, r.Count*r.Disk, r.Count*r.Payload, r.Count*r.Envelope)); err != nil {
			return err
		}
	}
	if len(rows) > 1 {
		var n, payload, env int64
		for _, r := range rows {
			n, payload, env = n+r.Count, payload+r.Count*r.Payload, env+r.Count*r.Envelope
		}
		if err := t.Append(inflationCells("all", n, disk, payload, env)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s on disk is %s on the wire (%s): the encoding turns 3 bytes into 4; what is above 4/3 is the JSON envelope.\n",
		numfmt.Bytes(disk), numfmt.Bytes(wire), ratioOf(wire, disk))
	return nil
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
