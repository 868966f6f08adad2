package report

import (
	"bytes"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// lognormal is n values with the given median and spread, at evenly
// spaced quantiles: a latency distribution with a tail, the same every
// run.
func lognormal(n int, medianMs, sigma float64) []time.Duration {
	vs := make([]time.Duration, n)
	for i := range vs {
		z := math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/float64(n)-1)
		vs[i] = time.Duration(medianMs * math.Exp(sigma*z) * float64(time.Millisecond))
	}
	return vs
}

// comparePair is two runs of the same workload, the new one's reads and
// turns a factor slower (its screenshot class twice that), and their
// comparison as compare.Compare makes it.
func comparePair(t testing.TB, factor float64) (base, nw *results.Result, c *compare.Comparison) {
	t.Helper()
	base, nw = pairRun(t, 1, "1.0.0"), pairRun(t, factor, "1.1.0")
	c, err := compare.Pair(base, nw, compare.PairOptions{BaseLabel: "runs/base.json", NewLabel: "runs/new.json", NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	return base, nw, c
}

// pairRun is one run of comparePair's: reads, service time and turns f
// times the base's (its screenshot class f² times).
func pairRun(t testing.TB, f float64, version string) *results.Result {
	t.Helper()
	r := fixture(t, false)
	r.Timeline = document(t, "timeline.json").Timeline
	e := everything(t)
	r.ServerCost, r.TurnSizes = e.ServerCost, e.TurnSizes
	r.ServerCost.CPUMsPer1000Reads = num(*e.ServerCost.CPUMsPer1000Reads * f)
	r.Target.Server.Version = version
	r.Read, r.ReadOK = block(t, lognormal(5000, 20*f, 0.7)...), block(t, lognormal(4900, 19*f, 0.7)...)
	r.Service = block(t, lognormal(5000, 15*f, 0.7)...)
	r.Turn = block(t, lognormal(1250, 45*f, 0.6)...)
	for i := range r.Classes {
		g := f
		if r.Classes[i].Class == "screenshot" {
			g *= f
		}
		r.Classes[i].Latency = block(t, lognormal(int(r.Classes[i].Reads)*10, 10*float64(i+1)*g, 0.6)...)
	}
	r.Classes[0].Cache = e.Classes[0].Cache
	return r
}

// comparePage renders the compare page and checks it is well-formed.
func comparePage(t *testing.T, c *compare.Comparison, base, nw *results.Result) (string, map[string]int) {
	t.Helper()
	var buf bytes.Buffer
	if err := CompareHTML(&buf, c, oneRun(base), oneRun(nw)); err != nil {
		t.Fatal(err)
	}
	return buf.String(), wellFormed(t, buf.String())
}

// compareSectionKinds are the sections of the compare page: what was
// compared, the deltas, the content, the overlaid charts, and every
// section of a result for both runs.
var compareSectionKinds = []string{"servers", "deltas", "content", "spectra", "class-bars", "latency", "timeline", "bytes",
	"turn-sizes", "outcomes", "cancellation", "cache", "server-cost", "advice"}

// TestCompareHTMLSections: every section is on the page once; the two
// servers' names, versions and protocol versions are at the top; every
// delta of the model is a row with its verdict; and each section of a
// result shows both runs.
func TestCompareHTMLSections(t *testing.T) {
	base, nw, c := comparePair(t, 1.3)
	s, sections := comparePage(t, c, base, nw)
	for _, k := range compareSectionKinds {
		if sections[k] != 1 {
			t.Errorf("section %s appears %d times", k, sections[k])
		}
	}
	text := html.UnescapeString(s)
	// What was compared comes after the verdict and the deltas that
	// matter, before the content and the charts.
	top := text[:strings.Index(text, `data-section="content"`)]
	for _, w := range []string{serverText(base.Target), serverText(nw.Target), "protocol " + base.Target.ProtocolVersion,
		"runs/base.json", "runs/new.json"} {
		if !strings.Contains(top, w) {
			t.Errorf("the top of the page lacks %q", w)
		}
	}
	for _, g := range htmlDeltaGroups(c) {
		for _, row := range g.Rows {
			if !strings.Contains(text, ">"+strings.Join(row.Cells, "</td><td")) &&
				!strings.Contains(text, row.Cells[0]+"</td><td class=\"num\">"+row.Cells[1]) {
				t.Errorf("the deltas lack the row %q", row.Cells)
			}
		}
	}
	d, ok := c.Find("read.p99")
	if !ok || d.Noise != compare.Significant {
		t.Fatalf("read.p99 of a 30%% slower run: %+v", d)
	}
	if !regexp.MustCompile(`<tr data-metric="read.p99" class="significant[ a-z]*"><td>read p99</td>`).MatchString(text) {
		t.Error("the significant read p99 is not marked")
	}
	for _, kind := range []string{"latency", "outcomes", "cancellation", "server-cost", "advice", "timeline"} {
		sec := sectionText(t, s, kind)
		if strings.Count(sec, `class="run-base"`) != 1 || strings.Count(sec, `class="run-new"`) != 1 {
			t.Errorf("section %s does not show both runs", kind)
		}
	}
	for _, id := range []string{"timeline-rate-base", "timeline-rate-new", "inflation-base", "inflation-new", "spectrum",
		"spectrum-classes", "class-latency", "turn-sizes"} {
		if !strings.Contains(s, `<figure id="`+id+`"`) {
			t.Errorf("no chart %s", id)
		}
	}
	// The overlaid spectra carry both runs of each block, the base dashed.
	for _, w := range []string{`data-series="base read" fill="none" stroke="#0072b2" stroke-width="2" stroke-dasharray`,
		`data-series="new read" fill="none" stroke="#0072b2" stroke-width="2" d=`, `data-series="new turn"`, `data-series="base screenshot"`} {
		if !strings.Contains(s, w) {
			t.Errorf("the spectra lack %q", w)
		}
	}
}

// sectionText is the markup of the page's section of a kind.
func sectionText(t *testing.T, s, kind string) string {
	t.Helper()
	i := strings.Index(s, `data-section="`+kind+`"`)
	if i < 0 {
		t.Fatalf("no section %s", kind)
	}
	end := strings.Index(s[i:], "</section>")
	return s[i : i+end]
}

// TestCompareHTMLWithinTheNoise: two runs of the same server read "within
// the noise" or unchanged on the page, never significant.
func TestCompareHTMLWithinTheNoise(t *testing.T) {
	base, nw, c := comparePair(t, 1.0)
	s, _ := comparePage(t, c, base, nw)
	if strings.Contains(s, `class="significant"`) {
		t.Error("two runs of the same server marked a change significant")
	}
}

// TestCompareHTMLSaysWhatDiffers: a forced comparison of different
// workloads, the model's notes, content changes and bounds are on the
// page; hostile names in them are text.
func TestCompareHTMLSaysWhatDiffers(t *testing.T) {
	base, nw, _ := comparePair(t, 1.3)
	nw.Workload.Name = "<script>alert(1)</script>"
	nw.Classes[1].Class = "<b>shot</b>"
	nw.Partial = true
	base.Digests = map[string]results.Digest{"file:///a<i>": {SHA256: "sha256:" + strings.Repeat("a", 64), MIME: "text/plain", Bytes: 3}}
	nw.Digests = map[string]results.Digest{"file:///a<i>": {SHA256: "sha256:" + strings.Repeat("b", 64), MIME: "text/plain", Bytes: 4}}
	if _, err := compare.Pair(base, nw, compare.PairOptions{}); err == nil {
		t.Fatal("different workloads compared without --force")
	}
	c, err := compare.Pair(base, nw, compare.PairOptions{Force: true, NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	c.Bounds = []compare.BoundCheck{{Bound: "read.p99=+10%", Metric: "read.p99", Unit: "ms", Base: 50, New: 65, Limit: 55,
		Noise: compare.Significant, Reason: "<u>broken</u>"}}
	s, sections := comparePage(t, c, base, nw)
	if sections["bounds"] != 1 {
		t.Error("no bounds section")
	}
	for _, bad := range []string{"<script", "<b>", "<i>", "<u>"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page carries %q unescaped", bad)
		}
	}
	text := html.UnescapeString(s)
	for _, w := range []string{"Compared with --force: the workloads differ: name:", "the new run was interrupted",
		"file:///a<i>: bytes, size changed", "1 URIs read by both compared", "FAIL", "read.p99=+10%", "<u>broken</u>",
		"<b>shot</b>"} {
		if !strings.Contains(text, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}

// TestCompareHTMLTimelinesShareTheirScale: the two runs' timelines are
// drawn on the same axes, so a run with half the latency looks half as
// high, not the same at another scale.
func TestCompareHTMLTimelinesShareTheirScale(t *testing.T) {
	base, nw, c := comparePair(t, 1.3)
	nw.Timeline = append([]results.Second{}, nw.Timeline[:6]...)
	for i := range nw.Timeline {
		nw.Timeline[i].P99Ms /= 10
		nw.Timeline[i].Achieved /= 2
	}
	s, _ := comparePage(t, c, base, nw)
	yTicks := regexp.MustCompile(`text-anchor="end">([^<]*)<`)
	xTicks := regexp.MustCompile(`text-anchor="middle">([0-9]+s)<`)
	for _, kind := range []string{"timeline-rate", "timeline-latency"} {
		b, n := figureText(t, s, kind+"-base"), figureText(t, s, kind+"-new")
		for _, re := range []*regexp.Regexp{yTicks, xTicks} {
			if bt, nt := re.FindAllString(b, -1), re.FindAllString(n, -1); strings.Join(bt, "") != strings.Join(nt, "") || len(bt) < 3 {
				t.Errorf("%s: the runs' axes differ:\nbase %q\nnew  %q", kind, bt, nt)
			}
		}
	}
}

// figureText is the markup of the page's chart with an id.
func figureText(t *testing.T, s, id string) string {
	t.Helper()
	i := strings.Index(s, `<figure id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no chart %s", id)
	}
	return s[i : i+strings.Index(s[i:], "</figure>")]
}

// TestCompareHTMLSpeaksAsTheTable: the page's deltas, content and bounds
// say what the compare table says (one wording), the noise cell adding
// the model's why when a delta had no test.
func TestCompareHTMLSpeaksAsTheTable(t *testing.T) {
	base, nw, c := comparePair(t, 1.3)
	c.Bounds = []compare.BoundCheck{{Bound: "content", Metric: "content", Pass: true},
		{Bound: "read.p99=+10%", Metric: "read.p99", Unit: "ms", Base: 50, New: 65, Limit: 55, Noise: compare.Significant}}
	s, _ := comparePage(t, c, base, nw)
	var tbl bytes.Buffer
	if err := WriteCompareTable(&tbl, c); err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(s)
	for _, w := range []string{"no URI changed", "50.0ms → 65.0ms (limit 55.0ms), significant"} {
		if !strings.Contains(text, w) || !strings.Contains(tbl.String(), w) {
			t.Errorf("page has %q: %t, table: %t", w, strings.Contains(text, w), strings.Contains(tbl.String(), w))
		}
	}
	d, ok := c.Find("read.max")
	if !ok || d.Noise != compare.Untested || d.Note == "" {
		t.Fatalf("read.max: %+v", d)
	}
	if w := "<td>read max</td>"; !strings.Contains(text, w) || !strings.Contains(text, "<td>no test: "+d.Note+"</td>") {
		t.Errorf("the page lacks read max with its reason %q", d.Note)
	}
	for _, sec := range compareSections(c) {
		for _, r := range sec.rows {
			if !strings.Contains(text, "<td>"+r.full+"</td><td class=\"num\">"+r.cells[1]+"</td><td class=\"num\">"+r.cells[2]+
				"</td><td class=\"num\">"+r.cells[3]+"</td>") {
				t.Errorf("the page lacks the table's row %q", r.cells)
			}
		}
	}
}

// TestCompareHTMLBoundOwnTest: ab broke a bound by its paired windows
// while the rounds' test reads the same row within the noise (measured:
// read.p50=+10% broken at p = 0.013, the row "~ within the noise"); the
// page says the two are different tests, and says nothing of it when the
// bound's row agrees with it.
func TestCompareHTMLBoundOwnTest(t *testing.T) {
	base, nw, c := comparePair(t, 1.0)
	say := "A bound is judged by its own test"
	if s, _ := comparePage(t, c, base, nw); strings.Contains(s, say) {
		t.Errorf("no bound, and the page says %q", say)
	}
	bc := compare.BoundCheck{Bound: "read.p50=+10%", Metric: "read.p50", Unit: "ms", Limit: 1, Verdict: compare.VerdictFail}
	for _, g := range c.Latency {
		for _, d := range g.Deltas {
			if d.Metric == bc.Metric {
				bc.Base, bc.New = d.Base, d.New
				if d.Noise == compare.Significant {
					t.Fatalf("the fixture's %s is significant: the case needs one within the noise", d.Metric)
				}
			}
		}
	}
	c.Bounds = []compare.BoundCheck{bc}
	if s, _ := comparePage(t, c, base, nw); !strings.Contains(s, say) {
		t.Errorf("a bound broken while its row reads within the noise, and the page does not say %q", say)
	}
	bc.Verdict, bc.Pass = compare.VerdictPass, true
	c.Bounds = []compare.BoundCheck{bc}
	if s, _ := comparePage(t, c, base, nw); strings.Contains(s, say) {
		t.Errorf("a bound held, and the page says %q", say)
	}
}
