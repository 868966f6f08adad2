package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// htmlCompare is what the compare page shows: both runs at the top, the
// deltas with their noise verdicts, the charts of both runs overlaid, and
// each section of the result page for both runs side by side.
type htmlCompare struct {
	Headline          htmlHeadline
	Key               []htmlDelta // the gated and significant rows, shown first
	DeltaCount        int
	Title             string
	Command           string // "readbench compare" or "readbench ab" (comparedBy)
	BaseName, NewName string
	Servers           htmlTable
	Warnings          []string // a forced comparison's differences, the model's notes
	NoiseNote         string
	Deltas            []htmlDeltaGroup
	Content           []string
	Bounds            *htmlTable
	Slowest           *htmlTable // each side's slowest reads (compareSlowHTML)
	SlowestNote       string
	Overlays          []htmlSection
	Pairs             []htmlPair
}

// htmlDeltaGroup is one titled group of the deltas table.
type htmlDeltaGroup struct {
	Title string
	Rows  []htmlDelta
}

// htmlDelta is one row of the deltas table: the figure in both runs,
// its change and the model's noise verdict. Significant marks a change
// the test could tell from the noise.
//
// Metric is the delta's name in the bounds grammar; Gated marks a row a
// bound names, Worse a significant change for the worse; Group is the
// row's group title where the row is shown out of its group.
type htmlDelta struct {
	Cells       []string // label, base, new, change, verdict
	Significant bool
	Metric      string
	Gated       bool
	Worse       bool
	Group       string
}

// htmlPair is one section of the result page, for both runs.
type htmlPair struct {
	Kind, ID, Title   string
	Base, New         htmlSection
	BaseHead, NewHead string // what each side shows: the run, or the median of its runs
}

// CompareHTML writes the comparison c of two results as one self-contained
// HTML page for a release review: the two servers' names, versions and
// protocol versions at the top; every delta of the model with its change
// and its within-the-noise verdict (computed by compare.Compare, never
// here); the two runs' percentile spectra overlaid (base dashed, new
// solid) and their per-class and per-turn-size bars side by side; then
// for both runs, side by side, the sections of the result page: latency,
// timelines, bytes, turn sizes, outcomes, cancellation, cache hints,
// server cost and advice. base and nw are the runs c was computed from
// (compare.Runs): the charts draw every run of each side, and the per-run
// sections the newest run, saying so.
func CompareHTML(w io.Writer, c *compare.Comparison, base, nw []compare.Labelled) error {
	return Options{}.CompareHTML(w, c, base, nw)
}

// CompareHTML is the package's CompareHTML, each trace id of the slow
// reads a link through o.TraceURL.
func (o Options) CompareHTML(w io.Writer, c *compare.Comparison, base, nw []compare.Labelled) error {
	page, err := htmlPage()
	if err != nil {
		return fmt.Errorf("report: html compare: %w", err)
	}
	data, err := htmlCompareOf(c, base, nw, o.TraceURL)
	if err != nil {
		return fmt.Errorf("report: html compare: %w", err)
	}
	if err := page.ExecuteTemplate(w, "compare", data); err != nil {
		return fmt.Errorf("report: html compare: %w", err)
	}
	return nil
}

// runsStarted is a side's "what ran" lines with its "started" line saying
// when its runs started, the first to the last, when it has several (the
// other lines are the newest run's, which that line says).
func runsStarted(fields [][2]string, runs []*results.Result) [][2]string {
	if len(runs) < 2 {
		return fields
	}
	at := func(r *results.Result) string { return r.Started.UTC().Format("2006-01-02 15:04:05Z") }
	for i, f := range fields {
		if f[0] == "started" {
			fields[i][1] = fmt.Sprintf("%d runs, the first at %s, the last at %s (the lines here are the last's)", len(runs), at(runs[0]), at(runs[len(runs)-1]))
		}
	}
	return fields
}

