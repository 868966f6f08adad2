package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The page is one self-contained file: the CSS is inline and every chart
// is an SVG drawn here, in Go, so the report opens from a mail attachment
// or a CI artifact without network, scripts or fonts to fetch, and renders
// the same with JavaScript disabled. report.html holds the page of
// results (WriteHTML) and the compare page (CompareHTML), sharing the
// style and the way a section is laid out.
//
//go:embed report.html
var htmlSource string

// htmlPage is parsed once per call: a template is cheap to parse, and no
// package-level state is kept.
func htmlPage() (*template.Template, error) { return template.New("report").Parse(htmlSource) }

// htmlResult is what the page shows of one result: its header and its
// sections, in order.
type htmlResult struct {
	ID             string // "result", "result-2": the index's links lead here
	Started        string
	Headline       htmlHeadline
	Title          string
	Target         string // the header's target line: what tells apart the index's results of one workload
	Ending         string // the verdict that decided the exit status: the page's title opens with it
	Partial        string
	GeneratorBound string
	Fields         [][2]string
	Sections       []htmlSection
}

// htmlResults are the results of one page, and whether it opens with an
// index of them (more than one).
type htmlResults struct {
	Index   bool
	Results []htmlResult
}

// htmlSection is one section of a result: a heading, notes, labelled
// lines (the table report's "label  text" lines, worded the same), tables
// and charts. Kind names it for tests and scripts (data-section); ID is
// Kind with "-section" and the result's suffix (a chart may be named for
// its kind: ids stay unique).
type htmlSection struct {
	Kind, ID, Title string
	Notes           []string
	Fields          [][2]string
	Tables          []htmlTable
	Charts          []template.HTML
	Advice          *htmlAdvice
}

// htmlTable is a table of cells; the first Left columns are names, the
// rest figures, right-aligned so their digits line up.
//
// RowClass, when set, is a class per row ("pass", "fail": the page's
// colours) and MarkCol the column of the row's verdict, drawn in them.
type htmlTable struct {
	// Fold, when set, draws the table folded under a <details> summary
	// of these words: rows a reader opens when wanted, which would
	// otherwise push the page's charts far down.
	Fold     string
	Class    string
	Header   []string
	Left     int
	Rows     [][]string
	RowClass []string
	MarkCol  int
	// Links, when set, is a URL per row ("" for none), the cell of column
	// LinkCol a link to it (a trace id to its trace).
	Links   []string
	LinkCol int
}

// WriteHTML writes one HTML page for the results: per result what ran
// against what, then the sections the table report prints, with the same
// figures in the same words (latency, reads and bytes, turn sizes,
// outcomes, cancellation, cache, server cost, advice), and the charts
// people look for in a latency report: the percentile spectrum to
// 99.999% on a log scale (reads, ok reads, turns and each class, from
// the full histograms, so the tail is drawn, not guessed), rate and
// latency per second, latency per class and per turn size, and what the
// wire adds to the bytes on disk. Each section is a <section> with a
// data-section attribute, each chart a <figure> with an id and a
// data-chart attribute naming its kind, so tests and scripts can find
// them.
func WriteHTML(w io.Writer, rs []*results.Result) error { return Options{}.WriteHTML(w, rs) }

// WriteHTML is the package's WriteHTML, each trace id of the slow reads a
// link through o.TraceURL.
func (o Options) WriteHTML(w io.Writer, rs []*results.Result) error {
	page, err := htmlPage()
	if err != nil {
		return fmt.Errorf("report: html report: %w", err)
	}
	// Several results (report runs/*.json): the newest first, as a
	// history is read, under an index of their verdicts.
	rs = slices.Clone(rs)
	slices.SortStableFunc(rs, func(a, b *results.Result) int { return b.Started.Compare(a.Started.Time) })
	var data htmlResults
	for i, r := range rs {
		suffix := ""
		if i > 0 {
			suffix = fmt.Sprintf("-%d", i+1)
		}
		hr, err := htmlOf(r, suffix, nil, o.TraceURL)
		if err != nil {
			return fmt.Errorf("report: html report: %w", err)
		}
		hr.ID = "result" + suffix
		data.Results = append(data.Results, hr)
	}
	data.Index = len(rs) > 1
	if err := page.ExecuteTemplate(w, "results", data); err != nil {
		return fmt.Errorf("report: html report: %w", err)
	}
	return nil
}

