package report

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The reads-and-bytes table (the table, markdown and HTML reports share
// its header, note and rows) and the inflation line.

// bytesHeader and bytesNote head the bytes table of every format: wire is
// every read's, "not ok" the part of it of reads that did not end ok,
// which inflation leaves out (an error answer is all envelope).
var bytesHeader = []string{"class", "mime", "reads", "errors", "wire", "not ok", "disk", "base64", "inflation"}

const bytesNote = "not ok: the wire bytes of error answers and cut reads, a real cost left out of inflation"

// bytesTitle is the rates line over the bytes table.
func bytesTitle(tot results.Totals) string {
	return fmt.Sprintf("wire %s, disk %s; inflation = ok answers' wire / disk", bytesPerS(tot.WireMBPerS), bytesPerS(tot.DiskMBPerS))
}

// bytesRow is one row of the bytes table.
func bytesRow(name, mime string, reads, errs, wire, errWire, disk, b64 int64, infl *float64) []string {
	return []string{clip(name), clip(orDash(mime)), numfmt.Count(reads), numfmt.Percent(errs, reads),
		numfmt.Bytes(wire), numfmt.Bytes(errWire), numfmt.Bytes(disk), numfmt.Bytes(b64), numfmt.Opt(infl, numfmt.Ratio)}
}

// classBytesRow and totalBytesRow are the rows of a class and of all reads.
func classBytesRow(c results.Class) []string {
	return bytesRow(c.Class, c.MIME, c.Reads, c.Errors, c.WireBytes, c.ErrorWire, c.DiskBytes, c.Base64Bytes, c.Inflation)
}

// totalBytesRow counts all reads, so that the column adds up even when
// the identity is broken (the outcomes table shows scheduled beside it).
func totalBytesRow(tot results.Totals) []string {
	all := bytesRow("all reads", "", sumOutcomes(tot.Outcomes), tot.Errors, tot.WireBytes, tot.ErrorWire, tot.DiskBytes, tot.Base64Bytes, tot.Inflation)
	all[1] = ""
	return all
}

func bytesTable(w io.Writer, r *results.Result) error {
	tot := r.Totals
	fmt.Fprintln(w, wrapText(fmt.Sprintf("reads and bytes (%s)\n%s", bytesTitle(tot), bytesNote), widthOf(w)))
	t := newTable(w, 2, bytesHeader...)
	for _, c := range r.Classes {
		if err := t.Append(classBytesRow(c)); err != nil {
			return err
		}
	}
	all := totalBytesRow(tot)
	if err := t.Append(all); err != nil {
		return err
	}
	return t.Render()
}

// inflationText splits the run's inflation into what base64 adds and what
// the JSON envelope adds, over disk bytes: 1.333× = 1 + 0.333 + 0.000 for
// blobs, near 1 + 0 + a little for text.
func inflationText(classes []results.Class) string {
	var wire, disk, enc, env int64
	for _, c := range classes { // the ok answers': what inflation is over
		wire, disk, enc, env = wire+c.WireBytes-c.ErrorWire, disk+c.DiskBytes, enc+c.EncodingBytes, env+c.EnvelopeBytes
	}
	if disk == 0 {
		return "no bytes read"
	}
	return fmt.Sprintf("%s = 1 + %.3f base64 encoding + %.3f JSON envelope (over disk bytes)",
		numfmt.Ratio(stats.Ratio(wire, disk)), stats.Ratio(enc, disk), stats.Ratio(env, disk))
}

// bytesPerS is a rate in MB/s written in SI units, "24.5 MB/s", or "-".
func bytesPerS(mbPerS *float64) string {
	return numfmt.Opt(mbPerS, func(v float64) string { return numfmt.Bytes(int64(v*1e6)) + "/s" })
}
