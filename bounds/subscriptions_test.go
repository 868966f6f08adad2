package bounds

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestSubscriptionMetrics: the freshness loop's metrics parse with their
// units and are known as measured on listeners; the reads' are not.
func TestSubscriptionMetrics(t *testing.T) {
	cases := []struct {
		in     string
		unit   Unit
		limit  float64
		listen bool
	}{
		{"notify.p99<250ms", Millis, 250, true},
		{"notify.p50<=20ms", Millis, 20, true},
		{"ack.p99<1s", Millis, 1000, true},
		{"spread.p999<50ms", Millis, 50, true},
		{"notify.missed<0.1%", Percent, 0.1, true},
		{"notify.violations<=0", Count, 0, true},
		{"notify.duplicates<3", Count, 3, true},
		{"streams.refused<1%", Percent, 1, true},
		{"turn.p99<800ms", Millis, 800, false},
		{"errors<1%", Percent, 1, false},
		{"class.notify.read.p99<1s", Millis, 1000, false}, // a class named notify is a class
	}
	for _, c := range cases {
		th, err := ParseThreshold(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if th.Metric.Unit != c.unit || math.Abs(th.Limit-c.limit) > 1e-9 || th.Metric.Subscriptions() != c.listen {
			t.Errorf("%q: got unit %v limit %v listeners %v", c.in, th.Metric.Unit, th.Limit, th.Metric.Subscriptions())
		}
	}
}

// TestSubscriptionMetricErrors: a count is a plain number, a share needs
// its %, and a misspelt metric is pointed at the right one.
func TestSubscriptionMetricErrors(t *testing.T) {
	cases := []struct {
		in      string
		col     int
		message string
	}{
		{"notify.missed<1", 16, "in %"},
		{"notify.violations<1ms", 19, "plain number"},
		{"notify.p98<1s", 1, "unknown metric"},
		{"notfy.p99<1s", 1, `did you mean "notify.p99"`},
		{"ack.p99<1", 10, "needs a unit"},
	}
	for _, c := range cases {
		_, err := ParseThreshold(c.in)
		var e *Error
		if !errors.As(err, &e) || e.Col != c.col || !strings.Contains(e.Error(), c.message) {
			t.Errorf("%q: got %v; want column %d and %q", c.in, err, c.col, c.message)
		}
	}
}

// TestCheckThresholdListeners: a bound on notifications of a run without
// listeners is an ErrUnknown naming the metric; with listeners, or on
// the reads, it is no error.
func TestCheckThresholdListeners(t *testing.T) {
	reads, _ := ParseThresholds("turn.p99<800ms,errors<1%")
	subs, _ := ParseThresholds("turn.p99<800ms,notify.missed<1%")
	cases := []struct {
		ts        []Threshold
		listeners bool
		want      string
	}{
		{reads, false, ""},
		{subs, true, ""},
		{subs, false, "notify.missed: unknown for this run: it is measured on listeners"},
	}
	for i, c := range cases {
		err := CheckThresholdListeners(c.ts, c.listeners)
		if c.want == "" {
			if err != nil {
				t.Errorf("case %d: %v", i, err)
			}
			continue
		}
		if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: got %v, want %q wrapping ErrUnknown", i, err, c.want)
		}
	}
}

// TestCountBound: a compare bound on a count is absolute or relative,
// never in percentage points.
func TestCountBound(t *testing.T) {
	b, err := ParseBound("notify.violations=+2")
	if err != nil || b.Change != Absolute || b.Amount != 2 || !b.Broken(1, 4) || b.Broken(1, 3) {
		t.Errorf("notify.violations=+2: %+v %v", b, err)
	}
	if _, err := ParseBound("notify.violations=+2pp"); err == nil {
		t.Errorf("notify.violations=+2pp parsed: pp is for shares")
	}
}