// htmlOf lays out one result; pair is nil on the result page (see
// resultSections); links, where its trace ids lead.
func htmlOf(r *results.Result, suffix string, pair *timelineScale, links TraceURL) (htmlResult, error) {
	hr := htmlResult{Started: r.Started.UTC().Format("2006-01-02 15:04:05Z"), Headline: resultHeadline(r), Title: printable(toolName(r.Tool) + ": " + workloadTitle(r.Workload)), Ending: endingLine(r),
		GeneratorBound: printable(strings.ReplaceAll(generatorBound(r), "\n", " "))}
	if r.Partial {
		hr.Partial = "Partial result: the run was interrupted; the figures cover its first " + numfmt.Seconds(r.Totals.MeasuredS) + "."
	}
	hr.Fields = printableFields(headerFields(r))
	hr.Target = printable(where(r.Target))
	var err error
	hr.Sections, err = resultSections(r, suffix, pair, links)
	return hr, err
}

// printableFields makes the text of labelled lines printable, and joins a
// line labelled "" to the one above (the table report's continuation
// lines: a page wraps on its own).
func printableFields(fs [][2]string) [][2]string {
	var out [][2]string
	for _, f := range fs {
		if f[0] == "" && len(out) > 0 {
			out[len(out)-1][1] += " " + printable(f[1])
			continue
		}
		out = append(out, [2]string{f[0], printable(f[1])})
	}
	return out
}

// footerKind says which section a footer line of the table report
// belongs to on the page, "" for a line it does not know (a continuation,
// or a line a newer table adds: shown with the line above, never lost).
func footerKind(label string) string {
	switch label {
	case "turns", "no method", "misused", "not found", "shape":
		return "outcomes"
	case "cancelled", "late", "ignored":
		return "cancellation"
	case "inflation":
		return "bytes"
	case "cache":
		return "cache"
	case "server", "memory", "cold start", "readbench":
		return "server-cost"
	case "timeline":
		return "timeline"
	case "warmup":
		return "latency"
	}
	return ""
}

// resultSections are the sections of one result, in page order. On the
// compare page, pair is the timeline scale both runs share, and the
// charts that page draws for both runs at once (the spectra, the
// per-class and per-size bars) are left out; on the result page it is
// nil. links is where the slow reads' trace ids lead.
func resultSections(r *results.Result, suffix string, pair *timelineScale, links TraceURL) ([]htmlSection, error) {
	compared := pair != nil
	var sc timelineScale
	if compared {
		sc = *pair
	}
	fields := map[string][][2]string{}
	kind := "outcomes"
	for _, f := range footerFields(r) {
		if k := footerKind(f[0]); k != "" {
			kind = k
		}
		fields[kind] = append(fields[kind], f)
	}
	sec := func(kind, title string) htmlSection {
		return htmlSection{Kind: kind, ID: kind + "-section" + suffix, Title: title, Fields: printableFields(fields[kind])}
	}

	lat := sec("latency", "Latency")
	lat.Tables = []htmlTable{latencyHTMLTable(r)}
	lat.Notes = latencyNotes(r)

	spec := sec("spectrum", "Percentile spectrum")
	spec.Notes = append([]string{spectrumNote}, lowerBoundNotes(r)...)
	spectra, err := resultSpectra(r, suffix)
	if err != nil {
		return nil, err
	}
	spec.Charts = spectra

	tl := sec("timeline", "Timeline")
	tl.Charts = []template.HTML{
		rateChart(r, "timeline-rate"+suffix, "Turns per second: asked and achieved", sc),
		timelineLatencyChart(r, "timeline-latency"+suffix, "Read latency per second: p50 and p99", sc),
		readsChart(r, "timeline-reads"+suffix, "Reads finished per second: ok and errors", sc),
		inFlightChart(r, "timeline-in-flight"+suffix, "Turns in flight at the end of each second", sc),
		lagChart(r, "timeline-lag"+suffix, "Scheduling lag per second: the worst (how late readbench sent a read)", sc)}

	by := sec("bytes", "Classes: reads and bytes")
	tot := r.Totals
	by.Notes = []string{capitalized(bytesTitle(tot)) + ". " + capitalized(bytesNote) + "."}
	by.Tables = []htmlTable{bytesHTMLTable(r)}
	cats := classNames(r)
	by.Charts = []template.HTML{inflationChart(r, "inflation"+suffix)}
	if !compared {
		by.Charts = append([]template.HTML{classChart("class-latency"+suffix, "Read latency per class: p50 and p99",
			cats, classBars(r, cats, ""))}, by.Charts...)
	}

	ts := sec("turn-sizes", "Turn sizes")
	ts.Tables, ts.Notes = turnSizeTable(r)
	if sizes := turnSizeNames(r); len(sizes) > 1 && !compared {
		ts.Charts = []template.HTML{turnSizeChart("turn-sizes"+suffix, "Turn latency by reads per turn: p50 and p99",
			sizes, turnSizeBars(r, sizes, ""))}
	}

	out := sec("outcomes", "Outcomes and turn ends")
	out.Notes = []string{outcomesNote(r)}
	out.Tables = []htmlTable{outcomesHTMLTable(r)}

	cancel := sec("cancellation", "Cancellation")
	cache := sec("cache", "Cache hints")
	if len(cache.Fields) == 0 {
		cache.Notes = []string{"No answer carried caching hints (ttlMs, cacheScope)."}
	}
	cost := sec("server-cost", "Server cost")

	adv := sec("advice", "Advice")
	adv.Notes = []string{"Deadline: the share of turns cut or over it; timeout: the share of reads it ends; from this run's histograms."}
	adv.Advice = htmlAdviceOf(r.Advice)
	if adv.Advice == nil {
		adv.Notes = append(adv.Notes, "No candidates priced in this result.")
	}

	all := []htmlSection{lat, spec, tl, by, ts, out, cancel, cache, cost, adv}
	if compared {
		all = append(all[:1], all[2:]...) // the compare page overlays the spectra
	}
	if slow, ok := slowHTMLSection(r, suffix, links); ok { // under the latency it explains
		all = append(all[:1], append([]htmlSection{slow}, all[1:]...)...)
	}
	if as, ok := authHTMLSection(r, suffix); ok {
		all = append(all, as)
	}
	if ss, ok := subscriptionsHTMLSection(r, suffix); ok {
		all = append(all, ss)
	}
	if len(r.Thresholds) > 0 {
		th := sec("thresholds", "Thresholds")
		th.Tables = []htmlTable{thresholdsHTMLTable(r)}
		all = append([]htmlSection{th}, all...)
	}
	return all, nil
}

