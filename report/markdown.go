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

// WriteMarkdown writes the table report of r as GitHub-flavoured markdown:
// the same figures as WriteTable, laid out as markdown tables so a result
// can be pasted into a pull request, an issue or a wiki page and render
// there. Advice and a summary of the timeline are added when the result
// has them. Every string from the file is escaped: a result may come from
// elsewhere, and its names must not break a table or inject markup.
func WriteMarkdown(w io.Writer, r *results.Result) error { return Options{}.WriteMarkdown(w, r) }

// WriteMarkdown is the package's WriteMarkdown, each trace id of the slow
// reads a link through o.TraceURL.
func (o Options) WriteMarkdown(w io.Writer, r *results.Result) error {
	var b bytes.Buffer
	mdHeader(&b, r)
	mdThresholds(&b, r)
	mdLatency(&b, r)
	mdSlowReads(&b, r, o.TraceURL)
	mdBytes(&b, r)
	mdOutcomes(&b, r)
	mdAuth(&b, r)
	mdSubscriptions(&b, r)
	mdTurns(&b, r)
	mdAdvice(&b, r)
	mdTimeline(&b, r)
	fmt.Fprintf(&b, "%s\n", mdEnding(r)) // the verdict that decided the exit, last as first
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("report: markdown report: %w", err)
	}
	return nil
}

// mdEscape makes s safe in a markdown table cell: control characters are
// replaced as in the table report, and the characters that end a cell,
// start code or open HTML are escaped.
func mdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `|`, `\|`, "`", "\\`", "<", "&lt;", ">", "&gt;",
		"*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`).Replace(printable(s))
}

