package report

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/capacity"
)

// nonMonotone is the search of the issue: 400/s passed its 2 s step, 800/s
// broke it, the bisection found 600/s broke and 500/s passed, and then
// the 20 s holds broke at 500/s, 400/s and 300/s, the first of them run
// again because the machine was busy. No rate is sustained (LimitHold),
// yet 400/s is no "first failure": it passed its step.
func nonMonotone() *capacity.RateFinding {
	pct := func(p50, p99 float64) capacity.Percentiles { return capacity.Percentiles{P50Ms: p50, P99Ms: p99} }
	st := func(phase string, rate, p99 float64, pass bool, reason string) capacity.Step {
		return capacity.Step{Phase: phase, Rate: rate, Achieved: rate, Read: pct(11, p99), Turn: pct(11, p99), Pass: pass, Reason: reason, Attempt: 1}
	}
	busy := st("hold", 500, 700, false, "read.p99<50ms (measured 700ms); machine busy: some task waited for a CPU 99.4% of the step (over 50.0%), and the server runs on this machine, so it was slowed by the machine, not only by its own work")
	busy.GeneratorBound, busy.NotServers, busy.Rerun = true, capacity.CauseMachine, true
	h500 := st("hold", 500, 515, false, "read.p99<50ms (measured 515ms)")
	h500.Attempt, h500.Retries = 2, 1
	return &capacity.RateFinding{Target: "http://127.0.0.1:8080/mcp", Server: "sim 1", SLO: "read.p99<50ms,errors<1%", Unit: "turns/s",
		LimitedBy: capacity.LimitHold, FirstBadRate: 300, Hold: &capacity.Hold{Rate: 300, DurationS: 20, Reason: "read.p99<50ms (measured 404ms)"},
		Conclusion: "No rate held the SLO for 20 s.",
		Steps: []capacity.Step{
			st("step", 100, 12, true, ""), st("step", 200, 13, true, ""), st("step", 400, 49, true, ""),
			st("step", 800, 900, false, "read.p99<50ms (measured 900ms)"),
			st("refine", 600, 300, false, "read.p99<50ms (measured 300ms)"), st("refine", 500, 45, true, ""),
			busy, h500,
			st("hold", 400, 404, false, "read.p99<50ms (measured 404ms)"),
			st("hold", 300, 404, false, "read.p99<50ms (measured 404ms)"),
		}}
}

// TestCapacityEvidence: the evidence says what passed, what broke (step
// or hold) and what was not the server's, at the edges of a search; an
// attempt run again is not counted; the page never calls a rate the
// "first failure" when a higher one passed.
func TestCapacityEvidence(t *testing.T) {
	allPass := &capacity.RateFinding{LimitedBy: capacity.LimitRange, MaxSustainableRate: new(800.0), Hold: &capacity.Hold{Rate: 800, DurationS: 20, Pass: true},
		Steps: []capacity.Step{{Phase: "step", Rate: 400, Pass: true}, {Phase: "step", Rate: 800, Pass: true}, {Phase: "hold", Rate: 800, Pass: true}}}
	firstStep := &capacity.RateFinding{LimitedBy: capacity.LimitFirstStep, FirstBadRate: 100,
		Steps: []capacity.Step{{Phase: "step", Rate: 100, Reason: "errors<1% (measured 50%)"}}}
	machine := &capacity.RateFinding{LimitedBy: capacity.LimitMachine, FirstBadRate: 400,
		Interval: &capacity.Interval{Low: 200, Unmeasured: []float64{400}, Cause: capacity.CauseMachine},
		Steps: []capacity.Step{{Phase: "step", Rate: 200, Pass: true},
			{Phase: "step", Rate: 400, GeneratorBound: true, NotServers: capacity.CauseMachine, Rerun: true, Reason: "x; machine busy: y"},
			{Phase: "step", Rate: 400, GeneratorBound: true, NotServers: capacity.CauseMachine, Attempt: 2, Reason: "x; machine busy: y"}}}
	holdBusy := &capacity.RateFinding{LimitedBy: capacity.LimitMachine,
		Interval: &capacity.Interval{Low: 200, High: 400, Unmeasured: []float64{200}, Cause: capacity.CauseMachine}, Hold: &capacity.Hold{Rate: 200, DurationS: 10},
		Steps: []capacity.Step{{Phase: "step", Rate: 200, Pass: true}, {Phase: "step", Rate: 400, Reason: "r"},
			{Phase: "hold", Rate: 200, GeneratorBound: true, NotServers: capacity.CauseMachine, Reason: "x; machine busy: y"}}}
	for _, c := range []struct {
		name, want string
		r          *capacity.RateFinding
		tiles      []string // label=value of each tile
	}{
		{"holds broke below a rate a step passed", "steps passed up to 500/s; steps broke at 600–800/s; 20 s holds broke at 300–500/s", nonMonotone(),
			[]string{"passed up to=500 turns/s", "broke the SLO at=300–800/s", "SLO=read.p99<50ms,errors<1%"}},
		{"every step and the hold passed", "steps passed up to 800/s; 20 s hold held at 800/s", allPass,
			[]string{"passed up to=800 turns/s", "broke the SLO=none", "SLO="}},
		{"the first step broke", "no step passed; 100/s broke its step", firstStep,
			[]string{"passed up to=none", "broke the SLO at=100/s", "SLO="}},
		{"a busy machine, its run again not counted twice", "steps passed up to 200/s; machine busy at 400/s", machine,
			[]string{"passed up to=200 turns/s", "broke the SLO=none", "not the server's: machine busy=400/s", "SLO="}},
		{"a hold the busy machine slowed is named a hold", "steps passed up to 200/s; 400/s broke its step; machine busy in the 10 s hold at 200/s", holdBusy,
			[]string{"passed up to=200 turns/s", "broke the SLO at=400/s", "not the server's: machine busy=200/s", "SLO="}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := evidenceOf(c.r).sentence(); got != c.want {
				t.Errorf("evidence\n got %q\nwant %q", got, c.want)
			}
			h := rateHeadline(c.r)
			var got []string
			for _, tl := range h.Tiles {
				got = append(got, tl.Label+"="+tl.Value)
			}
			if strings.Join(got, "|") != strings.Join(c.tiles, "|") {
				t.Errorf("tiles\n got %q\nwant %q", got, c.tiles)
			}
			var b bytes.Buffer
			if err := CapacityHTML(&b, c.r); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "first failure") {
				t.Error(`the page says "first failure"`)
			}
			if !strings.Contains(b.String(), "evidence: "+c.want) {
				t.Error("the evidence is not under the verdict")
			}
		})
	}
}

