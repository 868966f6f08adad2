package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// block is a latency block holding the values given, as a run stores it.
func block(t testing.TB, values ...time.Duration) stats.Latency {
	t.Helper()
	h := stats.NewHistogram()
	for _, v := range values {
		h.Record(v)
	}
	enc, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	return stats.Latency{Count: h.Count(), HDR: enc, P50Ms: ms(h.Quantile(50)), P90Ms: ms(h.Quantile(90)),
		P99Ms: ms(h.Quantile(99)), P999Ms: ms(h.Quantile(99.9)), MaxMs: ms(h.Max()), MeanMs: ms(h.Mean())}
}

// steps is n values: 1ms, 2ms ... n ms.
func steps(n int) []time.Duration {
	var vs []time.Duration
	for i := 1; i <= n; i++ {
		vs = append(vs, time.Duration(i)*time.Millisecond)
	}
	return vs
}

// num is a measured figure of the document's nullable ones.
func num(v float64) *float64 { return &v }

// everything is the timeline fixture with what no stored fixture has:
// measured server cost with a cold start, caching hints and two turn
// sizes, listeners with a fan-out, so every line of every section is
// drawn.
func everything(t testing.TB) *results.Result {
	r := document(t, "timeline.json")
	r.ServerCost = results.ServerCost{Available: true, Processes: 1, Samples: 20, CPUSeconds: 1.25,
		Reads: 400, CPUMsPer1000Reads: num(3.1), RSS: results.RSSCost{StartMiB: 12, PeakMiB: 20.5, EndMiB: 19, GrowthMiB: 7,
			SlopeMiBPerMinute: num(2.5), SlopeStdErr: num(0.2)}}
	r.ServerCost.ColdStart.Available = true
	r.ServerCost.ColdStart.SpawnToFirstAnswerMs = 35
	r.ServerCost.ColdStart.FirstReadMs = num(12)
	r.ServerCost.ColdStart.FirstReadVsMedian = num(4)
	r.ServerCost.ColdStart.SteadyMedianMs = num(3)
	r.Classes[0].Cache = results.Cache{Hinted: 30, MinTTLMs: 1000, MaxTTLMs: 60000, Public: 20, Private: 10, WouldNotSend: 12}
	r.TurnSizes = []results.TurnSize{{Attachments: 1, Latency: block(t, steps(200)...)},
		{Attachments: 4, Latency: block(t, steps(400)...)}}
	r.Subscriptions = subscriptionsBlock(1, 2, true)
	return r
}

// withThresholds is the clean run held to two thresholds, one broken.
func withThresholds(t testing.TB) *results.Result {
	r := fixture(t, false)
	r.Thresholds = []results.Verdict{
		{Bound: "turn.p99<800ms", Metric: "turn.p99", Unit: "ms", Measured: 900, Limit: 800, Pass: false},
		{Bound: "errors<1%", Metric: "errors", Unit: "%", Measured: 0.5, Limit: 1, Pass: true},
	}
	return r
}

// page renders rs and checks the page is well-formed (written as
// XHTML-compatible HTML, so encoding/xml can read it); it returns the
// page and the data-section kinds found.
func page(t *testing.T, rs ...*results.Result) (string, map[string]int) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteHTML(&buf, rs); err != nil {
		t.Fatal(err)
	}
	return buf.String(), wellFormed(t, buf.String())
}

// wellFormed parses the page as XML, checks it is self-contained (no
// script, nothing fetched: no src or href but to the page itself), and
// counts its data-section kinds.
func wellFormed(t *testing.T, s string) map[string]int {
	t.Helper()
	sections := map[string]int{}
	d := xml.NewDecoder(strings.NewReader(s))
	d.Entity = xml.HTMLEntity
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return sections
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local == "script" || se.Name.Local == "link" || se.Name.Local == "img" {
				t.Errorf("the page has a <%s>", se.Name.Local)
			}
			for _, a := range se.Attr {
				switch {
				case a.Name.Local == "data-section":
					sections[a.Value]++
				case (a.Name.Local == "src" || a.Name.Local == "href") && !strings.HasPrefix(a.Value, "#"):
					t.Errorf("external reference %s=%q", a.Name.Local, a.Value)
				case strings.HasPrefix(strings.ToLower(a.Name.Local), "on"):
					t.Errorf("event handler %s=%q", a.Name.Local, a.Value)
				}
			}
		}
	}
}

// resultSectionKinds are the sections every result has on the page.
var resultSectionKinds = []string{"latency", "spectrum", "timeline", "bytes", "turn-sizes", "outcomes",
	"cancellation", "cache", "server-cost", "advice"}