// mdTable writes a markdown table; align has one letter per column, 'l'
// or 'r', so figures line up on the right as in the table report.
func mdTable(b *bytes.Buffer, align string, header []string, rows [][]string) {
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for i := range header {
		if i < len(align) && align[i] == 'r' {
			b.WriteString("--:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteByte('\n')
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteByte('\n')
}

func mdHeader(b *bytes.Buffer, r *results.Result) {
	fmt.Fprintf(b, "%s\n\n", mdEnding(r)) // the verdict that decided the exit status, before the title
	fmt.Fprintf(b, "## %s: %s\n\n", mdEscape(toolName(r.Tool)), mdEscape(workloadTitle(r.Workload)))
	mdHealth(b, r)
	if r.Partial {
		fmt.Fprintf(b, "> **Partial result**: the run was interrupted; the figures cover its first %s.\n\n",
			numfmt.Seconds(r.Totals.MeasuredS))
	}
	if g := generatorBound(r); g != "" {
		fmt.Fprintf(b, "> **%s**\n\n", mdEscape(strings.ReplaceAll(g, "\n", " ")))
	}
	rows := [][]string{}
	for _, kv := range headerFields(r) {
		rows = append(rows, []string{kv[0], mdEscape(kv[1])})
	}
	mdTable(b, "ll", []string{"run", ""}, rows)
}

func mdLatencyRow(name string, l stats.Latency) []string {
	row := latencyRow(name, l)
	row[0] = mdEscape(name)
	return row
}

func mdLatency(b *bytes.Buffer, r *results.Result) {
	b.WriteString("### Latency\n\n" + strings.Join(latencyNotes(r), " ") + "\n\n")
	rows := [][]string{}
	for _, row := range latencyRows(r) {
		rows = append(rows, mdLatencyRow(row.name, row.l))
		if row.name == "all reads" {
			rows[len(rows)-1][0] = "**all reads**"
		}
	}
	h := latencyHeader("class", true)
	mdTable(b, mdAlign(h), h, rows)
}

func mdBytes(b *bytes.Buffer, r *results.Result) {
	tot := r.Totals
	fmt.Fprintf(b, "### Reads and bytes\n\n%s. %s.\n\n", mdEscape(capitalized(bytesTitle(tot))), mdEscape(capitalized(bytesNote)))
	rows := [][]string{}
	for _, c := range r.Classes {
		row := classBytesRow(c)
		row[0], row[1] = mdEscape(c.Class), mdEscape(orDash(c.MIME))
		rows = append(rows, row)
	}
	all := totalBytesRow(tot)
	all[0] = "**all reads**"
	rows = append(rows, all)
	mdTable(b, "llrrrrrrr", bytesHeader, rows)
}

func mdOutcomes(b *bytes.Buffer, r *results.Result) {
	tot := r.Totals
	identity := "identity ok: scheduled = sum of outcomes"
	if !tot.IdentityOK {
		identity = "**IDENTITY BROKEN**: " + numfmt.Count(sumOutcomes(tot.Outcomes)) + " counted, reads were lost"
	}
	fmt.Fprintf(b, "### Outcomes\n\n%s scheduled reads (%s).\n\n", numfmt.Count(tot.Scheduled), identity)
	rows := [][]string{}
	for _, name := range outcomeNames(tot.Outcomes) {
		if n := tot.Outcomes[name]; n != 0 {
			rows = append(rows, []string{mdEscape(name), numfmt.Count(n), numfmt.Percent(n, tot.Scheduled)})
		}
	}
	mdTable(b, "lrr", []string{"outcome", "count", "%"}, rows)
	if n := tot.Outcomes["method_not_found"]; n > 0 {
		fmt.Fprintf(b, "**No method:** %s.\n\n", methodNotFoundText(n, tot.Scheduled))
	}
	if n := tot.MisusedMethodNotFound; n > 0 {
		fmt.Fprintf(b, "**Misused code:** %s.\n\n", misusedCodeText(n, tot.Scheduled))
	}
	if e := results.ExpectNote(r); e != "" {
		fmt.Fprintf(b, "**Unmet expect:** %s.\n\n", mdEscape(e))
	}
}

func mdTurns(b *bytes.Buffer, r *results.Result) {
	tot := r.Totals
	e := tot.TurnEnds
	b.WriteString("### Turn ends\n\n")
	mdTable(b, "rrrrr", []string{"turns", "complete", "cut by the deadline", "failed", "dropped"}, [][]string{{
		numfmt.Count(tot.Turns), numfmt.Count(e.Complete), numfmt.Count(e.Cut), numfmt.Count(e.Failed), numfmt.Count(e.Dropped)}})
	cancelled, late, ignored := cancellationText(r.Cancellation)
	fmt.Fprintf(b, "- **cancelled**: %s", mdEscape(cancelled))
	if late != "" {
		fmt.Fprintf(b, "\n- **late**: %s", mdEscape(late))
	}
	if ignored != "" {
		fmt.Fprintf(b, "\n- **ignored**: %s", mdEscape(ignored))
	}
	if c := connectionsText(r.Connections); c != "" {
		fmt.Fprintf(b, "\n- **connections**: %s", mdEscape(c))
	}
	fmt.Fprintf(b, "\n- **shape**: %s\n", mdEscape(shapeText(r.Shape)))
	if wu := r.Warmup; wu.Scheduled > 0 || wu.Turns > 0 {
		fmt.Fprintf(b, "- **warmup**: %s reads, %s turns, p50 %s, p99 %s, max %s (not in the figures above)\n",
			numfmt.Count(wu.Scheduled), numfmt.Count(wu.Turns), numfmt.Ms(wu.Read.P50Ms),
			numfmt.Ms(wu.Read.P99Ms), numfmt.Ms(wu.Read.MaxMs))
	}
	b.WriteByte('\n')
}

// mdAdvice writes the policy advice, when the result has any.
func mdAdvice(b *bytes.Buffer, r *results.Result) {
	a := r.Advice
	deadline, timeout := a.Recommended()
	if len(a.Deadlines) == 0 && len(a.Timeouts) == 0 && len(a.Reasoning) == 0 &&
		deadline == 0 && timeout == 0 && a.Caveat == "" {
		return
	}
	b.WriteString("### Advice\n\n")
	if a.Withheld {
		fmt.Fprintf(b, "Recommended turn deadline and read timeout: **%s**.\n\n", withheldNote)
	} else {
		fmt.Fprintf(b, "Recommended turn deadline **%s**, read timeout **%s**.\n\n",
			limitText(deadline), limitText(timeout))
	}
	if a.Caveat != "" {
		fmt.Fprintf(b, "> **!** %s\n\n", mdEscape(a.Caveat))
	}
	rows := [][]string{}
	for _, c := range a.Deadlines {
		rows = append(rows, []string{"turn deadline", numfmt.Ms(c.Ms), numfmt.Opt(c.Share, numfmt.Share) + " of turns cut"})
	}
	for _, c := range a.Timeouts {
		rows = append(rows, []string{"read timeout", numfmt.Ms(c.Ms), atLeastText(c.AtLeast, numfmt.Opt(c.Share, numfmt.Share)) + " of reads ended"})
	}
	if len(rows) > 0 {
		mdTable(b, "lrr", []string{"candidate", "limit", "would have"}, rows)
	}
	for _, s := range a.Reasoning {
		fmt.Fprintf(b, "- %s\n", mdEscape(s))
	}
	if len(a.Reasoning) > 0 {
		b.WriteByte('\n')
	}
}

// mdTimeline summarises the per-second timeline: the whole of it belongs
// in the HTML report's chart, a table of every second would drown the rest.
func mdTimeline(b *bytes.Buffer, r *results.Result) {
	b.WriteString("### Timeline\n\n")
	s := summarizeTimeline(r.Timeline)
	if s.seconds == 0 {
		b.WriteString("No per-second timeline in this result.\n")
		return
	}
	fmt.Fprintf(b, "%d seconds (%d of warmup), %s reads, %s errors.\n\n",
		s.seconds, s.warmup, numfmt.Count(s.reads), numfmt.Count(s.errors))
	mdTable(b, "lrrr", []string{"measured seconds", "min", "mean", "max"}, [][]string{
		{"asked turns/s", numfmt.Sig3(s.asked.min), numfmt.Sig3(s.asked.mean()), numfmt.Sig3(s.asked.max)},
		{"achieved turns/s", numfmt.Sig3(s.achieved.min), numfmt.Sig3(s.achieved.mean()), numfmt.Sig3(s.achieved.max)},
		{"read p50", numfmt.Ms(s.p50.min), numfmt.Ms(s.p50.mean()), numfmt.Ms(s.p50.max)},
		{"read p99", numfmt.Ms(s.p99.min), numfmt.Ms(s.p99.mean()), numfmt.Ms(s.p99.max)},
		{"turns in flight", numfmt.Sig3(s.inFlight.min), numfmt.Sig3(s.inFlight.mean()), numfmt.Sig3(s.inFlight.max)},
	})
	if s.worstT >= 0 {
		fmt.Fprintf(b, "Worst second: t=%ds, read p99 %s.\n", s.worstT, numfmt.Ms(s.p99.max))
	}
}

// span is the range and mean of a series.
type span struct{ min, max, sum, n float64 }

func (s *span) add(v float64) {
	if s.n == 0 || v < s.min {
		s.min = v
	}
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.sum += v
	s.n++
}

func (s span) mean() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / s.n
}

// timelineSummary is what a table can say about a timeline: the spans
// cover the measured seconds only, as the other figures do.
type timelineSummary struct {
	seconds, warmup                     int
	reads, errors                       int64
	asked, achieved, p50, p99, inFlight span
	worstT                              int // the measured second with the highest p99, -1 when none
}

func summarizeTimeline(tl []results.Second) timelineSummary {
	s := timelineSummary{seconds: len(tl), worstT: -1}
	for _, sec := range tl {
		s.reads += sec.Reads
		s.errors += sec.Errors
		if sec.Warmup {
			s.warmup++
			continue
		}
		s.asked.add(sec.Asked)
		s.achieved.add(sec.Achieved)
		s.p50.add(sec.P50Ms)
		if s.worstT < 0 || sec.P99Ms > s.p99.max {
			s.worstT = sec.T
		}
		s.p99.add(sec.P99Ms)
		s.inFlight.add(float64(sec.InFlight))
	}
	return s
}
