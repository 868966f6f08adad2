package bounds

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseThreshold(t *testing.T) {
	cases := []struct {
		in     string
		metric string
		class  string
		op     Op
		limit  float64
		unit   Unit
	}{
		{"turn.p99<800ms", "turn.p99", "", Less, 800, Millis},
		{" read.p999 <= 1.5s ", "read.p999", "", LessEq, 1500, Millis},
		{"read_ok.mean<250us", "read_ok.mean", "", Less, 0.25, Millis},
		{"errors<1%", "errors", "", Less, 1, Percent},
		{"outcome.timeout<=0.5%", "outcome.timeout", "", LessEq, 0.5, Percent},
		{"rate>45/s", "rate", "", Greater, 45, PerSecond},
		{"read_rate>=3000/min", "read_rate", "", GreaterEq, 50, PerSecond},
		{"inflation<1.4", "inflation", "", Less, 1.4, Ratio},
		{"server_cost.rss_peak<512MiB", "server_cost.rss_peak", "", Less, 512, MiB},
		{"class.screenshot.read.p99<200ms", "class.screenshot.read.p99", "screenshot", Less, 200, Millis},
		{"class.a.b.errors<2%", "class.a.b.errors", "a.b", Less, 2, Percent}, // a class name with a dot
		{"turn_size.4.p99<1s", "turn_size.4.p99", "", Less, 1000, Millis},
	}
	for _, c := range cases {
		th, err := ParseThreshold(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if th.Metric.Name != c.metric || th.Metric.Class != c.class || th.Op != c.op || math.Abs(th.Limit-c.limit) > 1e-9 || th.Metric.Unit != c.unit {
			t.Errorf("%q: got %+v", c.in, th)
		}
	}
}

// TestParseErrors: every bad bound is an *Error at the column of the
// problem, and a misspelt metric names the valid one.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		in      string
		bound   bool // a compare bound, not a threshold
		col     int
		message string
	}{
		{"turn.p99<800", false, 13, "needs a unit"},
		{"turn.p99<8x0ms", false, 10, "bad duration"},
		{"trun.p99<800ms", false, 1, `did you mean "turn.p99"`},
		{"read.p98<1s", false, 1, "unknown metric"},
		{"errors<1", false, 9, "in %"},
		{"turn.p99", false, 9, "want an operator"},
		{"turn.p99=+10%", false, 9, "compare bound"},
		{"turn.p99<", false, 10, "want a limit"},
		{"turn p99<1s", false, 5, "no spaces"},
		{"class.x.read.p97<1s", false, 1, "class.NAME."},
		{"turn_size.x.p99<1s", false, 11, "number of attachments"},
		{"turn_size.4.p97<1s", false, 13, "want one of"},
		{"read.p99=10%", true, 10, "want a sign"},
		{"read.p99<+10%", true, 9, "is a threshold"},
		{"read.p99=+10pp", true, 13, "percentage points"},
		{"errors=+1", true, 9, "pp"},
		{"read.p99=+1e3%", true, 11, "plain number"},
		{"read.p99=+10%,turn.p99=+5Oms", true, 25, "bad duration"}, // the column counts in the whole list
		{"read.p99=+10%,,rate=-5%", true, 15, "want a metric"},
		{"rate=-5%,erors=+1pp", true, 10, `did you mean "errors"`},
	}
	for _, c := range cases {
		var err error
		if c.bound {
			_, err = ParseBounds(c.in)
		} else {
			_, err = ParseThresholds(c.in)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: want an *Error, got %v", c.in, err)
			continue
		}
		if e.Col != c.col || !strings.Contains(e.Error(), c.message) {
			t.Errorf("%q: got column %d %q; want column %d and %q", c.in, e.Col, e.Error(), c.col, c.message)
		}
	}
}

func TestParseBound(t *testing.T) {
	cases := []struct {
		in             string
		change         Change
		amount         float64
		base, ok, fail float64 // a new value within the bound and one beyond it
	}{
		{"read.p99=+10%", Relative, 10, 100, 110, 110.1},
		{"turn.p99=+50ms", Absolute, 50, 700, 750, 750.5},
		{"errors=+0.5pp", Points, 0.5, 1, 1.5, 1.6},
		{"rate=-5%", Relative, -5, 100, 95, 94.9},
		{"class.screenshot.read.p99=+20%", Relative, 20, 100, 120, 121},
		{"read.p99=+0%", Relative, 0, 100, 100, 100.001},
		{"rate=-0%", Relative, 0, 100, 100, 99.999},
		{"read.p99=+1s", Absolute, 1000, 10, 1010, 1011},
	}
	for _, c := range cases {
		b, err := ParseBound(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if b.Change != c.change || math.Abs(b.Amount-c.amount) > 1e-9 {
			t.Errorf("%q: got %+v", c.in, b)
		}
		if b.Broken(c.base, c.ok) {
			t.Errorf("%q: %v → %v broke it", c.in, c.base, c.ok)
		}
		if !b.Broken(c.base, c.fail) {
			t.Errorf("%q: %v → %v did not break it", c.in, c.base, c.fail)
		}
	}
	// A relative rise from 0 is broken by any rise.
	b, _ := ParseBound("errors=+10%")
	if !b.Broken(0, 0.01) || b.Broken(0, 0) {
		t.Errorf("errors=+10%% from 0: a rise must break it, no change must not")
	}
}

// TestCheckThresholdClasses: a class the workload lacks is an error
// naming the closest one, before a run.
func TestCheckThresholdClasses(t *testing.T) {
	th, _ := ParseThreshold("class.pngs.read.p99<1s")
	if err := CheckThresholdClasses([]Threshold{th}, []string{"png", "md"}); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), `"png"`) {
		t.Errorf("CheckThresholdClasses: %v", err)
	}
}
