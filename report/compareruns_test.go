package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// runsBounds are the bounds the several-runs fixture is held to: read p50
// (in the latency table), service p99 (in none of the default rows) and a
// class's p99.
const runsBounds = "read.p50=+10%,service.p99=+10%,class.screenshot.read.p99=+10%,class.markdown.outcome.timeout=+1pp"

// compareRunsFixture is n runs per side of comparePair's servers, each run
// moved by the machine (a few percent either way, differently on each
// side, so the newest run is not the median), compared as `readbench
// compare base/ new/` does and held to runsBounds.
func compareRunsFixture(t testing.TB, n int, factor float64) (base, nw []compare.Labelled, c *compare.Comparison) {
	t.Helper()
	machine := []float64{1.00, 1.12, 0.93, 1.05, 0.97, 1.08}
	for i := range n {
		b := pairRun(t, machine[i%len(machine)], "1.0.0")
		w := pairRun(t, factor*machine[(i+2)%len(machine)], "1.1.0")
		b.Started = results.NewTimestamp(time.Date(2026, 12, 1, 10, i, 0, 0, time.UTC))
		w.Started = results.NewTimestamp(time.Date(2026, 12, 1, 11, i, 0, 0, time.UTC))
		base = append(base, compare.Labelled{Label: fmt.Sprintf("base/run%d.json", i+1), Result: b})
		nw = append(nw, compare.Labelled{Label: fmt.Sprintf("new/run%d.json", i+1), Result: w})
	}
	c, err := compare.Runs(base, nw, compare.RunsOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := bounds.ParseBounds(runsBounds)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Hold("compare", bs, base, nw, false); err != nil {
		t.Fatal(err)
	}
	return base, nw, c
}

// oneRun is a side of one run, as CompareHTML takes a side.
func oneRun(r *results.Result) []compare.Labelled {
	return []compare.Labelled{{Label: "run.json", Result: r}}
}

// regexpAll is every match of re in s, with its groups.
func regexpAll(re, s string) [][]string {
	return regexp.MustCompile(re).FindAllStringSubmatch(s, -1)
}

// renderCompare renders c in every format of compare.
func renderCompare(t *testing.T, c *compare.Comparison, base, nw []compare.Labelled) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, f := range map[string]func(*bytes.Buffer) error{
		"table":    func(b *bytes.Buffer) error { return WriteCompareTable(b, c) },
		"markdown": func(b *bytes.Buffer) error { return WriteCompareMarkdown(b, c) },
		"junit":    func(b *bytes.Buffer) error { return WriteCompareJUnit(b, c) },
		"html":     func(b *bytes.Buffer) error { return CompareHTML(b, c, base, nw) },
	} {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.String()
	}
	return out
}

// TestCompareInconclusiveIsNoPass: a bound the figures went past by a
// change three runs a side cannot judge is "! inconclusive" in every
// format (a skipped case in JUnit), never PASS; and the page's tiles
// without a verdict are neutral, not the pass colour.
func TestCompareInconclusiveIsNoPass(t *testing.T) {
	base, nw, c := compareRunsFixture(t, 3, 1.3)
	if c.Bounds[0].Verdict != compare.VerdictInconclusive || !c.Bounds[0].Pass {
		t.Fatalf("read.p50 of 3 runs a side 30%% slower: %+v", c.Bounds[0])
	}
	out := renderCompare(t, c, base, nw)
	for format, want := range map[string]string{
		"table":    "  ! inconclusive  read.p50=+10%",
		"markdown": "| ! inconclusive | `read.p50=+10%` |",
		"junit":    `<skipped message="! inconclusive: `,
		"html":     "<td class=\"verdict-cell\">! inconclusive</td>",
	} {
		if !strings.Contains(out[format], want) {
			t.Errorf("%s: no %q in\n%s", format, want, out[format])
		}
	}
	for format, bad := range map[string][]string{
		"table":    {"PASS  read.p50", "PASS  service.p99"},
		"markdown": {"✅ pass | `read.p50", "every bound holds"},
		"html":     {"PASS</td><td>read.p50"},
	} {
		for _, b := range bad {
			if strings.Contains(out[format], b) {
				t.Errorf("%s: %q", format, b)
			}
		}
	}
	if !strings.Contains(out["junit"], `skipped="3"`) {
		t.Errorf("junit: the suite does not count its skipped cases:\n%s", out["junit"])
	}
	tiles := regexpAll(`<div class="tile ([a-z]*)"><div class="tile-label">([^<]*)<`, out["html"])
	if len(tiles) == 0 {
		t.Fatal("no tiles")
	}
	for _, m := range tiles {
		if m[1] != "neutral" {
			t.Errorf("tile %q without a verdict has class %q", m[2], m[1])
		}
	}
}