func htmlCompareOf(c *compare.Comparison, baseRuns, newRuns []compare.Labelled, links TraceURL) (htmlCompare, error) {
	if len(baseRuns) == 0 || len(newRuns) == 0 {
		if c.Answer == nil {
			return htmlCompare{}, fmt.Errorf("no run on a side")
		}
		return htmlUnanswered(c), nil
	}
	bs, ns := sideResults(c.Base.Runs, baseRuns), sideResults(c.New.Runs, newRuns)
	base, nw := bs[len(bs)-1], ns[len(ns)-1]
	hc := htmlCompare{Title: printable(orDash(nw.Workload.Name)), Command: comparedBy(c),
		BaseName: printable(orDash(c.Base.Label)), NewName: printable(orDash(c.New.Label))}
	hc.Servers = htmlTable{Class: "servers", Left: 3, Header: []string{"", "base", "new"}}
	hc.Servers.Rows = append(hc.Servers.Rows, []string{"file", hc.BaseName, hc.NewName},
		[]string{"readbench", printable(toolName(base.Tool)), printable(toolName(nw.Tool))},
		[]string{"workload", printable(workloadTitle(base.Workload)), printable(workloadTitle(nw.Workload))})
	bf, nf := runsStarted(headerFields(base), bs), runsStarted(headerFields(nw), ns)
	for i := range bf {
		hc.Servers.Rows = append(hc.Servers.Rows, []string{bf[i][0], printable(bf[i][1]), printable(nf[i][1])})
	}
	if c.Forced {
		hc.Warnings = append(hc.Warnings, "Compared with --force: the workloads differ: "+printable(strings.Join(c.Differences, "; "))+".")
	}
	for _, n := range c.Notes {
		hc.Warnings = append(hc.Warnings, printable(n))
	}
	hc.NoiseNote = "Test: " + printable(c.Test) + ". Base is dashed in the charts, new solid"
	if len(bs) > 1 || len(ns) > 1 {
		hc.NoiseNote += fmt.Sprintf("; every figure of the tables is the %s of the base and the %s of the new; the charts draw every run",
			runsNote(len(bs)), runsNote(len(ns)))
	}
	hc.NoiseNote += "."
	hc.Deltas = htmlDeltaGroups(c)
	var rows []compareRow
	for _, s := range compareSections(c) {
		rows = append(rows, s.rows...)
	}
	hc.DeltaCount = len(rows)
	hc.Headline = compareHeadline(c, comparedBy(c)+": "+hc.Title, rows)
	hc.Key = keyDeltas(c, hc.Deltas)
	hc.NoiseNote += ownTestNote(c, hc.Key)
	if hc.Headline.Note != "" { // the headline says the test already: once is enough
		hc.NoiseNote = strings.TrimPrefix(hc.NoiseNote, "Test: "+printable(c.Test)+". ")
	}
	hc.Content = htmlContentLines(c.Content)
	if len(c.Bounds) > 0 {
		t := verdictsHTMLTable("bounds", boundRows(c))
		hc.Bounds = &t
	}
	hc.Slowest, hc.SlowestNote = compareSlowHTML(c, links), printable(compareSlowNote(c))
	var err error
	if hc.Overlays, err = overlays(c, bs, ns); err != nil {
		return hc, err
	}
	if rs, ok := roundsSection(c); ok { // ab: after the runs' dot plots
		hc.Overlays = append(hc.Overlays[:1], append([]htmlSection{rs}, hc.Overlays[1:]...)...)
	}
	sc := sharedTimelineScale(base, nw)
	bsec, err := resultSections(base, "-base", &sc, links)
	if err != nil {
		return hc, fmt.Errorf("base: %w", err)
	}
	nsec, err := resultSections(nw, "-new", &sc, links)
	if err != nil {
		return hc, fmt.Errorf("new: %w", err)
	}
	hc.Pairs = pairSections(bsec, nsec)
	medianPairs(c, hc.Pairs, hc.BaseName, hc.NewName)
	return hc, nil
}