var (
	seriesRE = regexp.MustCompile(`<path class="series" data-series="([^"]+)"[^>]* d="([^"]+)"`)
	pointRE  = regexp.MustCompile(`[ML]([0-9.]+) ([0-9.]+)`)
)

// TestCapacityChartGeometry: no line joins two points at one rate (the
// 2 s step at 49 ms, the 20 s hold at 515 ms and the run again at 700 ms
// of 500/s are three findings), the holds are series of their own, and
// each line has one point per rate it ran.
func TestCapacityChartGeometry(t *testing.T) {
	r := nonMonotone()
	var b bytes.Buffer
	if err := CapacityHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	paths := map[string][]float64{} // each series' x coordinates in order
	for _, m := range seriesRE.FindAllStringSubmatch(b.String(), -1) {
		for _, p := range pointRE.FindAllStringSubmatch(m[2], -1) {
			x, _ := strconv.ParseFloat(p[1], 64)
			paths[m[1]] = append(paths[m[1]], x)
		}
	}
	for name, xs := range paths {
		for i := 1; i < len(xs); i++ {
			if xs[i] == xs[i-1] {
				t.Errorf("%s: a segment joins two points at x %g", name, xs[i])
			}
		}
	}
	for name, want := range map[string]int{"read p99": 6, "turn p50": 6, "hold read p99": 3, "hold turn p99": 3, "hold read p50": 3} {
		if len(paths[name]) != want {
			t.Errorf("%s: %d points, want %d (one per rate its phase ran)", name, len(paths[name]), want)
		}
	}
	// The hold line is at the holds' rates only: its points lie at the
	// x of the hold marks, apart from the steps'.
	steps, holds := paths["read p99"], paths["hold read p99"]
	if len(steps) == 6 && len(holds) == 3 && (holds[1] != steps[2] || holds[2] != steps[3]) {
		t.Errorf("hold xs %v are not at 300, 400, 500 of the steps' %v", holds, steps)
	}
	if n := strings.Count(b.String(), `class="step machine-busy"`); n != 4 || strings.Count(b.String(), ">machine busy</text>") != 1 {
		t.Errorf("%d machine-busy marks, want the 4 of the hold run again, and one label", n)
	}
	if strings.Contains(b.String(), "generator-bound") {
		t.Error("a step the busy machine slowed is called generator-bound")
	}
}

