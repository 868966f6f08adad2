package results

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// WriteTable writes the human report of r: what ran against what, the
// latency percentiles per class, for all reads and for turns, the outcomes,
// how turns ended, the bytes and their inflation, cancellations and any
// shape findings. It fits 100 columns, uses plain ASCII rules and no
// colours, so it reads the same in a terminal, a CI log and a ticket.
func WriteTable(w io.Writer, r *Result) error {
	bw := new(bytes.Buffer)
	writeHeader(bw, r)
	steps := []func(io.Writer, *Result) error{latencyTable, bytesTable, outcomesTable, adviceTable}
	for _, step := range steps {
		fmt.Fprintln(bw)
		if err := step(bw, r); err != nil {
			return fmt.Errorf("results: report: %w", err)
		}
	}
	fmt.Fprintln(bw)
	writeFooter(bw, r)
	// The table pads its last column; trailing blanks only get in the way
	// of diffs and copies.
	out := make([]byte, 0, bw.Len())
	for l := range bytes.Lines(bw.Bytes()) {
		out = append(out, bytes.TrimRight(l, " \n")...)
		out = append(out, '\n')
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("results: report: %w", err)
	}
	return nil
}

// line writes one "label  text" line of the key-value blocks.
func line(w io.Writer, label, format string, args ...any) {
	fmt.Fprintf(w, "%-10s %s\n", label, printable(fmt.Sprintf(format, args...)))
}

func writeHeader(w io.Writer, r *Result) {
	fmt.Fprintf(w, "%s: %s\n", printable(r.Tool.String()), printable(workloadTitle(r.Workload)))
	if r.Partial {
		fmt.Fprintf(w, "PARTIAL RESULT: the run was interrupted; the figures cover its first %s\n",
			formatSeconds(r.Totals.MeasuredS))
	}
	for _, f := range headerFields(r) {
		line(w, f[0], "%s", f[1])
	}
}

// headerFields are the "what ran against what" lines of the table report.
func headerFields(r *Result) [][2]string {
	t := r.Target
	started := "-"
	if !r.Started.IsZero() {
		started = r.Started.UTC().Format("2006-01-02 15:04:05 MST")
	}
	measured := "measured " + formatSeconds(r.Totals.MeasuredS)
	if wu := r.Workload.Load.Warmup; wu != "" && wu != "0s" {
		measured += " after " + wu + " of warmup"
	}
	l := r.Workload.Load
	asked := orDash(l.Model) + " model"
	switch {
	case l.Model == workload.ModelClosed:
		asked = fmt.Sprintf("closed model, %d turns in flight", l.Concurrency)
	case r.Totals.AskedRate > 0:
		asked = fmt.Sprintf("%s model, asked %s", orDash(l.Model), formatRate(r.Totals.AskedRate, "turns"))
	}
	h := r.Host
	return [][2]string{
		{"target", t.Where()},
		{"server", fmt.Sprintf("%s, protocol %s", t.ServerText(), orDash(t.ProtocolVersion))},
		{"started", fmt.Sprintf("%s, %s, %d sessions", started, measured, r.Workload.Sessions)},
		{"load", fmt.Sprintf("%s, achieved %s, %s", asked,
			formatRate(r.Totals.AchievedRate, "turns"), formatRate(r.Totals.ReadsPerS, "reads"))},
		{"host", fmt.Sprintf("%s, %s/%s, %d CPUs, %s", orDash(h.Hostname), h.OS, h.Arch, h.CPUs, h.GoVersion)},
	}
}

// newTable returns a table in the report's style: ASCII, no outer border,
// a rule under the header, the first left columns (names) left-aligned and
// the figures right-aligned so their digits line up.
func newTable(w io.Writer, left int, header ...any) *tablewriter.Table {
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignRight
		if i < left {
			align[i] = tw.AlignLeft
		}
	}
	t := tablewriter.NewTable(w,
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
	t.Header(header...)
	return t
}

// maxName bounds the class names shown, so a long one cannot push the
// table past 100 columns.
const maxName = 24

// clip shortens a name to maxName characters and makes it printable.
func clip(s string) string {
	if r := []rune(s); len(r) > maxName {
		s = string(r[:maxName-1]) + "~"
	}
	return printable(s)
}

// printable replaces control characters by '?': a report may render a file
// from elsewhere, and its strings must not drive the terminal (escape
// sequences) or break the layout (newlines).
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}

func latencyRow(name string, l Latency) []string {
	return []string{clip(name), formatCount(l.Count), formatMs(l.P50Ms), formatMs(l.P90Ms),
		formatMs(l.P99Ms), formatMs(l.P999Ms), formatMs(l.MaxMs), formatMs(l.MeanMs)}
}

