package report

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/units"
)

// WriteModes writes several results side by side, one row per class of
// each: the same document read different ways (whole over MCP, in MCP
// ranged chunks, in HTTP ranges; scripts/large-log.sh runs one mode per
// process). Per ok read: wire bytes (every part), inflation, the time to
// the first usable byte and to the last (p50 and p99 from the intended
// start), parts and their p50; and the peak memory of the process that
// read, which is the mode's alone only when each result ran one class.
func WriteModes(w io.Writer, rs []*results.Result) error {
	// A table to read across, mode against mode: drawn whole whatever
	// its width, never a block per row.
	bw := &sizedWriter{width: math.MaxInt32}
	fmt.Fprintln(bw, "modes (per ok read; first usable and last byte are p50s; times from the intended start; peak RSS: the reading process)")
	t := newTable(bw, 2, "class", "mode", "ok", "document", "wire", "inflation", "first usable", "last byte", "p99", "parts", "part p50", "peak RSS")
	var notes []string
	for _, r := range rs {
		for i, c := range r.Classes {
			ok := c.Outcomes["ok"]
			per := func(n int64) string {
				if ok == 0 {
					return "-"
				}
				return numfmt.Bytes(n / ok)
			}
			parts := "-"
			switch {
			case ok > 0 && c.Chunk.Count > 0:
				parts = numfmt.Sig3(float64(c.Chunk.Count) / float64(c.Reads))
			case ok > 0:
				parts = "1" // one resources/read
			}
			rss := "-"
			if r.Generator.PeakRSSBytes > 0 {
				rss = numfmt.Bytes(r.Generator.PeakRSSBytes)
			}
			usable := "-"
			if c.FirstUsable.Count > 0 {
				usable = numfmt.Ms(c.FirstUsable.P50Ms)
			}
			partP50 := "-"
			if c.Chunk.Count > 0 {
				partP50 = numfmt.Ms(c.Chunk.P50Ms)
			}
			if err := t.Append([]string{clip(c.Class), clip(modeName(r, i)), fmt.Sprintf("%d/%d", ok, c.Reads), per(c.DiskBytes), per(c.WireBytes),
				numfmt.Opt(c.Inflation, numfmt.Ratio), usable, numfmt.Ms(c.P50Ms), numfmt.Ms(c.P99Ms), parts, partP50, rss}); err != nil {
				return fmt.Errorf("report: modes: %w", err)
			}
			if ok < c.Reads {
				notes = append(notes, fmt.Sprintf("%s (%s): %d of %d reads were not ok; bytes are per ok read and include theirs", c.Class, modeName(r, i), c.Reads-ok, c.Reads))
			}
		}
		if len(r.Classes) > 1 {
			notes = append(notes, fmt.Sprintf("%s ran %d classes in one process: its peak RSS is theirs together", r.Workload.Name, len(r.Classes)))
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("report: modes: %w", err)
	}
	fmt.Fprintln(bw, "\nwire: as received, every part (MCP: the JSON-RPC message; plain HTTP: the body; HTTP status lines and headers are not counted).")
	fmt.Fprintln(bw, "first usable: a whole MCP answer is usable when complete; ranged MCP at the end of its first part; plain HTTP at its first body byte.")
	for _, n := range notes {
		fmt.Fprintln(bw, "note: "+printable(n))
	}
	_, err := w.Write(trimLines(bw.Bytes()))
	return err
}

// modeName says how class i of r was read: over which transport, whole or
// ranged.
func modeName(r *results.Result, i int) string {
	how := "whole"
	for _, m := range r.Workload.Mix {
		if m.Name == r.Classes[i].Class && m.Ranged != nil {
			how = "ranged " + units.FormatSize(m.Ranged.Chunk)
		}
	}
	if r.Target.Transport == "files" {
		return "http " + how
	}
	return "mcp/" + r.Target.Transport + " " + how
}

// trimLines drops trailing blanks the table pads its last column with.
func trimLines(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for l := range bytes.Lines(b) {
		out = append(out, bytes.TrimRight(l, " \n")...)
		out = append(out, '\n')
	}
	return out
}
