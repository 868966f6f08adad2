package report

import (
	"bytes"
	"html/template"
	"regexp"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// overloadedRun is the clean fixture as an overloaded run records it: 101
// of 105 turns cut at the deadline (recorded there, lower bounds), and
// 70% of the reads cut with them, so that its read p50 and p99 are cut
// reads' too. Its verdict is decided again from those counts.
func overloadedRun(t *testing.T) *results.Result {
	t.Helper()
	r := fixture(t, false)
	r.Totals.TurnEnds = results.TurnEnds{Complete: 4, Cut: 101}
	r.Turn.LowerBounds = 101
	r.Read.LowerBounds = r.Read.Count * 7 / 10
	r.Health = results.HealthOf(r)
	return r
}

// notFoundRun is the fixture as the README's workload against readbench
// serve records it: most reads not found, every turn complete.
func notFoundRun(t *testing.T) *results.Result {
	t.Helper()
	r := fixture(t, false)
	r.Totals.Outcomes["ok"], r.Totals.Outcomes["not_found"] = 20, 380
	r.Health = results.HealthOf(r)
	return r
}

// TestHealthIsSaidFirstInEveryFormat: the health line of a run it fails
// (no thresholds set) is the first line of the terminal report, the
// first paragraph of the markdown one (the verdict that decided the
// exit), the
// first line of the HTML run page's headline (above the thresholds'
// verdict) and a JUnit case; an overloaded run and a failing one both.
func TestHealthIsSaidFirstInEveryFormat(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *results.Result
		line string
	}{
		{"overloaded", overloadedRun(t), "✗ overloaded: 96.2% of turns cut at the 800ms deadline"},
		{"not found", notFoundRun(t), "✗ failing: 91.6% of reads sent failed, all not_found: the workload's URIs are not on this server"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.HasPrefix(c.r.Health.Line, c.line) {
				t.Fatalf("verdict %q, want %q...", c.r.Health.Line, c.line)
			}
			var table, md, page, junit bytes.Buffer
			if err := WriteTable(&table, c.r); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(table.String(), c.line) {
				t.Errorf("the table report does not open with the health line:\n%.300s", table.String())
			}
			if err := WriteMarkdown(&md, c.r); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(md.String(), "**"+mdEscape(c.line)) { // the verdict that fails the run: the health's line
				t.Errorf("the markdown report does not open with the health line:\n%.400s", md.String())
			}
			if err := WriteHTML(&page, []*results.Result{c.r}); err != nil {
				t.Fatal(err)
			}
			head := page.String()[strings.Index(page.String(), `<header class="headline"`):]
			health, verdict := strings.Index(head, `<div class="health" data-health="`), strings.Index(head, "no thresholds set")
			if health < 0 || verdict < 0 || health > verdict || health > strings.Index(head, `class="tiles"`) {
				t.Errorf("the headline does not lead with the health (at %d, thresholds at %d):\n%.1200s", health, verdict, head)
			}
			text := `<span class="mark">✗</span> ` + template.HTMLEscapeString(htmlHealthOf(c.r).Text) + "</p>"
			if !strings.Contains(head, `<p class="verdict fail">`+text) && // under the banner, or as the banner itself
				!regexp.MustCompile(`<p class="verdict ending fail"[^>]*>`+regexp.QuoteMeta(text)).MatchString(head) {
				t.Errorf("the health is not drawn in the fail colour with its mark:\n%.1200s", head)
			}
			if err := WriteJUnit(&junit, c.r); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(junit.String(), `<testcase name="health" classname="readbench.health"`) ||
				!strings.Contains(junit.String(), `<failure message="`+strings.Split(c.line, "'")[0]) {
				t.Errorf("JUnit lacks the failing health case:\n%s", junit.String())
			}
		})
	}
}

