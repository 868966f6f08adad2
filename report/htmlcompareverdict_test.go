package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/compare"
)

// verdictComparison is a comparison of read p50 and the rate with the
// given noise verdicts and changes, and the bounds given.
func verdictComparison(p50Change float64, p50Noise compare.Noise, rateChange float64, rateNoise compare.Noise, bounds ...compare.BoundCheck) *compare.Comparison {
	return &compare.Comparison{
		Test: "a test",
		Latency: []compare.LatencyDelta{{Block: "read", Deltas: []compare.Delta{
			{Metric: "read.p50", Label: "p50", Unit: "ms", Base: 20, New: 20 + p50Change, Change: p50Change, Noise: p50Noise}}}},
		Rates:  []compare.Delta{{Metric: "rate", Label: "rate", Unit: "/s", Base: 50, New: 50 + rateChange, Change: rateChange, Noise: rateNoise}},
		Bounds: bounds,
	}
}

func TestCompareVerdict(t *testing.T) {
	broken := compare.BoundCheck{Bound: "read.p50=+10%", Metric: "read.p50", Unit: "ms", Base: 20, New: 26, Limit: 22, Noise: compare.Significant}
	held := broken
	held.Pass, held.New, held.Verdict = true, 21, compare.VerdictPass
	open := held
	open.Noise, open.Verdict = compare.Inconclusive, compare.VerdictInconclusive // passed by --fail-on-inconclusive=false
	asMeasured := held                                                           // one run per side, --single-run: held by the figures as measured
	asMeasured.Noise = compare.Untested
	for _, c := range []struct {
		name, verdict, class string
		c                    *compare.Comparison
		line                 string // a line that decided it
	}{
		{"a broken bound is a regression", "regression: 1 of 1 bound broken", "fail",
			verdictComparison(6, compare.Significant, 0, compare.WithinNoise, broken), "read.p50=+10%"},
		{"without bounds, a significant slowdown is a regression", "regression: 1 significant changes for the worse", "fail",
			verdictComparison(6, compare.Significant, 0, compare.WithinNoise), "read p50 20.0ms → 26.0ms"},
		{"fewer turns per second is for the worse", "regression: 1 significant changes for the worse", "fail",
			verdictComparison(0, compare.WithinNoise, -10, compare.Significant), "rate 50.0/s → 40.0/s"},
		{"nothing testable is inconclusive", "inconclusive: no change could be told from the noise", "warn",
			verdictComparison(6, compare.Untested, 0, compare.Inconclusive), ""},
		{"a bound without a verdict is inconclusive", "inconclusive: 1 of 1 bounds have no verdict", "warn",
			verdictComparison(1, compare.Inconclusive, 0, compare.WithinNoise, open), "read.p50=+10%"},
		{"held bounds are no regression", "no regression: the bound held", "pass",
			verdictComparison(1, compare.WithinNoise, 0, compare.WithinNoise, held), "read.p50=+10%"},
		{"a bound held by the figures as measured is held, as the exit says", "no regression: the bound held", "pass",
			verdictComparison(1, compare.Untested, 0, compare.Untested, asMeasured), "read.p50=+10%"},
		{"a faster server is no change for the worse", "no change for the worse beyond the noise", "pass",
			verdictComparison(-6, compare.Significant, 0, compare.WithinNoise), "read p50 20.0ms → 14.0ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rows []compareRow
			for _, s := range compareSections(c.c) {
				rows = append(rows, s.rows...)
			}
			h := compareHeadline(c.c, "t", rows)
			if h.Verdict.Text != c.verdict || h.Verdict.Class != c.class {
				t.Errorf("verdict %q (%s), want %q (%s)", h.Verdict.Text, h.Verdict.Class, c.verdict, c.class)
			}
			if c.line != "" && (len(h.Lines) == 0 || !strings.Contains(h.Lines[0].Text, c.line)) {
				t.Errorf("decided by %+v, want %q first", h.Lines, c.line)
			}
			var b bytes.Buffer
			if err := WriteCompareTable(&b, c.c); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			if len(lines) < 2 || !strings.HasSuffix(lines[1], c.verdict) || strings.Index(b.String(), "\nbase ") < strings.Index(b.String(), c.verdict) {
				t.Errorf("the table does not lead with the verdict:\n%s", b.String())
			}
			// The markdown (a pull-request comment) opens and closes with
			// the same verdict, bounds or none, with no HTML entity.
			b.Reset()
			if err := WriteCompareMarkdown(&b, c.c); err != nil {
				t.Fatal(err)
			}
			md := strings.Split(strings.TrimSpace(b.String()), "\n")
			want := mdEscape(c.verdict) + "**"
			if len(md) < 3 || !strings.HasSuffix(md[2], want) || !strings.HasSuffix(md[len(md)-1], want) || strings.Contains(b.String(), "&gt;") {
				t.Errorf("the markdown does not open and close with %q:\n%s", c.verdict, b.String())
			}
		})
	}
}

// TestCompareDeltasWhatMattersFirst: the gated and significant rows come
// first; every row, the rest included, is in the folded table.
func TestCompareDeltasWhatMattersFirst(t *testing.T) {
	held := compare.BoundCheck{Bound: "rate=-5%", Metric: "rate", Unit: "/s", Base: 50, New: 50, Pass: true, Noise: compare.WithinNoise}
	c := verdictComparison(6, compare.Significant, 0, compare.WithinNoise, held)
	c.Latency[0].Deltas = append(c.Latency[0].Deltas, compare.Delta{Metric: "read.p90", Label: "p90", Unit: "ms", Base: 30, New: 31, Change: 1, Noise: compare.WithinNoise})
	key := keyDeltas(c, htmlDeltaGroups(c))
	if len(key) != 2 || key[0].Metric != "read.p50" || !key[0].Worse || key[1].Metric != "rate" || !key[1].Gated {
		t.Errorf("key rows %+v: want read.p50 (significant, worse) then rate (gated)", key)
	}
	base, nw, _ := comparePair(t, 1.3)
	var b bytes.Buffer
	if err := CompareHTML(&b, c, oneRun(base), oneRun(nw)); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	fold := strings.Index(s, `<details class="more">`)
	if fold < 0 || strings.Index(s, `<table class="deltas key">`) > fold || !strings.Contains(s[fold:], "<td>read p90</td>") ||
		strings.Contains(s[:fold], "<td>read p90</td>") {
		t.Error("the row within the noise is not folded away under the key rows")
	}
	if !strings.HasPrefix(s[strings.Index(s, "<body>")+len("<body>\n"):], `<header class="headline" data-headline="compare">`) {
		t.Error("the compare page does not open with its headline")
	}
}
