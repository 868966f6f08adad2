package results

import "testing"

// TestContendedText: the claim is made from AdviceCaveatPressure, never
// under it nor when the kernel did not say.
func TestContendedText(t *testing.T) {
	p := func(f float64) *float64 { return &f }
	for _, tt := range []struct {
		pressure *float64
		want     string
	}{
		{nil, ""},
		{p(0), ""},
		{p(0.499), ""},
		{p(AdviceCaveatPressure), "the machine was contended (CPU pressure 50.0% of the measured run)"},
		{p(0.973), "the machine was contended (CPU pressure 97.3% of the measured run)"},
		{p(1), "the machine was contended (CPU pressure 100.0% of the measured run)"},
	} {
		got := ContendedText(tt.pressure)
		if got != tt.want || Contended(tt.pressure) != (tt.want != "") {
			t.Errorf("ContendedText(%v) = %q, want %q", tt.pressure, got, tt.want)
		}
		if why := ContendedWhy(tt.pressure); (why == "") != (tt.want == "") || why != "" && why[:len(got)] != got {
			t.Errorf("ContendedWhy(%v) = %q, want it to start with %q", tt.pressure, why, got)
		}
	}
}