func latencyTable(w io.Writer, r *Result) error {
	fmt.Fprintln(w, "latency from each turn's intended start (count: answered reads; turns: finished turns)")
	t := newTable(w, 1, "class", "count", "p50", "p90", "p99", "p99.9", "max", "mean")
	for _, c := range r.Classes {
		if err := t.Append(latencyRow(c.Class, c.Latency)); err != nil {
			return err
		}
	}
	if err := t.Append(latencyRow("all reads", r.Read)); err != nil {
		return err
	}
	// The uncorrected figures, as wrk2 prints them beside the corrected
	// ones: a gap between the two is time the generator fell behind.
	if err := t.Append(latencyRow("service time", r.Service)); err != nil {
		return err
	}
	if r.TTFB.Count > 0 {
		if err := t.Append(latencyRow("first byte", r.TTFB)); err != nil {
			return err
		}
	}
	if err := t.Append(latencyRow("turns", r.Turn)); err != nil {
		return err
	}
	if len(r.TurnSizes) > 1 { // by size only when sizes vary
		for _, ts := range r.TurnSizes {
			if err := t.Append(latencyRow(fmt.Sprintf("  of %d reads", ts.Attachments), ts.Latency)); err != nil {
				return err
			}
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w, "service time and first byte: from the actual send, as the server saw the read")
	return nil
}

func bytesRow(name, mime string, reads, errs, wire, disk, b64 int64, infl float64) []string {
	return []string{clip(name), clip(orDash(mime)), formatCount(reads), formatPercent(errs, reads),
		formatBytes(wire), formatBytes(disk), formatBytes(b64), formatRatio(infl)}
}

func bytesTable(w io.Writer, r *Result) error {
	tot := r.Totals
	fmt.Fprintf(w, "reads and bytes (wire %s/s, disk %s/s; inflation = wire / disk)\n",
		formatBytes(int64(tot.WireMBPerS*1e6)), formatBytes(int64(tot.DiskMBPerS*1e6)))
	t := newTable(w, 2, "class", "mime", "reads", "errors", "wire", "disk", "base64", "inflation")
	for _, c := range r.Classes {
		row := bytesRow(c.Class, c.MIME, c.Reads, c.Errors, c.WireBytes, c.DiskBytes, c.Base64Bytes, c.Inflation)
		if err := t.Append(row); err != nil {
			return err
		}
	}
	// All reads counted, so that the column adds up even when the
	// identity is broken (the outcomes table shows scheduled beside it).
	all := bytesRow("all reads", "", sumOutcomes(tot.Outcomes), tot.Errors, tot.WireBytes, tot.DiskBytes, tot.Base64Bytes, tot.Inflation)
	all[1] = ""
	if err := t.Append(all); err != nil {
		return err
	}
	return t.Render()
}

// outcomeNames lists the outcomes of m: the known ones in report order,
// then any others a newer readbench wrote.
func outcomeNames(m map[string]int64) []string {
	var names []string
	known := map[string]bool{}
	for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
		names = append(names, o.String())
		known[o.String()] = true
	}
	for _, k := range sortedKeys(m) {
		if !known[k] {
			names = append(names, k)
		}
	}
	return names
}

func outcomesTable(w io.Writer, r *Result) error {
	tot := r.Totals
	identity := "identity ok: scheduled = sum of outcomes"
	if !tot.IdentityOK {
		identity = "IDENTITY BROKEN: " + formatCount(sumOutcomes(tot.Outcomes)) + " counted, reads were lost"
	}
	fmt.Fprintf(w, "outcomes of %s scheduled reads (%s)\n", formatCount(tot.Scheduled), identity)
	t := newTable(w, 1, "outcome", "count", "%")
	for _, name := range outcomeNames(tot.Outcomes) {
		if n := tot.Outcomes[name]; n != 0 {
			if err := t.Append([]string{clip(name), formatCount(n), formatPercent(n, tot.Scheduled)}); err != nil {
				return err
			}
		}
	}
	return t.Render()
}