// pairHeading is the heading of a side in the side-by-side sections: the
// side itself for one run; for several, the newest run they show, and
// that the tables give the median.
func pairHeading(side string, runs []string) string {
	if len(runs) <= 1 {
		return side
	}
	return fmt.Sprintf("newest of %d runs, %s (this run's own figures; the tables above give the %s)",
		len(runs), printable(runs[len(runs)-1]), runsNote(len(runs)))
}

// pairSections pairs the sections of the two runs by kind, in the base's
// order, then any only the new run has (thresholds, say); a section one
// run lacks is shown empty with a note.
func pairSections(bs, ns []htmlSection) []htmlPair {
	var pairs []htmlPair
	used := map[string]bool{}
	find := func(ss []htmlSection, kind string) htmlSection {
		for _, s := range ss {
			if s.Kind == kind {
				return s
			}
		}
		return htmlSection{Kind: kind, Notes: []string{"Not in this result."}}
	}
	for _, s := range append(append([]htmlSection{}, bs...), ns...) {
		if used[s.Kind] {
			continue
		}
		used[s.Kind] = true
		pairs = append(pairs, htmlPair{Kind: s.Kind, ID: s.Kind, Title: s.Title, Base: find(bs, s.Kind), New: find(ns, s.Kind)})
	}
	return pairs
}

// Colours of the overlaid bars: a light and a dark shade per figure, the
// light one the base run's.
const (
	baseP50, newP50 = "#56b4e9", "#0072b2"
	baseP99, newP99 = "#e69f00", "#d55e00"
)

// overlays are the charts of both sides in one: every run's figures dot
// by dot (runsSection), the spectra of every run (one colour per block
// or class, the base dashed; thin when a side has several runs), and the
// per-class and per-turn-size bars of the sides' medians, side by side.
func overlays(c *compare.Comparison, base, nw []*results.Result) ([]htmlSection, error) {
	width := func(runs []*results.Result) float64 {
		if len(runs) > 1 {
			return 1
		}
		return 0
	}
	var lines []spectrumLine
	for i, b := range []struct {
		name, label string // the key, and the legend's words (never read_ok)
		of          func(*results.Result) stats.Latency
	}{{"read", "all reads", func(r *results.Result) stats.Latency { return r.Read }},
		{"read_ok", "ok reads", func(r *results.Result) stats.Latency { return r.ReadOK }},
		{"turn", "turns", func(r *results.Result) stats.Latency { return r.Turn }}} {
		for _, r := range base {
			lines = append(lines, spectrumLine{name: "base " + b.name, label: "base " + b.label, l: b.of(r), colour: color(i), dashed: true, width: width(base)})
		}
		for _, r := range nw {
			lines = append(lines, spectrumLine{name: "new " + b.name, label: "new " + b.label, l: b.of(r), colour: color(i), width: width(nw)})
		}
	}
	main, err := spectrumChart("spectrum", "Latency by percentile: reads, ok reads and turns of "+runsCount(base, nw), lines)
	if err != nil {
		return nil, err
	}
	newest := func(rs []*results.Result) *results.Result { return rs[len(rs)-1] }
	cats := classNames(newest(base), newest(nw))
	lines = nil
	for i, cat := range cats {
		for _, side := range []struct {
			name string
			rs   []*results.Result
		}{{"base", base}, {"new", nw}} {
			for _, r := range side.rs {
				for _, cl := range r.Classes {
					if cl.Class == cat {
						lines = append(lines, spectrumLine{name: side.name + " " + cat, l: cl.Latency, colour: color(i), dashed: side.name == "base", width: width(side.rs)})
					}
				}
			}
		}
	}
	per, err := spectrumChart("spectrum-classes", "Read latency by percentile, per class, of "+runsCount(base, nw), lines)
	if err != nil {
		return nil, err
	}
	spec := htmlSection{Kind: "spectra", ID: "spectra", Title: "Percentile spectra, overlaid",
		Notes:  []string{spectrumNote},
		Charts: []template.HTML{main, per}}
	if len(base) > 1 || len(nw) > 1 {
		spec.Notes = append(spec.Notes, "Every run is drawn, thin: the spread between lines of one side is the machine's run-to-run noise.")
	}
	classOf := func(cat string) []compare.Delta {
		for _, cl := range c.Classes {
			if cl.Class == cat {
				return cl.Read
			}
		}
		return nil
	}
	med := fmt.Sprintf("base %s, new %s", runsNote(len(base)), runsNote(len(nw)))
	bars := htmlSection{Kind: "class-bars", ID: "class-bars", Title: "Per class, side by side",
		Charts: []template.HTML{classChart("class-latency", "Read latency per class: p50 and p99 ("+med+")", cats, sideBySide(
			medianBars(cats, classOf, true, "base "), medianBars(cats, classOf, false, "new ")))}}
	for _, side := range []struct {
		name string
		r    *results.Result
	}{{"Base", newest(base)}, {"New", newest(nw)}} {
		for _, n := range lowerBoundNotes(side.r) {
			spec.Notes = append(spec.Notes, side.name+": "+n)
		}
	}
	out := []htmlSection{runsSection(c), spec, bars}
	if sizes := turnSizeNames(newest(base), newest(nw)); len(sizes) > 0 {
		sizeOf := func(cat string) []compare.Delta {
			for _, ts := range c.TurnSizes {
				if fmt.Sprint(ts.Attachments) == cat {
					return ts.Turn
				}
			}
			return nil
		}
		bars.Charts = append(bars.Charts, turnSizeChart("turn-sizes", "Turn latency by reads per turn: p50 and p99 ("+med+")",
			sizes, sideBySide(medianBars(sizes, sizeOf, true, "base "), medianBars(sizes, sizeOf, false, "new "))))
		out[2] = bars
	}
	return out, nil
}

