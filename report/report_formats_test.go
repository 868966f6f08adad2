package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/readbench/readbench/internal/golden"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// withTimeline gives the fixture a timeline and advice, as a run that
// records them would, so every section of the reports is exercised.
func withTimeline(t *testing.T) *results.Result {
	r := fixture(t, true)
	for i := range 12 {
		r.Timeline = append(r.Timeline, results.Second{T: i, Warmup: i < 2, Asked: 50, Achieved: 50 - float64(i%3),
			Reads: 42, Errors: int64(i % 2), InFlight: int64(3 + i%4), P50Ms: 20 + float64(i), P99Ms: 100 + 10*float64(i%5)})
	}
	r.Advice = results.Advice{
		Deadlines:             []results.Candidate{{Ms: 500, Share: share(0.03)}, {Ms: 1000, Share: share(0.01)}},
		Timeouts:              []results.Candidate{{Ms: 200, Share: share(0.0025)}},
		RecommendedDeadlineMs: new(1000.0), RecommendedTimeoutMs: new(200.0),
		Reasoning: []string{"p99.9 of turns is 800ms: a 1s deadline cuts 1% of turns"},
	}
	return r
}

func TestMarkdownGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *results.Result
	}{{"report.md.golden", withSlowReads(fixture(t, false))}, {"troubled.md.golden", withTimeline(t)}} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteMarkdown(&buf, c.r); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, "the report", buf.Bytes())
		})
	}
}

func TestMarkdownEscapesNames(t *testing.T) {
	r := fixture(t, false)
	r.Classes[0].Class = "a|b<script>\n"
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Contains(s, "a|b") || strings.Contains(s, "<script>") || !strings.Contains(s, `a\|b&lt;script&gt;?`) {
		t.Errorf("class name not escaped:\n%s", s)
	}
}

// TestHlogRoundTrip reads the log back with hdrhistogram-go's own reader:
// every tagged histogram decodes equal to the result's.
func TestHlogRoundTrip(t *testing.T) {
	r := withTimeline(t)
	var buf bytes.Buffer
	if err := WriteHlog(&buf, r); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for _, want := range []string{"#[StartTime: ", "#[BaseTime: ", `"StartTimestamp","Interval_Length"`, "microseconds"} {
		if !strings.Contains(s, want) {
			t.Errorf("log lacks %q:\n%s", want, s)
		}
	}
	want := map[string]stats.Latency{}
	for _, b := range hlogBlocks(r) {
		want[b.tag] = b.l
	}
	rd := hdrhistogram.NewHistogramLogReader(strings.NewReader(s))
	got := 0
	for range len(want) + 1 {
		h, err := rd.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		got++
		l, ok := want[h.Tag()]
		if !ok {
			t.Fatalf("unexpected tag %q", h.Tag())
		}
		orig, err := hdrhistogram.Decode([]byte(l.HDR))
		if err != nil {
			t.Fatal(err)
		}
		if !h.Equals(orig) || h.TotalCount() != l.Count {
			t.Errorf("%s: decoded histogram differs (count %d, want %d)", h.Tag(), h.TotalCount(), l.Count)
		}
		if h.Tag() == "read" && (h.ValueAtQuantile(50) != int64(l.P50Ms*1000) || h.StartTimeMs() != r.Started.UnixMilli()+2000) {
			t.Errorf("read: p50 %dµs (want %gms), start %d", h.ValueAtQuantile(50), l.P50Ms, h.StartTimeMs())
		}
	}
	if got != len(want) || !strings.Contains(s, "Tag=class:screenshot,") {
		t.Errorf("read %d histograms, want %d", got, len(want))
	}
}

// TestHTMLStructure checks the page is well-formed markup (it is written
// as XHTML-compatible HTML, so encoding/xml can check it), self-contained
// and has every chart with plotted marks.
func TestHTMLStructure(t *testing.T) {
	for _, c := range []struct {
		name     string
		r        *results.Result
		timeline bool
	}{{"timeline", withTimeline(t), true}, {"no timeline", fixture(t, false), false}} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteHTML(&buf, []*results.Result{c.r, c.r}); err != nil {
				t.Fatal(err)
			}
			s := buf.String()
			d := xml.NewDecoder(strings.NewReader(s))
			charts := map[string]int{} // id -> marks inside it
			current := ""
			for {
				tok, err := d.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed: %v", err)
				}
				se, ok := tok.(xml.StartElement)
				if !ok {
					continue
				}
				for _, a := range se.Attr {
					switch {
					case a.Name.Local == "data-chart":
						for _, b := range se.Attr {
							if b.Name.Local == "id" {
								current = b.Value
								charts[current] = 0
							}
						}
					case (a.Name.Local == "src" || a.Name.Local == "href") && !strings.HasPrefix(a.Value, "#"):
						t.Errorf("external reference %s=%q", a.Name.Local, a.Value)
					}
				}
				if se.Name.Local == "path" || (se.Name.Local == "rect" && hasClass(se, "bar")) {
					charts[current]++
				}
			}
			for _, id := range []string{"spectrum", "class-latency", "inflation", "spectrum-2", "inflation-2"} {
				if charts[id] == 0 {
					t.Errorf("chart %s has no marks (%v)", id, charts)
				}
			}
			if got := charts["timeline-rate"] > 0; got != c.timeline {
				t.Errorf("timeline chart drawn %v, want %v", got, c.timeline)
			}
			if !c.timeline && !strings.Contains(s, "No per-second timeline") {
				t.Error("the page does not say the timeline is empty")
			}
			if strings.Contains(s, "<script") || strings.Contains(s, "http://") && !strings.Contains(s, `xmlns="http://www.w3.org/2000/svg"`) {
				t.Error("the page has scripts or links")
			}
		})
	}
}

// TestHTMLAdvice: the page gives the advice the table gives, from the same
// document: the recommended pair, every candidate and the stored sentences.
func TestHTMLAdvice(t *testing.T) {
	r := fixture(t, false)
	var buf bytes.Buffer
	if err := WriteHTML(&buf, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	want := []string{"Recommended: " + recommendation(r.Advice) + ".", `<ul class="reasoning">`}
	for _, row := range adviceRows(r.Advice) {
		want = append(want, "<td>"+row[0]+"</td>")
	}
	for _, reason := range r.Advice.Reasoning {
		want = append(want, "<li>"+html.EscapeString(reason)+"</li>")
	}
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}

func hasClass(se xml.StartElement, class string) bool {
	for _, a := range se.Attr {
		if a.Name.Local == "class" && a.Value == class {
			return true
		}
	}
	return false
}

func TestJSONReport(t *testing.T) {
	r := fixture(t, false)
	var one, two bytes.Buffer
	if err := WriteJSON(&one, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	saved, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), saved) {
		t.Error("one result is not written as saved")
	}
	if err := WriteJSON(&two, []*results.Result{r, r}); err != nil {
		t.Fatal(err)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(two.Bytes(), &arr); err != nil || len(arr) != 2 {
		t.Fatalf("several results: %d documents, %v", len(arr), err)
	}
	if _, err := results.Parse("[0]", arr[0]); err != nil {
		t.Error(err)
	}
}

// share is a candidate's priced share, as the document holds it.
func share(v float64) *float64 { return &v }