func latencyHTMLTable(r *results.Result) htmlTable {
	t := htmlTable{Class: "latency", Left: 1, Header: latencyHeader("class", true)}
	for _, row := range latencyRows(r) {
		t.Rows = append(t.Rows, latencyRowAt(row.name, row.l, row.floorMs))
	}
	return t
}

func bytesHTMLTable(r *results.Result) htmlTable {
	t := htmlTable{Class: "bytes", Left: 2, Header: bytesHeader}
	for _, c := range r.Classes {
		t.Rows = append(t.Rows, classBytesRow(c))
	}
	t.Rows = append(t.Rows, totalBytesRow(r.Totals))
	return t
}

// turnSizeTable is the turn latency by number of reads per turn, or a
// note when the result has none.
func turnSizeTable(r *results.Result) ([]htmlTable, []string) {
	if len(r.TurnSizes) == 0 {
		return nil, []string{"No turn sizes in this result."}
	}
	t := htmlTable{Class: "turn-sizes", Left: 1, Header: latencyHeader("reads per turn", true)}
	for _, ts := range r.TurnSizes {
		t.Rows = append(t.Rows, latencyRowAt(fmt.Sprintf("%d", ts.Attachments), ts.Latency, turnFloorMs(r)))
	}
	t.Rows = append(t.Rows, latencyRow("all turns", r.Turn))
	return []htmlTable{t}, []string{"Turn latency from the turn's intended start to its last read, by how many reads the turn made."}
}

// outcomesNote is the outcomes table's heading line of the table report.
func outcomesNote(r *results.Result) string {
	return fmt.Sprintf("Outcomes of %s scheduled reads (%s).", numfmt.Count(r.Totals.Scheduled), identityText(r.Totals))
}

func outcomesHTMLTable(r *results.Result) htmlTable {
	tot := r.Totals
	t := htmlTable{Class: "outcomes", Left: 1, Header: []string{"outcome", "count", "%"}}
	for _, name := range outcomeNames(tot.Outcomes) {
		if n := tot.Outcomes[name]; n != 0 {
			t.Rows = append(t.Rows, []string{clip(name), numfmt.Count(n), numfmt.Percent(n, tot.Scheduled)})
		}
	}
	return t
}

// thresholdsHTMLTable is each threshold the run was held to, pass or
// fail with what it measured, as the table report lists them.
func thresholdsHTMLTable(r *results.Result) htmlTable {
	return verdictsHTMLTable("thresholds", thresholdRows(r))
}

// spectrumNote says how a spectrum is drawn, above every spectrum.
const spectrumNote = "From the full histograms, on HdrHistogram's percentile axis (x = 1/(1-q)); " +
	"each line ends where its samples end (1/(1-q) = the number of values), at its maximum."

// lowerBoundNotes say, under the spectrum, that values recorded at a cut
// flatten a line's tail there: a floor, not a measured tail. The counts
// and their cause are the latency section's notes, not repeated here.
func lowerBoundNotes(r *results.Result) []string {
	var cut []string
	for _, b := range []struct {
		what string
		n    int64
	}{{"reads", r.Read.LowerBounds}, {"turns", r.Turn.LowerBounds}} {
		if b.n > 0 {
			cut = append(cut, numfmt.Count(b.n)+" "+b.what)
		}
	}
	if len(cut) == 0 {
		return nil
	}
	return []string{"The " + strings.Join(cut, " and ") + " recorded at the cut (see Latency) end their lines flat there: " +
		"a floor, not a measured tail."}
}