// runsCount names the runs a chart draws: "both runs", "3 and 3 runs".
func runsCount(base, nw []*results.Result) string {
	if len(base) == 1 && len(nw) == 1 {
		return "both runs"
	}
	return fmt.Sprintf("every run (%d base, %d new)", len(base), len(nw))
}

// sideBySide orders the p50 and p99 bars of the two runs so each figure's
// base and new bars stand together, in a light and a dark shade.
func sideBySide(b, n []series) []series {
	b[0].colour, n[0].colour, b[1].colour, n[1].colour = baseP50, newP50, baseP99, newP99
	return []series{b[0], n[0], b[1], n[1]}
}

// htmlUnanswered is the page of an ab experiment that kept no round: its
// answer (that there is none, and why), its bounds, notes and rounds.
func htmlUnanswered(c *compare.Comparison) htmlCompare {
	hc := htmlCompare{Title: "no round kept", Command: comparedBy(c),
		BaseName: printable(c.Base.Label), NewName: printable(c.New.Label), NoiseNote: "Test: " + printable(c.Test) + "."}
	hc.Headline = compareHeadline(c, comparedBy(c)+": "+hc.Title, nil)
	for _, n := range c.Notes {
		hc.Warnings = append(hc.Warnings, printable(n))
	}
	if len(c.Bounds) > 0 {
		t := verdictsHTMLTable("bounds", boundRows(c))
		hc.Bounds = &t
	}
	if rs, ok := roundsSection(c); ok {
		hc.Overlays = []htmlSection{rs}
	}
	return hc
}

// ownTestNote says, when a bound was broken while its row of the table
// reads within the noise, that the two are different tests (" …", else
// ""): a bound is judged by its own test (ab's: the paired windows of
// every round), the noise column by the test of the runs' figures, which
// has fewer samples and can call the same change noise. Without it the
// page's verdict and its row look like a contradiction.
func ownTestNote(c *compare.Comparison, key []htmlDelta) string {
	for _, b := range c.Bounds {
		if b.Verdict != compare.VerdictFail {
			continue
		}
		for _, r := range key {
			if r.Metric == b.Metric && !r.Significant {
				return " A bound is judged by its own test (under Bounds), not by this table's noise column: " +
					printable(b.Bound) + " was broken though its row reads within the noise, which tests the runs' figures alone."
			}
		}
	}
	return ""
}