// TestHTMLSectionsSayWhatTheTableSays: every section is on the page, and
// every line the table report prints under its tables, every latency and
// bytes row and every outcome is on it too, in the same words, so the
// page never says less than the terminal.
func TestHTMLSectionsSayWhatTheTableSays(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *results.Result
	}{{"clean", fixture(t, false)}, {"troubled", fixture(t, true)}, {"everything", everything(t)}, {"thresholds", withThresholds(t)}} {
		t.Run(c.name, func(t *testing.T) {
			s, sections := page(t, c.r)
			for _, k := range resultSectionKinds {
				if sections[k] != 1 {
					t.Errorf("section %s appears %d times", k, sections[k])
				}
			}
			if got, want := sections["thresholds"], min(len(c.r.Thresholds), 1); got != want {
				t.Errorf("thresholds section appears %d times, want %d", got, want)
			}
			// Compared as text: html/template writes some characters
			// (a '+') as entities.
			text := html.UnescapeString(s)
			var want []string
			for _, f := range footerFields(c.r) {
				want = append(want, printable(f[1]))
				if f[0] != "" {
					want = append(want, "<th>"+f[0]+"</th>")
				}
			}
			for _, row := range latencyRows(c.r) {
				want = append(want, cells(latencyRow(row.name, row.l), 1))
			}
			for _, cl := range c.r.Classes {
				want = append(want, cells(classBytesRow(cl), 2))
			}
			for _, row := range outcomesHTMLTable(c.r).Rows {
				want = append(want, cells(row, 1))
			}
			want = append(want, identityText(c.r.Totals))
			for _, v := range c.r.Thresholds {
				mark, cl := markPass, "pass"
				if !v.Pass {
					mark, cl = markFail, "fail"
				}
				want = append(want, `<tr class="`+cl+`"><td class="verdict-cell">`+mark+" "+verdictWord(v.Pass)+"</td>"+
					cells([]string{v.Bound, v.What()}, 3))
			}
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
		})
	}
}

// cells is a row as the page writes it: the first left cells names,
// the rest figures, right-aligned.
func cells(row []string, left int) string {
	var b strings.Builder
	for i, c := range row {
		if i < left {
			b.WriteString("<td>" + c + "</td>")
		} else {
			b.WriteString(`<td class="num">` + c + "</td>")
		}
	}
	return b.String()
}

// TestHTMLFiguresMatchTheDocument: figures the page shows are the
// document's, not recomputed: the server cost, the cache line, the turn
// sizes.
func TestHTMLFiguresMatchTheDocument(t *testing.T) {
	r := everything(t)
	s, _ := page(t, r)
	s = html.UnescapeString(s)
	for _, w := range []string{
		"CPU 1.25 s over the measured run, 3.1 ms per 1,000 reads (1 process(es), 20 samples)",
		"RSS 12.0 MiB at start, 20.5 peak, 19.0 at end: +7.0 MiB, slope +2.5 ± 0.4 MiB/min (2 standard errors)",
		"first read 12.0ms (4.00× the steady median 3.00ms)",
		"ttl 1.00s..60.0s, 20 public, 10 private; 12 reads",
		`<td>4</td><td class="num">400</td>`, `id="turn-sizes"`, `data-chart="turn-sizes"`,
		"Recommended: " + recommendation(r.Advice) + ".",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	if strings.Contains(s, "No answer carried caching hints") {
		t.Error("the page says no answer had cache hints")
	}
	clean, _ := page(t, fixture(t, false))
	for _, w := range []string{"cost not measured", "No answer carried caching hints", "No turn sizes in this result."} {
		if !strings.Contains(clean, w) {
			t.Errorf("a result without cost, hints or sizes does not say %q", w)
		}
	}
}

// TestHTMLEscapesHostileNames: names and sentences from a document are
// text on the page, never markup: a class, a workload, a server and an
// advice sentence that carry a script, an attribute break and control
// characters.
func TestHTMLEscapesHostileNames(t *testing.T) {
	r := everything(t)
	r.Classes[0].Class = `<script>alert(1)</script>`
	r.Workload.Source = `x" onload="alert(2)`
	r.Workload.Name = "<img src=x onerror=alert(3)>"
	r.Target.Server.Name = "srv\x1b[31m</td>"
	r.Advice.Reasoning = append(r.Advice.Reasoning, "<b>bold</b> & \x00")
	r.Totals.Outcomes["<i>new</i>"] = 1
	s, _ := page(t, r)
	for _, bad := range []string{"<script", "<img", `" onload="`, "<b>", "<i>", "\x1b", "\x00", "</td>\x1b"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page carries %q unescaped", bad)
		}
	}
	for _, w := range []string{"&lt;script&gt;alert(1)&lt;/s", "&lt;img src=x onerror=alert(3)&gt;", "srv?[31m&lt;/td&gt;",
		"&lt;b&gt;bold&lt;/b&gt; &amp; ?"} {
		if !strings.Contains(s, w) {
			t.Errorf("the page lacks the escaped %q", w)
		}
	}
}

