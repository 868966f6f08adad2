package suggest

import "testing"

func TestClosest(t *testing.T) {
	opts := []string{"rate", "lognormal", "max_in_flight", "uniform"}
	cases := []struct{ word, want string }{
		{"rat", "rate"},         // one edit
		{"normal", "lognormal"}, // held by an option
		{"in_flight", "max_in_flight"},
		{"RATE", "rate"}, // case does not matter
		{"zzzzzz", ""},   // nothing close
		{"r", ""},        // too short to guess from
	}
	for _, c := range cases {
		if got := Closest(c.word, opts); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := DidYouMean("rat", opts); got != ` (did you mean "rate"?)` {
		t.Errorf("DidYouMean = %q", got)
	}
	if got := DidYouMean("zzzzzz", opts); got != " (want one of: rate, lognormal, max_in_flight, uniform)" {
		t.Errorf("DidYouMean with no match = %q, want the list of options", got)
	}
}