func writeFooter(w io.Writer, r *Result) {
	tot := r.Totals
	e := tot.TurnEnds
	line(w, "turns", "%s: %s complete, %s cut by the deadline, %s failed", formatCount(tot.Turns),
		formatCount(e.Complete), formatCount(e.Cut), formatCount(e.Failed))
	c := r.Cancellation
	cancel := fmt.Sprintf("%s reads, %s late answers", formatCount(c.Cancelled), formatCount(c.LateAnswers))
	if c.LateAnswers == 0 {
		line(w, "cancelled", "%s", cancel)
	} else {
		line(w, "cancelled", "%s (the server did not honour the cancel)", cancel)
		line(w, "late", "%s wasted; answers came p50 %s, max %s after the cancel",
			formatBytes(c.WastedBytes), formatMs(c.CancelToLateMs.P50Ms), formatMs(c.CancelToLateMs.MaxMs))
	}
	line(w, "inflation", "%s", inflationText(r.Classes))
	if nf := notFound(r); nf > 0 {
		// Seed 000: a stored URI that was renamed is only discovered by the read.
		line(w, "not found", "%s reads (%s) named nothing the server has; a host should re-list and offer",
			formatCount(nf), formatPercent(nf, r.Totals.Scheduled))
		line(w, "", "the closest match, or keep the last copy marked stale: never pass the error to the model")
	}
	for _, c := range r.Classes {
		if c.Cache.Hinted > 0 {
			ttl := "ttl 0 (stale at once)"
			if c.Cache.MaxTTLMs > 0 {
				ttl = "ttl " + formatMs(c.Cache.MinTTLMs) + ".." + formatMs(c.Cache.MaxTTLMs)
			}
			line(w, "cache", "%s: %s, %d public, %d private; %s reads (%s) a host honouring the hints would not have sent",
				clip(c.Class), ttl, c.Cache.Public, c.Cache.Private,
				formatCount(c.Cache.WouldNotSend), formatPercent(c.Cache.WouldNotSend, c.Reads))
		}
	}
	line(w, "shape", "%s", shapeText(r.Shape))
	serverCostLines(w, r.ServerCost)
	line(w, "timeline", "%s", timelineNote(r.Timeline))
	wu := r.Warmup
	if wu.Scheduled > 0 || wu.Turns > 0 {
		line(w, "warmup", "%s reads, %s turns, p50 %s, p99 %s, max %s (not in the figures above)",
			formatCount(wu.Scheduled), formatCount(wu.Turns), formatMs(wu.Read.P50Ms),
			formatMs(wu.Read.P99Ms), formatMs(wu.Read.MaxMs))
	}
}

// shapeText lists the nonzero shape findings, or says there were none.
func shapeText(s Shape) string {
	counters := []struct {
		name string
		n    int64
	}{
		{"neither", s.Neither}, {"both", s.Both}, {"uri_rewritten", s.URIRewritten},
		{"mime_missing", s.MIMEMissing}, {"mime_mismatch", s.MIMEMismatch},
		{"bad_base64", s.BadBase64}, {"empty_contents", s.EmptyContents}, {"multi_entry", s.MultiEntry},
	}
	var parts []string
	for _, c := range counters {
		if c.n != 0 {
			parts = append(parts, c.name+" "+formatCount(c.n))
		}
	}
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// sumOutcomes is the number of reads counted in m.
func sumOutcomes(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// inflationText splits the run's inflation into what base64 adds and what
// the JSON envelope adds, over disk bytes: 1.333× = 1 + 0.333 + 0.000 for
// blobs, near 1 + 0 + a little for text.
func inflationText(classes []Class) string {
	var wire, disk, enc, env int64
	for _, c := range classes {
		wire, disk, enc, env = wire+c.WireBytes, disk+c.DiskBytes, enc+c.EncodingBytes, env+c.EnvelopeBytes
	}
	if disk == 0 {
		return "no bytes read"
	}
	return fmt.Sprintf("%s = 1 + %.3f base64 encoding + %.3f JSON envelope (over disk bytes)",
		formatRatio(stats.Ratio(wire, disk)), stats.Ratio(enc, disk), stats.Ratio(env, disk))
}

// serverCostLines prints what the server itself spent: the figures
// capacity planning needs, and the memory slope that hints at a leak.
func serverCostLines(w io.Writer, c ServerCost) {
	if !c.Available {
		why := "cost not measured"
		if c.Reason != "" && c.Reason != "not measured" {
			why += ": " + c.Reason
		}
		line(w, "server", "%s", why)
		return
	}
	line(w, "server", "CPU %.2f s over the measured run, %.1f ms per 1,000 reads (%d process(es), %d samples)",
		c.CPUSeconds, c.CPUMsPer1000Reads, c.Processes, c.Samples)
	line(w, "memory", "RSS %.1f MiB at start, %.1f peak, %.1f at end: %+.1f MiB, %+.1f MiB/min",
		c.RSS.StartMiB, c.RSS.PeakMiB, c.RSS.EndMiB, c.RSS.GrowthMiB, c.RSS.SlopeMiBPerMinute)
	if cs := c.ColdStart; cs.Available {
		line(w, "cold start", "spawn to first answer %s, handshake %s, first read %s (%.2f× the steady median %s)",
			formatMs(cs.SpawnToFirstAnswerMs), formatMs(cs.HandshakeMs), formatMs(cs.FirstReadMs),
			cs.FirstReadVsMedian, formatMs(cs.SteadyMedianMs))
	}
}

// notFound counts the reads that found nothing: not_found outcomes, and
// the expected errors of classes that expect not_found.
func notFound(r *Result) int64 {
	expectNF := map[string]bool{}
	for _, m := range r.Workload.Mix {
		expectNF[m.Class] = m.Expect == "not_found"
	}
	var n int64
	for _, c := range r.Classes {
		n += c.Outcomes["not_found"]
		if expectNF[c.Class] {
			n += c.Outcomes["expected_error"]
		}
	}
	return n
}
