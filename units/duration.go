package units

import (
	"fmt"
	"strings"
	"time"
)

// durationUnits are the units of a Go duration, for error messages.
const durationUnits = "ns, us, µs, ms, s, m and h"

// ParseDuration parses a Go duration ("800ms", "1m30s", "0"), as
// time.ParseDuration does, but its errors say what is wrong and how to
// write it: a bare number is the commonest mistake (`--duration 5`), and
// "parse error" or `time: missing unit in duration "5"` leave the user to
// guess the units. Negative durations are returned; callers that refuse
// them say so in their own words.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	d, err := time.ParseDuration(t)
	if err == nil {
		return d, nil
	}
	return 0, DurationError(s)
}

// DurationError is the error ParseDuration gives s, which time.ParseDuration
// refuses: a number without a unit ("5", "1.5", "-2") is told to add one,
// with its own number in the advice; an unknown unit ("5sec", "2d") is named
// with the units there are; anything else is shown an example.
func DurationError(s string) error {
	t := strings.TrimSpace(s)
	num := strings.TrimLeft(t, "+-")
	whole, frac, unit, err := SplitNumber(num)
	switch {
	case t == "":
		return fmt.Errorf("duration %q is empty: write one such as 5s, 500ms or 1m", s)
	case err == nil && unit == "":
		n := whole
		if frac != "" {
			n += "." + frac
		}
		return fmt.Errorf("duration %q has no unit: write %ss, %sms or %sm", s, n, n, n)
	case err == nil && knownDurationUnit(unit) && strings.ContainsAny(t, " \t"):
		return fmt.Errorf("duration %q: write it without spaces, such as %s", s, strings.Join(strings.Fields(t), ""))
	case err == nil && knownDurationUnit(unit):
		return fmt.Errorf("duration %q is too large (at most about 2562047h)", s)
	case err == nil && isLetters(unit):
		return fmt.Errorf("duration %q: unknown unit %q (the units are %s, as in 1m30s or 500ms)", s, unit, durationUnits)
	}
	return fmt.Errorf("duration %q: want a duration such as 5s, 500ms or 1m30s", s)
}

// knownDurationUnit reports whether u is a unit time.ParseDuration knows.
func knownDurationUnit(u string) bool {
	switch u {
	case "ns", "us", "µs", "μs", "ms", "s", "m", "h":
		return true
	}
	return false
}

// isLetters reports whether u is one or more letters and nothing else:
// a unit, even an unknown one, rather than more of a malformed number.
func isLetters(u string) bool {
	for _, r := range u {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == 'µ' || r == 'μ') {
			return false
		}
	}
	return u != ""
}

// Duration is a length of time that reads and writes as the text a person
// writes ("800ms", "1m30s", "0s"), as Rate and Dist do: a saved workload
// (docs/results.md, the workload key) keeps its durations so, and reading
// one back is this type's UnmarshalText, not a parse at each use.
type Duration time.Duration

// String is the Go text of d: "800ms", "1m30s", "0s".
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes d as String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a duration as ParseDuration does. The empty text is
// zero: MarshalText never writes it, and a key a document was written
// before (an older result's) reads as unset.
func (d *Duration) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = 0
		return nil
	}
	v, err := ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}
