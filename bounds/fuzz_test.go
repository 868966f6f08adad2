package bounds

import (
	"errors"
	"testing"
)

// FuzzParse feeds any text to both parsers (it comes from command lines
// and workload files): never a panic, an error is always an *Error with a
// column inside the input (or just past it), and what parses renders back
// to text that parses to the same bound.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"turn.p99<800ms", "errors<1%,rate>4/s", "read.p99=+10%,turn.p99=+50ms,errors=+0.5pp,rate=-5%",
		"class.a.b.read.p99=+20%", "turn_size.4.p999<=1s", "server_cost.rss_peak<1GiB",
		"notify.p99<250ms,ack.p50<=1s", "notify.missed<0.1%", "notify.violations<=0,streams.refused<1%", "notify.duplicates=+2", "", ",", "x=", "<", "errors=+1pp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := ParseThresholds(s)
		check(t, s, err)
		for _, th := range ts {
			if err == nil {
				again, err2 := ParseThreshold(th.Text)
				if err2 != nil || again.Text != th.Text || again.Limit != th.Limit {
					t.Fatalf("%q: %q does not parse back: %v", s, th.Text, err2)
				}
			}
		}
		bs, err := ParseBounds(s)
		check(t, s, err)
		for _, b := range bs {
			if err == nil {
				again, err2 := ParseBound(b.Text)
				if err2 != nil || again.Text != b.Text || again.Amount != b.Amount {
					t.Fatalf("%q: %q does not parse back: %v", s, b.Text, err2)
				}
			}
		}
	})
}

func check(t *testing.T, s string, err error) {
	if err == nil {
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: not an *Error: %v", s, err)
	}
	if e.Col < 1 || e.Col > len(s)+1 {
		t.Fatalf("%q: column %d outside the input", s, e.Col)
	}
}
