package results

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
)

func loadFixture(t *testing.T) *Result {
	t.Helper()
	r, err := Load("testdata/result.json")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEvaluate checks values against the fixture's figures (420 reads
// scheduled, 10 errors, read p99 100.031 ms, turn p99 5001.215 ms).
func TestEvaluate(t *testing.T) {
	r := loadFixture(t)
	cases := []struct {
		in       string
		measured float64
		pass     bool
		reason   string
	}{
		{"read.p99<200ms", 100.031, true, ""},
		{"read.p99<100ms", 100.031, false, ""},
		{"turn.p99<=5001.215ms", 5001.215, true, ""},
		{"errors<1%", 100 * 10.0 / 420, false, ""},
		{"errors<3%", 100 * 10.0 / 420, true, ""},
		{"outcome.ok>96%", 100 * 400.0 / 420, false, ""},
		{"rate>=10.5/s", 10.5, true, ""},
		{"class.markdown.read.p99<25ms", 20.015, true, ""},
		{"class.markdown.errors<1%", 100 * 5.0 / 305, false, ""},
		{"class.screenshot.inflation<1.3", 1.3333820373698075, false, ""},
		{"server_cost.rss_peak<1GiB", 0, false, "not measured"},
	}
	for _, c := range cases {
		th, err := bounds.ParseThreshold(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		v, err := Evaluate(th, r)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if math.Abs(v.Measured-c.measured) > 1e-9 || v.Pass != c.pass || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%q: got %+v, want measured %v pass %v", c.in, v, c.measured, c.pass)
		}
	}
}

// TestUnknownScope: a class or turn size the result lacks is an error
// naming the valid ones, never a pass.
func TestUnknownScope(t *testing.T) {
	r := loadFixture(t)
	for in, want := range map[string]string{
		"class.screenshots.read.p99<1s": `did you mean "screenshot"`,
		"class.zzzzzzzzz.errors<1%":     "want one of: markdown, screenshot, renamed-policy",
		"turn_size.3.p99<1s":            "turn size 3",
	} {
		th, err := bounds.ParseThreshold(in)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Evaluate(th, r)
		if !errors.Is(err, bounds.ErrUnknown) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want bounds.ErrUnknown and %q", in, err, want)
		}
	}
}

// TestEveryNameParses: the names bounds.Names lists (scopes filled in) all parse
// and evaluate on a result (package bounds lists them; this package
// measures them), so the list offered to a user is never wrong.
func TestEveryNameParses(t *testing.T) {
	r := loadFixture(t)
	listened := *r // the freshness loop's metrics are measured on listeners
	var err error
	if listened.Subscriptions, err = subscriptionsOf(listening(false, 0)); err != nil {
		t.Fatal(err)
	}
	for _, n := range bounds.Names() {
		n = strings.NewReplacer("class.NAME.outcome.NAME", "class.markdown.outcome.ok", "NAME", "markdown", "turn_size.N", "turn.p99").Replace(n)
		n = strings.Replace(n, "turn.p99.p99", "turn.p99", 1)
		m, err := bounds.ParseMetric(n)
		if err != nil {
			t.Errorf("%q: %v", n, err)
			continue
		}
		on := r
		if m.Subscriptions() {
			on = &listened
		}
		if _, err := on.MetricValue(m); err != nil && !errors.Is(err, bounds.ErrNotMeasured) {
			t.Errorf("%q: %v", n, err)
		}
	}
}