// TestSpectrumEndsWhereTheSamplesEnd: a line is drawn from the
// histogram, on the log axis x = log10(1/(1-q)), and stops at the
// quantile its sample count can tell (1-1/n), at its maximum, instead
// of inventing a flat tail to 99.999%.
func TestSpectrumEndsWhereTheSamplesEnd(t *testing.T) {
	ss, end, err := spectrumSeries([]spectrumLine{
		{name: "thousand", l: block(t, steps(1000)...)},
		{name: "empty"},
		{name: "hundred", l: block(t, steps(100)...), dashed: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 || ss[0].name != "thousand" || ss[1].name != "hundred" || !ss[1].dashed {
		t.Fatalf("series %v: want thousand and hundred, the empty block left out", ss)
	}
	if end != 3 {
		t.Errorf("the axis ends at %g decades, want 3 (99.9%%: 1000 samples)", end)
	}
	at := func(s series, x float64) float64 {
		for _, p := range s.pts {
			if math.Abs(p[0]-x) < 1e-9 {
				return p[1]
			}
		}
		t.Fatalf("%s has no point at x=%g", s.name, x)
		return 0
	}
	// At x=1 (90%) a histogram of 1..1000ms reads about 900ms; HDR keeps
	// three significant digits.
	if v := at(ss[0], 1); math.Abs(v-900) > 2 {
		t.Errorf("p90 of 1..1000ms drawn at %gms", v)
	}
	for _, s := range ss {
		last := s.pts[len(s.pts)-1]
		n := float64(len(steps(1000)))
		if s.name == "hundred" {
			n = 100
		}
		if math.Abs(last[0]-math.Log10(n)) > 1e-9 || math.Abs(last[1]-n) > n/500 {
			t.Errorf("%s ends at (%g, %gms), want (%g, %gms): its max, where its samples end", s.name, last[0], last[1], math.Log10(n), n)
		}
		for i := 1; i < len(s.pts); i++ {
			if s.pts[i][1] < s.pts[i-1][1] || s.pts[i][0] <= s.pts[i-1][0] {
				t.Errorf("%s falls or steps back at point %d: %v", s.name, i, s.pts[i-1:i+1])
			}
		}
	}
	one, _, err := spectrumSeries([]spectrumLine{{name: "one", l: block(t, 7*time.Millisecond)}})
	if err != nil || len(one) != 1 || len(one[0].pts) != 1 || one[0].pts[0][0] != 0 || math.Abs(one[0].pts[0][1]-7) > 0.01 {
		t.Fatalf("one value: %v, %v; want one point at (0, 7ms)", one, err)
	}
	dot := string(lineChart("dot", "k", "t", "x", "y", nil, 0, 1, one, func(float64) string { return "" }, 0, nil))
	if !regexp.MustCompile(`stroke-width="7" stroke-linecap="round" d="M` + fmt.Sprintf("%.1f", padL) + ` [0-9.]+h0"`).MatchString(dot) {
		t.Errorf("one value is not drawn as a dot: %s", dot)
	}
	if _, _, err := spectrumSeries([]spectrumLine{{name: "bad", l: stats.Latency{Count: 3, HDR: "not base64!"}}}); err == nil {
		t.Error("a damaged histogram drew a line")
	}
}

// TestHTMLSpectrumAxis: the page's spectrum has the percentile labels
// of HdrHistogram's axis up to where the samples end, and one line per
// block with values.
func TestHTMLSpectrumAxis(t *testing.T) {
	r := everything(t)
	r.Read, r.ReadOK, r.Turn = block(t, steps(9000)...), block(t, steps(8000)...), stats.Latency{}
	chart, err := resultSpectra(r, "")
	if err != nil {
		t.Fatal(err)
	}
	s := string(chart[0])
	for _, w := range []string{">0%<", ">90%<", ">99%<", ">99.9%<", ">99.99%<", `data-series="read"`, `data-series="read_ok"`} {
		if !strings.Contains(s, w) {
			t.Errorf("the spectrum lacks %q", w)
		}
	}
	if strings.Contains(s, ">99.999%<") || strings.Contains(s, `data-series="turn"`) {
		t.Error("the spectrum draws past its samples or a block without values")
	}
}

// TestHTMLSpectrumSaysItsTailIsAFloor: when reads or turns were cut and
// recorded at the cut, the spectrum section says so next to the chart,
// so a flat tail at the deadline is not read as a measured one, without
// repeating the latency section's notes.
func TestHTMLSpectrumSaysItsTailIsAFloor(t *testing.T) {
	for _, c := range []struct {
		name string
		cut  bool
	}{{"result.json", false}, {"timeline.json", true}} {
		r := document(t, c.name)
		if got := r.Read.LowerBounds+r.Turn.LowerBounds > 0; got != c.cut {
			t.Fatalf("%s: cut values %v, the test expects %v", c.name, got, c.cut)
		}
		s, _ := page(t, r)
		sec := html.UnescapeString(sectionText(t, s, "spectrum"))
		if got := strings.Contains(sec, "a floor, not a measured tail"); got != c.cut {
			t.Errorf("%s: the spectrum says its tail is a floor: %v, want %v", c.name, got, c.cut)
		}
		lat := html.UnescapeString(sectionText(t, s, "latency"))
		for _, n := range latencyNotes(r) {
			if strings.Contains(lat, n) && strings.Contains(sec, n) {
				t.Errorf("%s: the spectrum repeats the latency note %q", c.name, n)
			}
		}
	}
}