// TestCompareGatedFiguresHaveRows: every figure a --fail-on bound gates
// has a row in every table: service p99 (in no default row) and an
// outcome neither side saw, as well as those shown anyway.
func TestCompareGatedFiguresHaveRows(t *testing.T) {
	base, nw, c := compareRunsFixture(t, 3, 1.3)
	out := renderCompare(t, c, base, nw)
	for format, want := range map[string][]string{
		"table":    {" service p99 ", " class.markdown.outcome.… ", " read p50 ", " screenshot p99 "},
		"markdown": {"| service p99 |", "| class.markdown.outcome.… |"},
		"html":     {"<td>service p99</td>", "<td>class.markdown.outcome.timeout</td>"},
	} {
		for _, w := range want {
			if !strings.Contains(out[format], w) {
				t.Errorf("%s: no row %q", format, w)
			}
		}
	}
	// The page's rows shown first are the gated ones, all four.
	if n := strings.Count(out["html"], ` gated">`); n < 4 {
		t.Errorf("html: %d gated rows shown first, want 4", n)
	}
}

// TestCompareTableFits120: the terminal table of a realistic comparison
// of several runs a side fits 120 columns, and says why a change has no
// verdict once per table, never on every row.
func TestCompareTableFits120(t *testing.T) {
	for _, n := range []int{1, 3, 5} {
		base, nw, c := compareRunsFixture(t, n, 1.3)
		c.Notes = append(c.Notes, "advice across the 3 new runs: turn p99 swung from 59.6ms to 70.4ms (1.18x) between runs; deadline 200ms and timeout 10.0s cover the slowest of them with the usual headroom (one run alone recommended a deadline of 200ms to 200ms)")
		table := renderCompare(t, c, base, nw)["table"]
		for i, l := range strings.Split(table, "\n") {
			if w := utf8.RuneCountInString(l); w > 120 {
				t.Errorf("%d runs, line %d is %d columns: %q", n, i+1, w, l)
			}
		}
		tables := strings.Count(table, "\n---")
		if n == 3 {
			if got := strings.Count(table, "need at least 4 runs per side"); got > tables+len(c.Bounds)+2 {
				t.Errorf("%d runs: the noise sentence %d times in %d tables:\n%s", n, got, tables, table)
			}
		}
	}
}

// TestABPageShowsRounds: the ab page has a table of its rounds, each kept
// round naming its base and new run with that pair's own change of each
// gated figure, and an excluded round saying why.
func TestABPageShowsRounds(t *testing.T) {
	base, nw, c := compareRunsFixture(t, 3, 1.3)
	c.Command = "ab"
	c.Rounds = []compare.Round{{Index: 1, Order: []string{"base", "new"}, Attempts: 1, Kept: true, Base: base[0].Label, New: nw[0].Label},
		{Index: 2, Order: []string{"new", "base"}, Attempts: 3, Noisy: []string{"new: interrupted", "base: the generator sent no read", "new: interrupted"}},
		{Index: 3, Order: []string{"base", "new"}, Attempts: 1, Kept: true, Base: base[1].Label, New: nw[1].Label},
		{Index: 4, Order: []string{"new", "base"}, Attempts: 1, Kept: true, Base: base[2].Label, New: nw[2].Label}}
	page := renderCompare(t, c, base, nw)["html"]
	sec := sectionText(t, page, "rounds")
	d, _ := c.Find("read.p50")
	first := fmt.Sprintf("%s → %s", numfmt.Value("ms", d.BaseRuns[0]), numfmt.Value("ms", d.NewRuns[0]))
	for _, want := range []string{"run1.json", "run3.json", first, "excluded", "after 3 attempt(s): new: interrupted", "service.p99"} {
		if !strings.Contains(sec, want) {
			t.Errorf("rounds section lacks %q:\n%s", want, sec)
		}
	}
	if strings.Count(sec, "<tr") != 1+len(c.Rounds) {
		t.Errorf("rounds section: %d rows, want a header and %d rounds", strings.Count(sec, "<tr"), len(c.Rounds))
	}
}

// TestComparePairsSayWhatTheyShow: with several runs a side, the
// side-by-side latency section gives each side's medians (the deltas
// table's figures) and says so; every other side-by-side section says it
// is the newest run's own.
func TestComparePairsSayWhatTheyShow(t *testing.T) {
	base, nw, c := compareRunsFixture(t, 3, 1.3)
	page := renderCompare(t, c, base, nw)["html"]
	lat := sectionText(t, page, "latency")
	p50, _ := c.Find("read.p50")
	p99, _ := c.Find("class.screenshot.read.p99")
	for _, want := range []string{"(median of 3 runs)</h4>",
		`<td>read</td><td class="num">` + numfmt.Value("ms", p50.Base) + "</td>",
		`<td>read</td><td class="num">` + numfmt.Value("ms", p50.New) + "</td>",
		numfmt.Value("ms", p99.Base), numfmt.Value("ms", p99.New)} {
		if !strings.Contains(lat, want) {
			t.Errorf("latency section lacks %q:\n%s", want, lat)
		}
	}
	if strings.Count(lat, "(median of 3 runs)</h4>") != 2 {
		t.Error("latency section: both sides do not say they are medians")
	}
	tl := sectionText(t, page, "timeline")
	if !strings.Contains(tl, "newest of 3 runs, base/run3.json") || !strings.Contains(tl, "newest of 3 runs, new/run3.json") {
		t.Errorf("timeline section does not say which run it shows:\n%.600s", tl)
	}
}
