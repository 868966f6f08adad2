package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// WriteTable writes the terminal report of r, what a run ends with: the
// verdict first, what ran against what, the latency per class, for all
// reads and for turns, the outcomes, how turns ended, the bytes, the
// recommended limits and the findings that need a look, then the verdict
// again, so it is on the screen whichever end a reader looks at (the
// verdict that decided the exit status: verdictline.go). It fits
// about 40 lines for a handful of classes and 100 columns, uses plain
// ASCII rules and no colours, so it reads the same in a terminal, a CI
// log and a ticket. The detail is in WriteFullTable, the other formats
// and the result.
//
// The slowest reads get the lines the rest leaves of the budget
// (briefLines), up to briefSlowest, a line each: a report over the
// budget with all of them is rendered again with as many fewer as it is
// over.
func WriteTable(w io.Writer, r *results.Result) error { return Options{}.WriteTable(w, r) }

// WriteTable is the package's WriteTable, laid out for o's width.
func (o Options) WriteTable(w io.Writer, r *results.Result) error {
	var b bytes.Buffer
	if err := writeTable(&b, r, briefBody(briefSlowest), o.width()); err != nil {
		return err
	}
	if over := bytes.Count(b.Bytes(), []byte("\n")) - briefLines; over > 0 {
		b.Reset()
		if err := writeTable(&b, r, briefBody(max(0, briefSlowest-over)), o.width()); err != nil {
			return err
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteFullTable writes the whole terminal report of r (run --full,
// report --full): WriteTable's frame with every table and line: service
// time, first byte and lag rows, the bytes per class, the advice and its
// reasoning, cancellation, connections, cache hints, the server's cost,
// the timeline and the warmup.
func WriteFullTable(w io.Writer, r *results.Result) error { return Options{}.WriteFullTable(w, r) }

// WriteFullTable is the package's WriteFullTable, laid out for o's width.
func (o Options) WriteFullTable(w io.Writer, r *results.Result) error {
	return writeTable(w, r, fullBody, o.width())
}

// writeTable frames body between the verdict lines and writes it, laid
// out for width columns, trailing blanks trimmed (the tables pad their
// last column; blanks only get in the way of diffs and copies).
func writeTable(w io.Writer, r *results.Result, body func(io.Writer, *results.Result) error, width int) error {
	bw := &sizedWriter{width: width}
	for _, l := range openingLines(r) { // the verdict that decided the exit first, then health and thresholds
		writeWrapped(bw, l)
	}
	writeHeader(bw, r)
	if err := body(bw, r); err != nil {
		return fmt.Errorf("report: report: %w", err)
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, closingLine(r, width)) // and last, alone: tail -1 of a log is the exit's verdict
	out := make([]byte, 0, bw.Len())
	for l := range bytes.Lines(bw.Bytes()) {
		out = append(out, bytes.TrimRight(l, " \n")...)
		out = append(out, '\n')
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("report: report: %w", err)
	}
	return nil
}

// fullBody is the detail under the header: every table, then every line.
func fullBody(w io.Writer, r *results.Result) error {
	for _, step := range []func(io.Writer, *results.Result) error{latencyTable, bytesTable, outcomesTable, adviceTable} {
		fmt.Fprintln(w)
		if err := step(w, r); err != nil {
			return err
		}
	}
	if err := slowTables(w, r); err != nil {
		return err
	}
	if err := authTable(w, r); err != nil {
		return err
	}
	if err := subscriptionsTable(w, r); err != nil {
		return err
	}
	fmt.Fprintln(w)
	writeFields(w, footerFields(r))
	return nil
}

// line writes one "label  text" line of the key-value blocks.
func line(w io.Writer, label, format string, args ...any) {
	writeFields(w, [][2]string{{label, fmt.Sprintf(format, args...)}})
}

func writeHeader(w io.Writer, r *results.Result) {
	fmt.Fprintln(w, wrapText(printable(toolName(r.Tool))+": "+printable(workloadTitle(r.Workload)), widthOf(w)))
	if r.Partial {
		fmt.Fprintln(w, wrapText("PARTIAL RESULT: the run was interrupted; the figures cover its first "+numfmt.Seconds(r.Totals.MeasuredS), widthOf(w)))
	}
	if g := generatorBound(r); g != "" {
		fmt.Fprintln(w, wrapText(g, widthOf(w)))
	}
	writeSummary(w, r)
	fmt.Fprintln(w)
	writeFields(w, headerFields(r))
}

// writeFields writes labelled lines, each wrapped to the report's 100
// columns under its label.
func writeFields(w io.Writer, fields [][2]string) {
	for _, f := range fields {
		label := f[0]
		for _, l := range strings.Split(wrapText(printable(f[1]), widthOf(w)-len("cold start ")), "\n") {
			fmt.Fprintf(w, "%-10s %s\n", label, l)
			label = "" // a continuation
		}
	}
}

// headerFields are the "what ran against what" lines of the table report.
func headerFields(r *results.Result) [][2]string {
	t := r.Target
	started := "-"
	if !r.Started.IsZero() {
		started = r.Started.UTC().Format("2006-01-02 15:04:05 MST")
	}
	measured := "measured " + numfmt.Seconds(r.Totals.MeasuredS)
	if wu := r.Workload.Load.Warmup; wu > 0 {
		measured += " after " + wu.String() + " of warmup"
	}
	l := r.Workload.Load
	asked := orDash(l.Model) + " model"
	switch {
	case l.Closed():
		asked = fmt.Sprintf("closed model, %d turns in flight", l.Concurrency)
	case r.Totals.AskedRate > 0:
		asked = fmt.Sprintf("%s model, asked %s", orDash(l.Model), numfmt.Rate(r.Totals.AskedRate, "turns"))
	}
	h := r.Host
	fields := [][2]string{
		{"target", where(t)},
		{"server", fmt.Sprintf("%s, protocol %s", serverText(t), orDash(t.ProtocolVersion))},
		{"started", fmt.Sprintf("%s, %s, %d sessions", started, measured, r.Workload.Sessions)},
		{"load", fmt.Sprintf("%s, achieved %s, %s", asked,
			rate(r.Totals.AchievedRate, "turns"), rate(r.Totals.ReadsPerS, "reads"))},
		{"host", fmt.Sprintf("%s, %s/%s, %d CPUs, %s%s", orDash(h.Hostname), h.OS, h.Arch, h.CPUs, h.GoVersion, pressureText(h.CPUPressure))},
	}
	if s := sessionsText(r); s != "" {
		fields = append(fields, [2]string{"sessions", s})
	}
	if s := churnText(r.Connections); s != "" {
		fields = append(fields, [2]string{"churn", s})
	}
	switch {
	case r.Segment.N > 1:
		fields = append(fields, [2]string{"shard", fmt.Sprintf("segment %d/%d: this shard's share of the run; readbench merge adds the %d shards", r.Segment.K, r.Segment.N, r.Segment.N)})
	case len(r.Shards) > 0:
		fields = append(fields, [2]string{"shards", fmt.Sprintf("merged from %d shards (server cost per shard in the result's shards)", len(r.Shards))})
	}
	return fields
}

// footerFields are the labelled lines under the table report's tables:
// turn ends, cancellation, inflation, not-found reads, cache hints, shape
// findings, server cost, the timeline and the warmup. The HTML report
// shows the same lines, so both say the same in the same words. A label
// of "" continues the line above.
func footerFields(r *results.Result) [][2]string {
	var fs [][2]string
	add := func(label, format string, args ...any) {
		fs = append(fs, [2]string{label, fmt.Sprintf(format, args...)})
	}
	tot := r.Totals
	e := tot.TurnEnds
	add("turns", "%s: %s complete, %s cut by the deadline, %s failed, %s dropped (never started)", numfmt.Count(tot.Turns),
		numfmt.Count(e.Complete), numfmt.Count(e.Cut), numfmt.Count(e.Failed), numfmt.Count(e.Dropped))
	cancelled, late, ignored := cancellationText(r.Cancellation)
	add("cancelled", "%s", cancelled)
	for _, l := range [][2]string{{"late", late}, {"ignored", ignored}, {"conns", connectionsText(r.Connections)}} {
		if l[1] != "" {
			add(l[0], "%s", l[1])
		}
	}
	add("inflation", "%s", inflationText(r.Classes))
	if n := r.Totals.Outcomes["method_not_found"]; n > 0 {
		// One fact about the server, not about the documents: nothing to re-list.
		add("no method", "%s", methodNotFoundText(n, r.Totals.Scheduled))
	}
	if n := r.Totals.MisusedMethodNotFound; n > 0 {
		add("misused", "%s", misusedCodeText(n, r.Totals.Scheduled))
	}
	if r.Strays.Any() {
		add("strays", "%s", straysText(r.Strays))
	}
	if nf := notFound(r); nf > 0 {
		// A stored URI whose resource was renamed is only discovered by reading it.
		add("not found", "%s", notFoundText(nf, r.Totals.Scheduled))
	}
	if e := results.ExpectNote(r); e != "" {
		// A class answered other than its expect measures what its author did not mean.
		add("expect", "%s", printable(e))
	}
	fs = append(fs, cacheFields(r.Classes)...)
	add("shape", "%s", shapeText(r.Shape))
	fs = append(fs, serverCostFields(r.ServerCost)...)
	if g := r.Generator; g.CPUAvailable {
		add("readbench", "CPU %.2f s over the measured run, %s per 1,000 reads (the generator itself)",
			g.CPUSeconds, perThousand(g.CPUMsPer1000Reads))
	}
	add("timeline", "%s", timelineNote(r.Timeline))
	if wu := r.Warmup; wu.Scheduled > 0 || wu.Turns > 0 {
		add("warmup", "%s reads, %s turns, p50 %s, p99 %s, max %s (not in the figures above)",
			numfmt.Count(wu.Scheduled), numfmt.Count(wu.Turns), numfmt.Ms(wu.Read.P50Ms),
			numfmt.Ms(wu.Read.P99Ms), numfmt.Ms(wu.Read.MaxMs))
	}
	return fs
}

// cacheFields are the "cache" lines: one per class whose answers carried
// caching hints, none when no answer did.
func cacheFields(classes []results.Class) [][2]string {
	var fs [][2]string
	for _, c := range classes {
		if c.Cache.Hinted > 0 {
			ttl := "ttl 0 (stale at once)"
			if c.Cache.MaxTTLMs > 0 {
				ttl = "ttl " + numfmt.Ms(c.Cache.MinTTLMs) + ".." + numfmt.Ms(c.Cache.MaxTTLMs)
			}
			fs = append(fs, [2]string{"cache", fmt.Sprintf("%s: %s, %d public, %d private; %s reads (%s) a host honouring the hints would not have sent",
				clip(c.Class), ttl, c.Cache.Public, c.Cache.Private,
				numfmt.Count(c.Cache.WouldNotSend), numfmt.Opt(c.Cache.WouldNotSendShare, numfmt.Share))})
		}
	}
	return fs
}

// shapeText lists the nonzero shape findings, or says there were none.
func shapeText(s stats.Shape) string {
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
			parts = append(parts, c.name+" "+numfmt.Count(c.n))
		}
	}
	if len(parts) == 0 {
		return "no findings"
	}
	return strings.Join(parts, ", ")
}

// serverCostFields are the lines of what the server itself spent: the
// figures capacity planning needs, and the memory slope that hints at a
// leak.
func serverCostFields(c results.ServerCost) [][2]string {
	if !c.Available {
		why := "cost not measured"
		if c.Reason != "" && c.Reason != "not measured" {
			why += ": " + c.Reason
		}
		return [][2]string{{"server", why}}
	}
	fs := [][2]string{
		{"server", fmt.Sprintf("CPU %.2f s over the measured run, %s per 1,000 reads (%d process(es), %d samples)",
			c.CPUSeconds, perThousand(c.CPUMsPer1000Reads), c.Processes, c.Samples)},
		{"memory", fmt.Sprintf("RSS %.1f MiB at start, %.1f peak, %.1f at end: %+.1f MiB, slope %s",
			c.RSS.StartMiB, c.RSS.PeakMiB, c.RSS.EndMiB, c.RSS.GrowthMiB, slopeText(c.RSS))},
	}
	if cs := c.ColdStart; cs.Available {
		first := "first read - (none answered)"
		switch {
		case cs.FirstReadVsMedian != nil:
			first = fmt.Sprintf("first read %s (%s the steady median %s)", numfmt.Opt(cs.FirstReadMs, numfmt.Ms),
				numfmt.Times(cs.FirstReadVsMedian), numfmt.Opt(cs.SteadyMedianMs, numfmt.Ms))
		case cs.FirstReadMs != nil:
			first = fmt.Sprintf("first read %s (- the steady median: none measured)", numfmt.Ms(*cs.FirstReadMs))
		}
		fs = append(fs, [2]string{"cold start", fmt.Sprintf("spawn to first answer %s, handshake %s, %s",
			numfmt.Ms(cs.SpawnToFirstAnswerMs), numfmt.Ms(cs.HandshakeMs), first)})
	}
	return fs
}

// rate is a per-second figure of the measured phase, "50.0 turns/s", or
// "-" over no measured time.
func rate(perS *float64, unit string) string {
	return numfmt.Opt(perS, func(v float64) string { return numfmt.Rate(v, unit) })
}

// perThousand is a CPU figure per 1,000 reads, "3009.8 ms", or "-" for a
// run that answered no read.
func perThousand(ms *float64) string { return numfmt.Opt(ms, numfmt.Fixed(1, " ms")) }

// slopeText is the memory slope with two standard errors either side,
// "+1.2 ± 0.3 MiB/min", or "-" with the rule when the run was too short
// to fit one (docs/measurement.md, the server's cost).
func slopeText(r results.RSSCost) string {
	if r.SlopeMiBPerMinute == nil {
		return numfmt.None + " (a slope needs a minute of samples)"
	}
	se := 0.0
	if r.SlopeStdErr != nil {
		se = *r.SlopeStdErr
	}
	return fmt.Sprintf("%+.1f ± %.1f MiB/min (2 standard errors)", *r.SlopeMiBPerMinute, 2*se)
}

// notFoundText says what nf reads that found nothing mean for a host.
func notFoundText(nf, scheduled int64) string {
	return fmt.Sprintf("%s reads (%s) named nothing the server has; a host should re-list and offer "+
		"the closest match, or keep the last copy marked stale: never pass the error to the model",
		numfmt.Count(nf), numfmt.Percent(nf, scheduled))
}

// methodNotFoundText says that the server lacks the method reads use, as
// the table, HTML and markdown reports say it.
func methodNotFoundText(n, scheduled int64) string {
	return fmt.Sprintf("the server does not implement resources/read: %s reads (%s) answered -32601 Method not found",
		numfmt.Count(n), numfmt.Percent(n, scheduled))
}

// misusedCodeText says that the server answers a missing resource with
// the code of a missing method (totals.misused_method_not_found), as the
// table, HTML and markdown reports say it: the reads are counted as not
// found, and a client that trusts the code would stop reading.
func misusedCodeText(n, scheduled int64) string {
	return fmt.Sprintf("the server answers a missing resource with -32601 (Method not found); a client would conclude resources/read is absent: "+
		"%s reads (%s) answered so, counted as not found", numfmt.Count(n), numfmt.Percent(n, scheduled))
}

// straysText says what the server sent that readbench could only skip
// (the result's strays): a protocol violation the figures survive.
func straysText(s results.Strays) string {
	return "the server sent " + s.Text() + ": each skipped, every read matched its own answer; a protocol violation"
}

// notFound counts the reads that found nothing: not_found outcomes, and
// the expected errors of classes that expect not_found.
func notFound(r *results.Result) int64 {
	expectNF := map[string]bool{}
	for _, m := range r.Workload.Mix {
		expectNF[m.Name] = m.Expect == "not_found"
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

// pressureText is the machine's CPU pressure for the host line ("" when
// the result does not say): a busy machine slows a server that runs on it.
// From results.AdviceCaveatPressure the line says the machine was
// contended, in the words a failed run's exit message uses
// (results.ContendedText); under it, only the figure, never the word.
func pressureText(p *float64) string {
	if p == nil {
		return ""
	}
	if c := results.ContendedText(p); c != "" {
		return "; " + c
	}
	return fmt.Sprintf("; CPU pressure %s of the measured run (some task waiting)", numfmt.Share(*p))
}