// TestJUnitHealthCase: the health case agrees with the exit code
// (results.Judge): a failure when the health alone fails the run (useless,
// or most of it failed without thresholds), a pass otherwise, and
// skipped, with its line, when thresholds decide an unhealthy run.
func TestJUnitHealthCase(t *testing.T) {
	held := []results.Verdict{{Bound: "turn.p99<2s", Metric: "turn.p99", Unit: "ms", Measured: 800, Limit: 2000, Pass: true}}
	for _, c := range []struct {
		name       string
		v          results.Health
		thresholds []results.Verdict
		want       string // "failure", "skipped" or "pass"
	}{
		{"healthy", results.Health{Health: results.StateHealthy, Line: "✓ healthy: x"}, nil, "pass"},
		{"overloaded, most failed, no thresholds", results.Health{Health: results.StateOverloaded, Line: "✗ overloaded: x", MostFailed: true}, nil, "failure"},
		{"overloaded, most complete, no thresholds", results.Health{Health: results.StateOverloaded, Line: "! overloaded: x"}, nil, "pass"},
		{"failing, no thresholds", results.Health{Health: results.StateFailing, Line: "✗ failing: x", MostFailed: true, Reasons: []string{"one", "two"}}, nil, "failure"},
		{"overloaded, most failed, thresholds held", results.Health{Health: results.StateOverloaded, Line: "✗ overloaded: x", MostFailed: true}, held, "skipped"},
		{"healthy, thresholds held", results.Health{Health: results.StateHealthy, Line: "✓ healthy: x"}, held, "pass"},
		{"useless, thresholds held", results.Health{Health: results.StateUseless, Line: "✗ useless: x", MostFailed: true}, held, "failure"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := fixture(t, false)
			r.Health, r.Thresholds = c.v, c.thresholds
			got := junitHealth(r)
			state := "pass"
			switch {
			case got.Failure != nil:
				state = "failure"
			case got.Skipped != nil:
				state = "skipped"
				if !strings.Contains(got.Skipped.Message, c.v.Line) {
					t.Errorf("skipped without the line: %q", got.Skipped.Message)
				}
			}
			if got.Failure != nil && len(c.v.Reasons) > 1 && got.Failure.Text != strings.Join(c.v.Reasons, "\n") {
				t.Errorf("the failure's text %q, want the reasons one a line", got.Failure.Text)
			}
			if state != c.want || got.SystemOut != c.v.Line {
				t.Errorf("case %s (out %q), want %s", state, got.SystemOut, c.want)
			}
			var b bytes.Buffer
			if err := WriteJUnit(&b, r); err != nil {
				t.Fatal(err)
			}
			if msg := validateJUnit(t, b.Bytes()); msg != "" {
				t.Errorf("does not validate: %s\n%s", msg, b.String())
			}
		})
	}
}

// TestLowerBoundsCarryGE: a figure that is a lower bound (reads and turns
// recorded at the cut are more than the share of the block above it)
// carries "≥" in the latency table of every format, the terminal summary
// and the headline's tiles; a clean run's figures carry none.
func TestLowerBoundsCarryGE(t *testing.T) {
	r := overloadedRun(t)
	row := latencyRow("all reads", r.Read)
	// 70% of the reads cut: p50 and up are lower bounds.
	for i, want := range []string{"≥20.0ms", "≥", "≥", "≥", "≥", "≥"} {
		if !strings.HasPrefix(row[2+i], want) {
			t.Errorf("all reads, column %d: %q, want %q...", 2+i, row[2+i], want)
		}
	}
	r.Read.LowerBounds = 3 // 3 of 410, under 1%: only the p99.9, the max and the mean
	row = latencyRow("all reads", r.Read)
	for i, bound := range []bool{false, false, false, true, true, true} {
		if strings.HasPrefix(row[2+i], "≥") != bound {
			t.Errorf("3 of 410 cut: column %d is %q, lower bound %v", 2+i, row[2+i], bound)
		}
	}
	r.Read.LowerBounds = r.Read.Count * 7 / 10
	var table bytes.Buffer
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "read p50 ≥20.0ms, p99 ≥100ms; turn p50 ≥100ms, p99 ≥5.00s") {
		t.Errorf("the summary lacks ≥:\n%.600s", table.String())
	}
	h := resultHeadline(r)
	if h.Tiles[0].Value != "≥20.0ms / ≥100ms" || h.Tiles[1].Value != "≥100ms / ≥5.00s" || h.Tiles[0].Class != "warn" {
		t.Errorf("tiles %+v", h.Tiles[:2])
	}
	clean := fixture(t, false)
	var cleanTable bytes.Buffer
	if err := WriteTable(&cleanTable, clean); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cleanTable.String(), "≥") {
		t.Errorf("a run with no lower bound shows ≥:\n%s", cleanTable.String())
	}
}

