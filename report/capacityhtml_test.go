package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/readbench/readbench/capacity"
)

// capacityFixture is a search with a grid, a refinement, a failing step,
// a generator-bound one and a hostile target and server name.
func capacityFixture() *capacity.RateFinding {
	pct := func(p50, p99 float64) capacity.Percentiles { return capacity.Percentiles{P50Ms: p50, P99Ms: p99} }
	return &capacity.RateFinding{
		Target: `http://x/<script>alert(1)</script>`, Server: `evil"<b>`, SLO: "read.p99<100ms,errors<1%", Unit: "turns/s",
		MaxSustainableRate: new(300.0), ReadsPerS: 299, WireMBPerS: 0.4, LimitedBy: capacity.LimitSLO, FirstBadRate: 400,
		Conclusion: "The knee & more.",
		Steps: []capacity.Step{
			{Phase: "step", Rate: 100, Achieved: 100, Read: pct(11, 14), Turn: pct(11, 15), Pass: true},
			{Phase: "step", Rate: 200, Achieved: 200, Read: pct(11, 20), Turn: pct(12, 21), Pass: true},
			{Phase: "step", Rate: 400, Achieved: 390, Read: pct(300, 2100), Turn: pct(310, 2200), Reason: "read.p99<100ms measured 2.1s"},
			{Phase: "refine", Rate: 300, Achieved: 299, Read: pct(12, 40), Turn: pct(12, 41), Pass: true},
			{Phase: "refine", Rate: 350, Achieved: 200, Read: pct(50, 900), Turn: pct(50, 910), GeneratorBound: true,
				Reason: "generator-bound: the generator scheduled 400 of the 700 turns asked"},
		},
	}
}

var (
	markerRE = regexp.MustCompile(`<g class="marker ([a-z-]+)" data-at="([^"]+)"><line x1="([0-9.]+)"`)
	stepDot  = regexp.MustCompile(`<circle class="step (pass|fail)" cx="([0-9.]+)"`)
	rowRE    = regexp.MustCompile(`(?s)<tr(?: class="[a-z]+")?><td>(\d+) (step|refine|size)</td><td class="num">([^<]*)</td>`)
)

// TestCapacityHTML: the page is well-formed and self-contained; the knee
// is marked at the reported rate, at the x of that step's marks, and the
// first failing rate too; the generator-bound step is drawn apart and
// labelled; every step is in the table; hostile names are escaped.
func TestCapacityHTML(t *testing.T) {
	r := capacityFixture()
	var b bytes.Buffer
	if err := CapacityHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	sections := wellFormed(t, s)
	for _, k := range []string{"summary", "latency", "steps"} {
		if sections[k] != 1 {
			t.Errorf("section %s %d times", k, sections[k])
		}
	}
	markers := map[string][2]string{}
	for _, m := range markerRE.FindAllStringSubmatch(s, -1) {
		markers[m[1]] = [2]string{m[2], m[3]}
	}
	if markers["knee"][0] != "300" || markers["first-fail"][0] != "400" {
		t.Fatalf("markers %v, want the knee at 300 and the first failure at 400", markers)
	}
	xs := map[string]string{} // the x of each kind of dot
	for _, m := range stepDot.FindAllStringSubmatch(s, -1) {
		xs[m[2]] += m[1] + " "
	}
	if !strings.Contains(xs[markers["knee"][1]], "pass") || !strings.Contains(xs[markers["first-fail"][1]], "fail") {
		t.Errorf("the knee (x %s) or the first failure (x %s) is not where its step is drawn: %v", markers["knee"][1], markers["first-fail"][1], xs)
	}
	if n := strings.Count(s, `class="step generator-bound"`); n != 4 || strings.Count(s, ">generator-bound</text>") != 1 {
		t.Errorf("%d generator-bound marks, want 4 and one label", n)
	}
	if !strings.Contains(s, "Generator-bound (grey squares, labelled): step 5") {
		t.Error("the generator-bound step is not named under the chart")
	}
	rows := rowRE.FindAllStringSubmatch(s, -1)
	if len(rows) != len(r.Steps) {
		t.Fatalf("%d step rows, want %d", len(rows), len(r.Steps))
	}
	for i, row := range rows {
		if want := stepRows(r.Steps, false)[i][1]; row[3] != want {
			t.Errorf("row %d asks %s, want %s", i+1, row[3], want)
		}
	}
	if strings.Contains(s, "<script>") || strings.Contains(s, "<b>") || !strings.Contains(s, "&lt;script&gt;") || !strings.Contains(s, "The knee &amp; more.") {
		t.Error("a name was not escaped")
	}
	head := s[:strings.Index(s, "</header>")]
	if !strings.Contains(head, "max sustainable 300 turns/s") || !strings.Contains(head, "299 reads/s") {
		t.Error("no maximum sustainable rate in the headline")
	}
	if strings.Count(s, html.EscapeString(r.Conclusion)) != 1 {
		t.Error("the conclusion is not said exactly once")
	}
}

// TestSizeSweepHTML: the largest size within the SLO, the first failure
// and why reads fail are on the page, on a log2 size axis.
func TestSizeSweepHTML(t *testing.T) {
	var steps []capacity.Step
	for sz := int64(1 << 10); sz <= 512<<10; sz *= 2 {
		st := capacity.Step{Phase: "size", Rate: 5, Size: sz, Achieved: 5, Read: capacity.Percentiles{P50Ms: 12, P99Ms: 15}, Pass: sz <= 128<<10}
		if !st.Pass {
			st.Reason = "errors<1% measured 100%"
		}
		steps = append(steps, st)
	}
	r := &capacity.SizeFinding{Target: "http://127.0.0.1/mcp", Rate: 5, SLO: "errors<1%", MaxSizeWithinSLO: 128 << 10,
		SLOBreakSize: 256 << 10, FailSize: 512 << 10, FailOutcome: "internal", FailReason: "read x: JSON-RPC error -32603: message too big",
		Conclusion: "sizes.", Steps: steps}
	var b bytes.Buffer
	if err := SizeSweepHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	wellFormed(t, s)
	markers := map[string]string{}
	for _, m := range markerRE.FindAllStringSubmatch(s, -1) {
		markers[m[1]] = m[2]
	}
	if markers["knee"] != "131072" || markers["first-fail"] != "262144" || markers["fails-outright"] != "524288" {
		t.Errorf("markers %v", markers)
	}
	if len(rowRE.FindAllString(s, -1)) != len(steps) || !strings.Contains(s, "internal: read x: JSON-RPC error -32603: message too big") {
		t.Errorf("steps or why missing:\n%s", s)
	}
}
