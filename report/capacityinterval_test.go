package report

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/readbench/readbench/capacity"
)

// TestCapacityIntervalHeadline: a search whose steps in between could
// not be measured on a busy machine heads its terminal report and its
// page with the interval, never a single figure, and never suggests more
// shards.
func TestCapacityIntervalHeadline(t *testing.T) {
	r := &capacity.RateFinding{
		Target: "http://127.0.0.1:8080/mcp", Server: "sdk 1", SLO: "read.p99<50ms", Unit: "turns/s",
		ReadsPerS: 275, WireMBPerS: 1.2, LimitedBy: capacity.LimitMachine, FirstBadRate: 300,
		Interval:   &capacity.Interval{Low: 275, High: 400, Unmeasured: []float64{300}, Cause: capacity.CauseMachine},
		Conclusion: "the conclusion.",
		Steps: []capacity.Step{
			{Phase: "step", Rate: 200, Achieved: 200, Pass: true},
			{Phase: "step", Rate: 400, Achieved: 400, Reason: "read.p99<50ms (measured 504ms)"},
			{Phase: "refine", Rate: 300, Achieved: 300, GeneratorBound: true, NotServers: capacity.CauseMachine, Reason: "read.p99<50ms (measured 55ms); machine busy: y"},
			{Phase: "refine", Rate: 275, Achieved: 275, Pass: true},
		},
	}
	want := "! max sustainable rate not known: ≥ 275, < 400 turns/s: steps in between could not be measured on this machine (machine busy at 300/s)"
	var b bytes.Buffer
	if err := WriteCapacity(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if flat := strings.Join(strings.Fields(out), " "); !strings.HasPrefix(flat, want) { // the verdict, wrapped
		t.Errorf("the report\n got %q\nwant %q…", flat, want)
	}
	if strings.Contains(out, "--segment") || strings.Contains(out, "or more") {
		t.Errorf("the report suggests shards or a single figure:\n%s", out)
	}
	b.Reset()
	if err := CapacityHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), html.EscapeString(strings.TrimPrefix(want, "! "))) {
		t.Errorf("the page's verdict does not give the interval:\n%s", b.String())
	}
	if strings.Contains(b.String(), "max sustainable 275/s") {
		t.Error("the chart marks the lower end as the maximum sustainable rate")
	}
}

// TestCapacityUnknownIsNotNoRate: a search whose first step the busy
// machine spoiled says the rate is not known, not that none held the SLO.
func TestCapacityUnknownIsNotNoRate(t *testing.T) {
	r := &capacity.RateFinding{LimitedBy: capacity.LimitMachine, FirstBadRate: 100,
		Interval: &capacity.Interval{Unmeasured: []float64{100}, Cause: capacity.CauseMachine}}
	mark, text := rateVerdict(r)
	if mark != markWarn || text != "max sustainable rate not known: no rate could be measured on this machine (machine busy at 100/s)" {
		t.Errorf("verdict %s %q", mark, text)
	}
}

// TestCapacityNoAnswerVerdict: a search whose first step the server did
// not answer (limited_by no_answer) says the server does not answer, in
// the terminal and on the page, never "not known" nor "no rate held the
// SLO" (issue 47, item 6).
func TestCapacityNoAnswerVerdict(t *testing.T) {
	r := &capacity.RateFinding{LimitedBy: capacity.LimitNoAnswer, FirstBadRate: 10,
		Conclusion: "The server does not answer: at the first step, 10 turns/s, the server answered none of the 20 reads sent (20 timeout).",
		Steps:      []capacity.Step{{Phase: "step", Rate: 10, Reason: "the server answered none of the 20 reads sent (20 timeout)", Outcomes: map[string]int64{"timeout": 20}}}}
	mark, text := rateVerdict(r)
	if mark != markFail || text != "the server does not answer" {
		t.Errorf("verdict %s %q", mark, text)
	}
	var b strings.Builder
	if err := CapacityHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	if page := b.String(); !strings.Contains(page, "the server does not answer") || strings.Contains(page, "not known") {
		t.Errorf("the page's verdict:\n%s", page)
	}
}