// TestTurnSizesAtTheDeadlineAreLowerBounds: turn-size blocks do not count
// their cut turns, but a cut turn is recorded at exactly the deadline: a
// figure at or above it is a lower bound, one below it is not.
func TestTurnSizesAtTheDeadlineAreLowerBounds(t *testing.T) {
	r := overloadedRun(t)
	size := results.TurnSize{Attachments: 4, Latency: stats.Latency{Count: 10, P50Ms: 120, P90Ms: 800.4, P99Ms: 800.4, P999Ms: 800.4, MaxMs: 800.4, MeanMs: 500}}
	r.TurnSizes = []results.TurnSize{size, {Attachments: 1, Latency: size.Latency}}
	tables, _ := turnSizeTable(r)
	row := tables[0].Rows[0]
	if row[2] != "120ms" || row[3] != "≥800ms" || row[7] != "500ms" {
		t.Errorf("turn size row %q", row)
	}
	r.Turn.LowerBounds = 0 // nothing was cut: no figure is a lower bound
	if tables, _ := turnSizeTable(r); strings.Contains(strings.Join(tables[0].Rows[0], " "), "≥") {
		t.Errorf("a run that cut nothing: %q", tables[0].Rows[0])
	}
}

// TestTilesAreNeutralWithoutAVerdict: a tile takes the pass colour only
// from a threshold that held on its figure, the fail colour from one that
// broke, and is neutral otherwise; the page's style draws a plain tile
// in no verdict's colour.
func TestTilesAreNeutralWithoutAVerdict(t *testing.T) {
	r := fixture(t, false)
	r.Totals.Errors = 0
	r.Thresholds = nil
	for _, tile := range resultHeadline(r).Tiles {
		if tile.Class != "" {
			t.Errorf("tile %q: class %q without a threshold", tile.Label, tile.Class)
		}
	}
	r.Thresholds = []results.Verdict{
		{Bound: "turn.p99<800ms", Metric: "turn.p99", Pass: false},
		{Bound: "read.p99<1s", Metric: "read.p99", Pass: true},
		{Bound: "rate>5/s", Metric: "rate", Pass: true},
		{Bound: "class.markdown.read.p99<1ms", Metric: "class.markdown.read.p99", Pass: false},
	}
	got := map[string]string{}
	for _, tile := range resultHeadline(r).Tiles {
		got[tile.Label] = tile.Class
	}
	want := map[string]string{"read p50 / p99": "pass", "turn p50 / p99": "fail", "errors": "", "rate achieved": "pass"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("tile %q: class %q, want %q", k, got[k], v)
		}
	}
	if fail := notFoundRun(t); resultHeadline(fail).Tiles[2].Class != "fail" {
		t.Errorf("a failing run's errors tile: %+v", resultHeadline(fail).Tiles[2])
	}
	i := strings.Index(htmlSource, ".tile {")
	if rule := htmlSource[i : i+strings.Index(htmlSource[i:], "}")]; strings.Contains(rule, "#0072b2") {
		t.Errorf("a plain tile is drawn in the pass colour: %s", rule)
	}
}
