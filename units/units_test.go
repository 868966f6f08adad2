package units

import (
	"math"
	"strings"
	"testing"
)

// sizeCases are shared with FuzzParseSize as its seed corpus.
var sizeCases = []struct {
	in   string
	want int64
	err  string // substring of the error; "" = accepted
}{
	{"1834208", 1834208, ""},    // a PNG attachment, bare bytes
	{"0", 0, ""},                // an empty document is a real size
	{"8KiB", 8192, ""},          // IEC
	{"8 KiB", 8192, ""},         // a space is fine
	{"  12MiB ", 12 << 20, ""},  // surrounding space is trimmed
	{"1GiB", 1 << 30, ""},       //
	{"2TiB", 2 << 40, ""},       //
	{"3MB", 3_000_000, ""},      // SI, as dashboards write it
	{"8KB", 8000, ""},           //
	{"1GB", 1e9, ""},            //
	{"1.5MiB", 1572864, ""},     // decimals are exact
	{"0.1KiB", 102, ""},         // 102.4 rounds to 102
	{"0.0005KB", 1, ""},         // 0.5 rounds half up
	{"1.5", 0, "whole number"},  // a byte count has no fraction
	{"2.5B", 0, "whole number"}, //
	{"512B", 512, ""},           //
	{"007", 7, ""},              // leading zeros are decimal, not octal
	{"9223372036854775807", math.MaxInt64, ""},
	{"9223372036854775808", 0, "too large"},
	{"8388608TiB", 0, "too large"},
	{"-1", 0, "negative"},
	{"-8KiB", 0, "negative"},
	{"8kb", 0, "ambiguous"}, // KB or KiB? refuse to guess
	{"8kib", 0, "ambiguous"},
	{"8Kb", 0, "ambiguous"},
	{"8k", 0, "unknown unit"},
	{"8 bytes", 0, "unknown unit"},
	{"", 0, "want a number"},
	{"KiB", 0, "want a number"},
	{"1.", 0, "digits after"},
	{".5MiB", 0, "want a number"},
	{"1e3", 0, "unknown unit"},
	{"0x10", 0, "unknown unit"},
	{"+5", 0, "want a number"},
	{"1_000", 0, "unknown unit"},
	{"1.5.5MiB", 0, "unknown unit"},
}