// TestCapacityTableFits: the table of a recorded search on a busy
// machine (long "run again" reasons) and of the non-monotone search fits
// 120 columns; each reason is a numbered note under the table, in full.
func TestCapacityTableFits(t *testing.T) {
	raw, err := os.ReadFile("testdata/capacity-busy.json")
	if err != nil {
		t.Fatal(err)
	}
	var busy capacity.RateFinding
	if err := json.Unmarshal(raw, &busy); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*capacity.RateFinding{"busy machine": &busy, "non-monotone": nonMonotone()} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteCapacity(&b, r); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for i, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n > capacityWidth {
					t.Errorf("line %d is %d columns:\n%s", i+1, n, l)
				}
			}
			flat := strings.Join(strings.Fields(out), " ")
			for i, s := range r.Steps {
				if s.Reason != "" && !strings.Contains(flat, strings.Join(strings.Fields(s.Reason), " ")) {
					t.Errorf("step %d's reason is not in a note: %q", i+1, s.Reason)
				}
			}
			if !strings.Contains(out, "run again [") || !strings.Contains(out, "\n[1] ") {
				t.Errorf("no numbered notes:\n%s", out)
			}
		})
	}
	if out := func() string { var b bytes.Buffer; _ = WriteCapacity(&b, &busy); return b.String() }(); !strings.Contains(out, "machine busy [") {
		t.Errorf("the busy machine's last attempt is not marked machine busy:\n%s", out)
	}
}

// TestCapacityPageNotesReasonsOnce: on the page, as in the terminal, a
// step's result cell is its word and the number of its note, and each
// reason is said once under the table: a busy machine's paragraph is not
// repeated in every row.
func TestCapacityPageNotesReasonsOnce(t *testing.T) {
	raw, err := os.ReadFile("testdata/capacity-busy.json")
	if err != nil {
		t.Fatal(err)
	}
	var r capacity.RateFinding
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := CapacityHTML(&b, &r); err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(b.String())
	steps := page[strings.Index(page, `id="steps"`):]
	for _, s := range r.Steps {
		if s.Reason == "" {
			continue
		}
		if n := strings.Count(steps, s.Reason); n != 1 {
			t.Errorf("the steps section says %q %d times, want once", s.Reason, n)
		}
	}
	if !strings.Contains(steps, " [1]</td>") || !strings.Contains(steps, `<p class="note">[1] `) {
		t.Errorf("no result cell cites note [1], or no note [1] under the table:\n%s", steps)
	}
}

// TestNamedByMarker: a step's causes are not labelled again at an x whose
// marker already names them all ("machine busy 10/s"), and are where the
// marker names another thing or stands elsewhere.
func TestNamedByMarker(t *testing.T) {
	id := func(v float64) float64 { return v }
	busyAt10 := []marker{{label: "machine busy 10/s", at: 10}}
	for _, c := range []struct {
		name   string
		ms     []marker
		cx     float64
		causes []string
		want   bool
	}{
		{"the marker names it", busyAt10, 10, []string{"machine busy"}, true},
		{"a marker elsewhere", busyAt10, 20, []string{"machine busy"}, false},
		{"a cause the marker does not name", busyAt10, 10, []string{"machine busy", "generator-bound"}, false},
		{"the knee's marker", []marker{{label: "max sustainable 10/s", at: 10}}, 10, []string{"machine busy"}, false},
	} {
		if got := namedByMarker(c.ms, id, c.cx, c.causes); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFailedHoldIsNoMaximum: a search whose every hold broke the SLO
// (limited_by hold) confirmed no rate: its verdict is "✗ no rate held the
// SLO" in the terminal and on the page, never "max sustainable", and the
// finding's max_sustainable_rate is null, from which the command exits 1.
func TestFailedHoldIsNoMaximum(t *testing.T) {
	r := &capacity.RateFinding{LimitedBy: capacity.LimitHold, SLO: "read.p99<50ms",
		Hold:       &capacity.Hold{Rate: 350, DurationS: 20, Pass: false, Reason: "read.p99<50ms (measured 80ms)"},
		Steps:      []capacity.Step{{Rate: 350, Phase: "step", Pass: true}, {Rate: 350, Phase: "hold", Reason: "read.p99<50ms (measured 80ms)"}},
		Conclusion: "No rate held the SLO for 20 s."}
	if mark, text := rateVerdict(r); mark != markFail || strings.Contains(text, "max sustainable") {
		t.Errorf("verdict %s %q, want ✗ and no maximum", mark, text)
	}
	var table, page bytes.Buffer
	if err := WriteCapacity(&table, r); err != nil {
		t.Fatal(err)
	}
	if err := CapacityHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": table.String(), "page": page.String()} {
		if strings.Contains(out, "max sustainable") || !strings.Contains(out, "no rate held the SLO") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
}