func TestParseSize(t *testing.T) {
	for _, c := range sizeCases {
		got, err := ParseSize(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("ParseSize(%q): %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseSize(%q) = %d, %v; want an error about %q", c.in, got, err, c.err)
		case c.err == "" && got != c.want:
			t.Errorf("ParseSize(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for _, c := range []struct {
		in   int64
		want string
	}{
		{0, "0"}, {1, "1"}, {1023, "1023"}, {1024, "1KiB"}, {8192, "8KiB"}, {1536, "1536"},
		{1834208, "1834208"}, {3 << 20, "3MiB"}, {3_000_000, "3000000"}, {1 << 30, "1GiB"},
		{5 << 40, "5TiB"}, {1 << 50, "1024TiB"}, {math.MaxInt64, "9223372036854775807"},
	} {
		if got := FormatSize(c.in); got != c.want {
			t.Errorf("FormatSize(%d) = %q, want %q", c.in, got, c.want)
		}
		if back, err := ParseSize(c.want); err != nil || back != c.in {
			t.Errorf("ParseSize(FormatSize(%d)) = %d, %v", c.in, back, err)
		}
	}
}

// rateCases are shared with FuzzParseRate as its seed corpus.
var rateCases = []struct {
	in   string
	want float64
	err  string
}{
	{"50/s", 50, ""},
	{"50", 50, ""},                 // a bare number is per second
	{"0.5", 0.5, ""},               //
	{"3000/min", 50, ""},           // exact: 3000/60
	{"600/m", 10, ""},              // Go's m is a minute
	{"2/ms", 2000, ""},             //
	{"100/h", 100.0 / 3600, ""},    //
	{"10/5s", 2, ""},               // a period with a number
	{"1/100ms", 10, ""},            //
	{"3/us", 3e6, ""},              //
	{" 50 / s ", 50, ""},           // space is fine
	{"0/s", 0, "more than zero"},   // would schedule nothing
	{"0", 0, "more than zero"},     //
	{"-5/s", 0, "negative"},        //
	{"50/x", 0, "bad period"},      //
	{"50/0s", 0, "bad period"},     //
	{"50/-1s", 0, "bad period"},    //
	{"/s", 0, "want a number"},     //
	{"fast", 0, "want a number"},   //
	{"50/s/s", 0, "bad period"},    //
	{"1e3/s", 1000, ""},            // an exponent, as programs print rates
	{"2.3e-05/s", 2.3e-05, ""},     // what init --from wrote for a sparse recording
	{"4e+04/s", 40000, ""},         //
	{"1E3", 1000, ""},              //
	{"1.5e1/min", 0.25, ""},        //
	{"1e/s", 0, "an exponent is"},  //
	{"1e+/s", 0, "an exponent is"}, //
	{"1e-x/s", 0, "an exponent is"},
	{"1e99999/s", 0, "too large"},     // no float64 needs five digits
	{"1e400/s", 0, "too large"},       //
	{"1e-400/s", 0, "more than zero"}, // underflows to zero
	{"0e5/s", 0, "more than zero"},    //
	{"NaN", 0, "want a number"},       //
	{"Inf/s", 0, "want a number"},     //
	{"50rps", 0, "unexpected"},        //
	{"", 0, "want a number"},
	{strings.Repeat("9", 400) + "/ns", 0, "too large"},
}

// stageRateCases are ParseStageRate's: every rate, and zero (a pause).
var stageRateCases = []struct {
	in   string
	want float64
	err  string
}{
	{"0/s", 0, ""},
	{"0", 0, ""},
	{"0.000/min", 0, ""},
	{"0e5/s", 0, ""},
	{"50/s", 50, ""},
	{"1/6m", 1.0 / 360, ""}, // what init --from writes for one turn in six minutes
	{"2.3e-05/s", 2.3e-05, ""},
	{"1e-400/s", 0, "too small"}, // not zero as written: refused, never a silent pause
	{"-1/s", 0, "negative"},
	{"0/0s", 0, "bad period"},
	{"", 0, "want a number"},
}

func TestParseStageRate(t *testing.T) {
	for _, c := range stageRateCases {
		got, err := ParseStageRate(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("ParseStageRate(%q): %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseStageRate(%q) = %v, %v; want an error about %q", c.in, got, err, c.err)
		case c.err == "" && got.PerSecond != c.want:
			t.Errorf("ParseStageRate(%q) = %v/s, want %v/s", c.in, got.PerSecond, c.want)
		}
	}
}

func TestParseRate(t *testing.T) {
	for _, c := range rateCases {
		got, err := ParseRate(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("ParseRate(%q): %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseRate(%q) = %v, %v; want an error about %q", c.in, got, err, c.err)
		case c.err == "" && got.PerSecond != c.want:
			t.Errorf("ParseRate(%q) = %v/s, want %v/s", c.in, got.PerSecond, c.want)
		case c.err == "" && got.Text != strings.TrimSpace(c.in):
			t.Errorf("ParseRate(%q).Text = %q, want it as written", c.in, got.Text)
		}
	}
}

func TestRateString(t *testing.T) {
	for _, c := range []struct {
		r    Rate
		want string
	}{
		{Rate{PerSecond: 50, Text: "3000/min"}, "3000/min"}, // as written
		{Rate{PerSecond: 50}, "50/s"},                       // canonical
		{Rate{PerSecond: 0.1}, "0.1/s"},
		{Rate{PerSecond: 1e-7}, "0.0000001/s"},
		{Rate{PerSecond: 2.5e9}, "2500000000/s"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.r, got, c.want)
		}
		back, err := ParseRate(c.r.String())
		if err != nil || back.PerSecond != c.r.PerSecond {
			t.Errorf("ParseRate(%q) = %v, %v; want %v/s", c.r.String(), back.PerSecond, err, c.r.PerSecond)
		}
	}
	var r Rate
	if err := r.UnmarshalText([]byte("600/min")); err != nil || r.PerSecond != 10 {
		t.Errorf("UnmarshalText: %v, %v", r, err)
	}
	if b, _ := r.MarshalText(); string(b) != "600/min" {
		t.Errorf("MarshalText = %q", b)
	}
}
